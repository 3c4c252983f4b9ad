#ifndef WARPSWEEP_WORKLOAD_H
#define WARPSWEEP_WORKLOAD_H
/* A workload: a kernel plus how it is launched and what its result must be
 * (sweeps/kernels/NAME.yaml; the format is documented in the README). */
#include <stdint.h>
#include <stddef.h>
#include "ptx.h"
#include "exec.h"

typedef enum ws_init_kind {
    WS_INIT_CONST,     /* every element = value[0]                */
    WS_INIT_IOTA,      /* start + i * step                        */
    WS_INIT_LIST,      /* explicit values (rest zero)             */
    WS_INIT_RANDOM,    /* uniform in [min, max], seeded by the run */
    WS_INIT_FILE,      /* the elements of a file (raw, .npy, a CSR part of .mtx / edges) */
} ws_init_kind;

struct ws_file_data;   /* src/workload/wl_file.h */

/* A value spec: used for buffer initialisers and for expectations. */
typedef struct ws_values {
    ws_init_kind kind;
    double start, step;        /* IOTA (also CONST: start) */
    double min, max;           /* RANDOM */
    double *list;              /* LIST (as doubles; integers exact to 2^53);
                                  CONST from a file: also list[0]/ilist[0], nlist = 1 */
    int64_t *ilist;            /* LIST as integers (for 64-bit exactness) */
    uint32_t nlist;
    struct ws_file_data *file; /* FILE: read-only, shared by every run */
    uint32_t ulp;              /* FILE expect on floats: tolerance in units in the last place */
    double rel;                /*   or relative: |got - want| <= rel * |want| (0: exact) */
} ws_values;

typedef struct ws_buffer_spec {
    char *name;
    uint8_t type;              /* ws_type */
    uint64_t count;
    ws_values init;
    int line, col;             /* position in the workload file */
} ws_buffer_spec;

typedef enum ws_expect_kind { WS_EXPECT_VALUES, WS_EXPECT_REFERENCE } ws_expect_kind;

typedef struct ws_expect {
    uint32_t buffer;           /* index into buffers */
    ws_expect_kind kind;
    ws_values values;          /* VALUES: CONST / IOTA / LIST (prefix) */
    int line, col;
} ws_expect;

typedef struct ws_arg {        /* one .param value */
    int is_buffer;
    uint32_t buffer;           /* is_buffer: its address is passed */
    double value;              /* scalar, converted to the .param's type */
    int64_t ivalue;
    int line, col;
} ws_arg;

typedef struct ws_workload {
    char *path;                /* the .yaml file */
    uint64_t digest;           /* ws_xxh64 of its text (ws_workload_inputs) */
    char *name;
    ws_kernel *kernel;
    uint32_t grid[3], block[3];
    uint32_t regs_per_thread;  /* from the file, else ptxas -v, else the kernel's estimate */
    uint8_t regs_source;       /* ws_regs_source (ptxas.h): where regs_per_thread came from */
    char regs_detail[320];     /* ptxas: the target counted for (and a fallback); estimate: why */
    uint32_t dyn_shared_bytes;
    ws_buffer_spec *buffers;
    uint32_t nbuffers;
    ws_arg *args;
    uint32_t nargs;
    ws_expect *expects;
    uint32_t nexpects;
    int needs_reference;       /* some expect is `reference` */
} ws_workload;

ws_workload *ws_workload_load(const char *path, ws_error *err);
void ws_workload_free(ws_workload *wl);

static inline uint32_t ws_workload_threads_per_cta(const ws_workload *wl)
{
    return wl->block[0] * wl->block[1] * wl->block[2];
}
static inline uint64_t ws_workload_ctas(const ws_workload *wl)
{
    return (uint64_t)wl->grid[0] * wl->grid[1] * wl->grid[2];
}

/* Functional memory of one run: allocates the buffers (in order, from
 * WS_GLOBAL_BASE with guard gaps) and the kernel's data segment, fills them
 * from their initialisers with `seed`, and writes the .param buffer.
 * ws_memimage_free releases everything. */
typedef struct ws_memimage {
    ws_gmem gmem;              /* regions sorted by address: the kernel's data
                                  segment variables (WS_DATA_BASE) first, then
                                  the buffers (WS_GLOBAL_BASE ...) in file order */
    uint8_t *param_buf;
    uint32_t param_bytes;
    uint32_t first_buffer;     /* index in gmem.regions of buffer 0 */
    struct ws_mapping { void *base; size_t len; } *maps;   /* per buffer: its private
                                  mapping of a file init (base NULL: data is heap) */
} ws_memimage;

int ws_memimage_init(ws_memimage *m, const ws_workload *wl, uint64_t seed, ws_error *err);
void ws_memimage_free(ws_memimage *m);
/* Region of buffer i (buffers follow the data segment, in file order). */
static inline ws_region *ws_memimage_buffer(ws_memimage *m, uint32_t i)
{
    return &m->gmem.regions[m->first_buffer + i];
}

/* Checks the expectations. reference may be NULL when no expect needs it.
 * Returns 0 if all hold, else -1 with the first failure described in msg
 * (buffer, index, got, expected). */
int ws_expect_check(const ws_workload *wl, ws_memimage *m, ws_memimage *reference,
                    char *msg, size_t len);

/* Prints buffer i's values, comma separated, to out. */
void ws_buffer_dump(const ws_workload *wl, ws_memimage *m, uint32_t i, FILE *out);

#endif
