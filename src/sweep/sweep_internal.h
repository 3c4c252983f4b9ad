#ifndef WS_SWEEP_INTERNAL_H
#define WS_SWEEP_INTERNAL_H
/* Parts of a ws_sweep that only src/sweep uses; allocated right after the
 * public struct. */
#include "warpsweep/sweep.h"

/* count_from results by (axis, alive entries): filled while the sweep is
 * prepared (single-threaded), read-only afterwards, so threads expanding
 * points share it without locks. */
typedef struct ws_count_memo {
    struct ws_count_slot { uint64_t alive, count; int32_t k; } *slot; /* k = -1: empty */
    size_t cap, used;
    int writable;
    int overflow;       /* more states than MEMO_MAX_SLOTS / 2: the sweep is refused */
} ws_count_memo;

typedef struct ws_sweep_private {
    int *expr_line, *expr_col;       /* position of each expression's value */
    int *workload_line, *workload_col;
    /* per workload: the variables (wl.NAME in grid/base) it is loaded with */
    ws_wl_var (*workload_vars)[WS_MAX_WL_VARS];
    int *workload_nvars;
    uint64_t *suffix;                /* suffix[k] = product of axis sizes k..naxes-1 */
    uint64_t **reject;               /* [axis][digit]: exclude entries that do not accept it (NULL: none constrain the axis) */
    int *last_axis;                  /* per exclude entry: its last constrained axis */
    uint64_t *ended;                 /* ended[k]: entries with every constrained axis < k */
    uint64_t *constrained;           /* constrained[k]: entries constraining axis k */
    uint64_t all_entries;            /* bit e set for each exclude entry */
    uint64_t *dominated_by;          /* [k * nexcludes + e]: entries whose boxes from axis k on contain e's (ties: the lower index) */
    ws_count_memo memo;
    int skipped;                     /* loaded only for its name (--name chose another) */
    int seed_id;                     /* the parameter `seed`, or -1 */
} ws_sweep_private;

static inline ws_sweep_private *ws_sweep_priv(const ws_sweep *sw)
{
    return (ws_sweep_private *)(void *)((char *)(uintptr_t)sw + sizeof(ws_sweep));
}

/* Computes sizes, exclude tables and the point count. */
int ws_sweep_prepare(ws_sweep *sw, ws_error *err);

#endif
