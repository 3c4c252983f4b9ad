#ifndef WARPSWEEP_SWEEP_H
#define WARPSWEEP_SWEEP_H
/* Sweeps: a YAML description of a parameter grid (docs/sweeps.md), its lazy
 * expansion (point index -> configuration), derived-value expressions and
 * the parallel driver that runs every point and hands finished rows to a
 * sink. */
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include "error.h"
#include "params.h"
#include "sim.h"
#include "workload.h"

/* ------------------------------------------------------------------ */
/* Expressions: "=warps * warp_size * regs_per_thread * 4 / 1024"      */
/* ------------------------------------------------------------------ */

/* Variables an expression may read: every registered parameter (by id),
 * then the workload's properties. */
enum {
    WS_VAR_REGS_PER_THREAD = WS_NPARAMS,
    WS_VAR_THREADS_PER_CTA,
    WS_VAR_CTAS,
    WS_NVARS
};

typedef struct ws_expr ws_expr;

/* Compiles text (without the leading '=') to bytecode. On error returns
 * NULL, sets *err_offset to the byte offset in text where it went wrong and
 * fills err with the message (without position). */
ws_expr *ws_expr_compile(const char *text, int *err_offset, ws_error *err);
/* Evaluates with vars[WS_NVARS]. Never fails: errors give NaN/inf. */
double ws_expr_eval(const ws_expr *e, const double *vars);
/* 1 if e reads variable v. */
int ws_expr_uses(const ws_expr *e, int v);
/* Byte offset in the source text of the first use of variable v, or -1. */
int ws_expr_use_offset(const ws_expr *e, int v);
void ws_expr_free(ws_expr *e);
/* Name of variable v (a parameter name or regs_per_thread, ...). */
const char *ws_var_name(int v);

/* ------------------------------------------------------------------ */
/* Sweeps                                                              */
/* ------------------------------------------------------------------ */

/* A value of one parameter at one place of the sweep: a constant or a
 * derived expression (expr >= 0: index into ws_sweep.exprs). */
typedef struct ws_slot {
    ws_value v;
    int32_t expr;
} ws_slot;

typedef enum ws_axis_kind {
    WS_AXIS_WORKLOAD,   /* always axis 0 (n = number of workloads) */
    WS_AXIS_PARAMS,     /* one grid parameter, or one zip entry (several) */
    WS_AXIS_SEED,       /* always the last axis (n = repeat) */
} ws_axis_kind;

typedef struct ws_axis {
    ws_axis_kind kind;
    char *label;        /* "warps", "zip[0]", "workload", "seed" */
    int nparams;
    int *params;        /* param ids (PARAMS) */
    uint64_t n;         /* number of values */
    ws_slot *values;    /* n * nparams values: [digit * nparams + j] */
    int line, col;
} ws_axis;

/* An exclude entry: for each axis either NULL (any digit) or a table of n
 * flags (1 = digit matches). A point is excluded when it matches every
 * constrained axis of some entry. */
typedef struct ws_exclude {
    uint8_t **allow;    /* [naxes] */
    int line, col;
} ws_exclude;

#define WS_MAX_EXCLUDES 64
#define WS_MAX_AXIS_VALUES 10000000u
#define WS_DEFAULT_MAX_POINTS 1000000000ull

typedef struct ws_sweep {
    char *file;           /* path of the sweep file as given */
    char *name;
    char *description;
    char *text;           /* the whole file, exactly */
    size_t text_len;
    char hash[17];        /* the sweep's identity: hex FNV-1a 64 of own_hash and inputs_hash */
    char own_hash[17];    /* FNV-1a 64 of text, name and --set overrides */
    char inputs_hash[17]; /* FNV-1a 64 of the size and digest of every file of the workloads
                             (ws_workload_inputs); "" when they were not loaded (then hash = own_hash) */
    int line, col;        /* position of this sweep's document */

    ws_slot base[WS_NPARAMS];
    int param_axis[WS_NPARAMS];  /* axis holding the parameter, or -1 */

    int nworkloads;
    char **workload_names;       /* as written in the sweep */
    char **workload_paths;       /* resolved against the sweep file's directory */
    ws_workload **workloads;     /* loaded (NULL when loading was not asked for) */

    int naxes;
    ws_axis *axes;               /* axes[0] workload, axes[naxes-1] seed */
    uint64_t repeat;

    int nexprs;
    ws_expr **exprs;
    int *expr_param;             /* parameter each expression assigns */
    int nderived;
    int derived_order[WS_NPARAMS];  /* parameters with any expression, dependencies first */
    uint8_t varying[WS_NPARAMS];    /* on an axis, derived, or set by a preset on an axis */
    uint8_t given[WS_NPARAMS];      /* set in base, grid, zip, --set or by repeat: beats the preset */

    int nexcludes;
    ws_exclude *excludes;

    uint64_t raw_count;          /* product of the axis sizes */
    uint64_t count;              /* points after excludes */
    int grid_line, grid_col;
} ws_sweep;

typedef struct ws_sweep_opts {
    const char *const *sets;     /* --set name=value overrides of base */
    int nsets;
    int load_workloads;          /* load (and validate) the workloads */
} ws_sweep_opts;

/* Loads every sweep of a YAML stream (or only the one called `name`).
 * Errors are one line, file:line:col: message. Returns 0 and fills
 * *out and *n, or -1. */
int ws_sweep_load(const char *path, const char *name, const ws_sweep_opts *opts,
                  ws_sweep ***out, int *n, ws_error *err);
/* Same from text in memory (path only names the file in messages and
 * anchors relative workload paths). */
int ws_sweep_load_text(const char *path, const char *text, size_t len, const char *name,
                       const ws_sweep_opts *opts, ws_sweep ***out, int *n, ws_error *err);
void ws_sweep_free(ws_sweep *sw);
void ws_sweeps_free(ws_sweep **sws, int n);
/* What a stored identity (own_hash, inputs_hash of a journal or results file)
 * says changed against sw, for a refused resume: "the sweep changed", "an
 * input file of the sweep changed (...)" or both. */
const char *ws_sweep_what_changed(const ws_sweep *sw, const char *own_hash, const char *inputs_hash);
/* Refuses a sweep of more than max_points points (0: the default 10^9). */
int ws_sweep_check_size(const ws_sweep *sw, uint64_t max_points, ws_error *err);

/* One point of a sweep. */
typedef struct ws_point {
    uint64_t point;      /* index after excludes: 0 .. count-1 */
    uint64_t raw;        /* index in the full mixed-radix grid */
    uint32_t workload;   /* index into workload_names */
    uint64_t seed;       /* repeat index (also the parameter `seed` when registered) */
    ws_config cfg;
    int invalid;         /* a derived value is out of range: message says which */
    char message[WS_ERROR_LEN];
} ws_point;

/* Number of raw grid points with index < raw_limit that no exclude drops. */
uint64_t ws_sweep_rank(const ws_sweep *sw, uint64_t raw_limit);
/* Raw grid index of the k-th (0-based) point that survives the excludes. */
uint64_t ws_sweep_unrank(const ws_sweep *sw, uint64_t k);
/* 1 if the raw grid point is dropped by an exclude. */
int ws_sweep_raw_excluded(const ws_sweep *sw, uint64_t raw);
/* Decodes point k (0 <= k < count): values, derived values, range checks. */
void ws_sweep_point(const ws_sweep *sw, uint64_t k, ws_point *pt);
/* Same from a raw grid index (point field set to `k`). */
void ws_sweep_point_raw(const ws_sweep *sw, uint64_t raw, uint64_t k, ws_point *pt);

/* ------------------------------------------------------------------ */
/* The driver                                                          */
/* ------------------------------------------------------------------ */

/* A finished point: the unit written to the journal and to /points. */
typedef struct ws_row {
    uint64_t point;
    uint64_t seed;
    uint32_t workload;
    int32_t status;
    ws_value params[WS_NPARAMS];
    ws_value metrics[WS_NMETRICS];
    double sim_seconds;
    char message[WS_ERROR_LEN];
} ws_row;

/* Which point indices to run: first, first + stride, ... (n of them).
 * The single-process driver uses {0, 1, count}; shards use {K, N, ...}. */
typedef struct ws_point_range {
    uint64_t first, stride, n;
} ws_point_range;

/* Where finished rows go. write is called with batches of rows, one call at
 * a time (under a lock): the sink need not be thread-safe. Returns 0, or -1
 * with err filled (the driver then stops). */
typedef struct ws_row_sink {
    void *ctx;
    int (*write)(void *ctx, const ws_row *rows, size_t n, ws_error *err);
} ws_row_sink;

/* Progress report callback: called under the sink lock after each batch. */
typedef struct ws_progress ws_progress;

typedef struct ws_drive_opts {
    int threads;                         /* 0: all cores */
    ws_point_range range;
    /* Points already done (sorted ascending), skipped. */
    const uint64_t *done;
    size_t ndone;
    volatile sig_atomic_t *stop;         /* set by a signal handler: take no new points */
    ws_progress *progress;               /* or NULL */
} ws_drive_opts;

typedef struct ws_drive_stats {
    uint64_t ran;                        /* rows written by this call */
    uint64_t by_status[WS_ST_COUNT];
    int interrupted;                     /* stopped by *stop before the end */
} ws_drive_stats;

/* Runs every selected point not in done, in parallel, writing rows to sink.
 * Returns 0 (also when interrupted: see stats) or -1 if the sink failed. */
int ws_sweep_drive(const ws_sweep *sw, const ws_drive_opts *o, ws_row_sink *sink,
                   ws_drive_stats *stats, ws_error *err);

/* Is point k in done[0..n-1] (sorted ascending)? Binary search. */
int ws_points_contain(const uint64_t *done, size_t n, uint64_t k);

/* Runs one point into row (used by the driver; exposed for tests). */
void ws_sweep_run_point(const ws_sweep *sw, ws_sim *sim, uint64_t k, ws_row *row);

/* Progress on a stream: a bar when it is a terminal, else a line every
 * interval seconds. */
ws_progress *ws_progress_new(FILE *out, uint64_t total, uint64_t already_done, const char *label);
/* Adds the statuses of the already_done points (a resumed run) to the tallies. */
void ws_progress_add_earlier(ws_progress *p, const uint64_t by_status[WS_ST_COUNT]);
void ws_progress_update(ws_progress *p, const ws_row *rows, size_t n);
void ws_progress_finish(ws_progress *p);
void ws_progress_free(ws_progress *p);

#endif
