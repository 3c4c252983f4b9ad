#ifndef WS_WL_FILE_H
#define WS_WL_FILE_H
/* Buffers whose values come from files beside the workload (wl_file.c):
 * raw little-endian binary, NumPy .npy, and Matrix Market / edge-list
 * matrices turned into CSR arrays.
 *
 * Every file source ends, at load, as a sealed anonymous memory file (memfd,
 * F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE) holding exactly its elements:
 * the elements of a raw or .npy file are read into it, a CSR part is
 * converted into it. Each run maps it MAP_PRIVATE (wl_file_map_private): the
 * pages are the memfd's until the kernel writes one, so the runs of a sweep
 * (threads of one process) share one copy of the input and a run costs no
 * copy; and since nothing can shrink or change the sealed copy, a data file
 * truncated or rewritten while a sweep runs cannot fault a run (SIGBUS) or
 * change its input (wl_file.c, "the sealed copy"). */
#include <stddef.h>
#include <stdint.h>
#include "warpsweep/error.h"

struct ws_file_data {
    char *path;                /* as shown in messages (beside the workload) */
    int fd;                    /* the sealed memfd: the elements, from byte 0 */
    uint64_t bytes;            /* its size */
    uint64_t offset;           /* where the elements started in the source file */
    uint64_t count;            /* elements */
    uint64_t digest;           /* ws_xxh64 of the elements (the sweep hash's inputs) */
    void *map_base;            /* read-only view of the elements, for expects */
    size_t map_len;
    const uint8_t *view;       /* = map_base */
};
typedef struct ws_file_data ws_file_data;

/* {file: x.bin} / {file: x.npy}: the format follows the extension (.npy, else
 * raw). type is the buffer's element type (checked against an .npy dtype). */
ws_file_data *wl_file_open(const char *path, int type, ws_error *err);
void wl_file_free(ws_file_data *f);

/* Maps f's range for one run: *data = its first byte, writable, private to
 * the run (copy-on-write). Release with munmap(*base, *len). */
int wl_file_map_private(const ws_file_data *f, void **base, size_t *len, uint8_t **data, ws_error *err);

/* A sparse matrix in CSR form, 0-based, rows in order and each row's entries
 * by column (ties in file order). */
typedef struct wl_csr {
    char *path;
    int format;                /* WL_CSR_MTX / WL_CSR_EDGES */
    int undirected;            /* edge list: each edge also reversed */
    uint64_t rows, cols, nnz;
    uint64_t *row_ptr;         /* rows + 1 */
    uint64_t *col_idx;         /* nnz */
    double *values;            /* nnz */
    int integer_values;        /* the field is integer or pattern (values exact integers) */
} wl_csr;

enum { WL_CSR_MTX, WL_CSR_EDGES };
enum { WL_PART_ROW_PTR, WL_PART_COL_IDX, WL_PART_VALUES };

/* Reads a Matrix Market coordinate file (NIST MM format: real, integer or
 * pattern; general, symmetric or skew-symmetric) or an edge list. */
wl_csr *wl_csr_load(const char *path, int format, int undirected, ws_error *err);
void wl_csr_free(wl_csr *c);

/* One CSR array as the elements of a buffer of type `type`. */
ws_file_data *wl_file_from_csr(const wl_csr *c, int part, int type, ws_error *err);

#endif
