#ifndef WARPSWEEP_STORE_H
#define WARPSWEEP_STORE_H
/* Results: the crash-safe journal written while a sweep runs, and the HDF5
 * file (/points + root attributes) built from it (format: results/README.md).
 *
 * While running, finished rows are appended to OUT.h5.journal: a header,
 * then fixed-size records (64-bit checksum + ws_row), written with write(2)
 * per batch, so a kill -9 leaves at most one torn record at the end. The
 * HDF5 file is (re)built from the journal when the run ends or is
 * interrupted, into OUT.h5.tmp then renamed over OUT.h5, so OUT.h5 is always
 * a complete, valid file. The journal is deleted once every point is in
 * OUT.h5. */
#include <stdint.h>
#include "error.h"
#include "sweep.h"

#define WS_FORMAT_VERSION 1
/* The model's version: bumped whenever a parameter's meaning, a default or a
 * metric's meaning changes (CHANGES.md says what each version changed), so a
 * file says which model its numbers come from. Results files store it (root
 * attribute model_version; files and journals from before it read as 0), and
 * run --resume and merge refuse rows of another model version. */
#define WS_MODEL_VERSION 7

/* ---- journal ---- */
typedef struct ws_journal ws_journal;

typedef struct ws_journal_info {
    char hash[17];          /* sweep hash */
    char own_hash[17], inputs_hash[17];   /* its parts (sweep.h); "" in older journals */
    char created_utc[32];   /* when the run was first started */
    uint64_t points_total;
    uint64_t records;       /* good records (checksum and fields) */
    uint64_t damaged;       /* bad records between good ones: skipped, their points run again */
    uint64_t torn_bytes;    /* bytes after the last good record (cut by ws_journal_open) */
    uint32_t model_version; /* WS_MODEL_VERSION of the run that wrote it; 0 before model versions */
} ws_journal_info;

/* Creates (truncates) a journal for sw (its header carries sw's hash and the
 * hash's parts) and locks it (flock, exclusive) until ws_journal_close; fails
 * with one line naming the holder's pid if another process has it. */
ws_journal *ws_journal_create(const char *path, const ws_sweep *sw, uint64_t points_total, ws_error *err);
/* Opens and locks an existing journal for appending: checks the header (same
 * registry layout), keeps every good record (damaged ones between good ones
 * are skipped: info->damaged), cuts a torn tail. If sw is not NULL, its hash
 * must be the journal's (else a message says the sweep changed) and a record
 * counts as good only if it fits sw (its point, workload, seed, parameters). */
ws_journal *ws_journal_open(const char *path, const ws_sweep *sw, ws_journal_info *info, ws_error *err);
int ws_journal_append(ws_journal *j, const ws_row *rows, size_t n, ws_error *err);
/* fdatasync (called by the driver every few seconds). */
int ws_journal_sync(ws_journal *j);
void ws_journal_close(ws_journal *j);
/* Reads the header and calls fn for every good record (checksum, and fits
 * sw if not NULL, as ws_journal_open) in file order, with its position in the
 * file; damaged and torn records are skipped. fn returns nonzero to stop. */
int ws_journal_scan(const char *path, const ws_sweep *sw, ws_journal_info *info,
                    int (*fn)(void *ctx, const ws_row *row, uint64_t recno), void *ctx, ws_error *err);

/* ---- HDF5 ---- */
/* Builds out_path (atomically, via out_path.tmp) from the journal: one row
 * per distinct point, sorted by point. */
int ws_store_build(const char *out_path, const char *journal_path, const ws_sweep *sw, ws_error *err);

typedef struct ws_file_info {
    char sweep_name[256];
    char sweep_hash[17];
    char own_hash[17], inputs_hash[17];   /* the sweep hash's parts (sweep.h); "" in older files */
    char created_utc[32];
    char warpsweep_version[32];
    int64_t format_version;
    int64_t model_version;   /* WS_MODEL_VERSION of the writer; 0: written before model versions */
    uint64_t points_total;
    uint64_t rows;
} ws_file_info;

/* The one-line reason rows of model version v cannot join this warpsweep's
 * (what: "resume", "merge"), or NULL when v is WS_MODEL_VERSION. */
const char *ws_model_mismatch(int64_t v, const char *path, const char *what, char *buf, size_t n);
/* Root attributes and row count of a results file. */
int ws_store_info(const char *path, ws_file_info *info, ws_error *err);
/* The sweep text stored in the file (malloc'ed). */
char *ws_store_sweep_text(const char *path, ws_error *err);
/* Calls fn for every row of /points, in file order. Columns missing from the
 * file are left at zero; workload is the stored string (row->workload = 0). */
int ws_store_read(const char *path, int (*fn)(void *ctx, const ws_row *row, const char *workload), void *ctx,
                  ws_error *err);
/* Names of the columns of /points, in order, written to out (one per line). */
int ws_store_columns(const char *path, void (*fn)(void *ctx, const char *name, const char *type), void *ctx,
                     ws_error *err);

/* Which parameters take more than one value over a stream of rows (the
 * columns worth showing next to a result). Zero-initialise, then add rows. */
typedef struct ws_varying {
    uint64_t rows;
    ws_value first[WS_NPARAMS];
    uint8_t varies[WS_NPARAMS];
} ws_varying;
void ws_varying_add(ws_varying *v, const ws_row *row);

#endif
