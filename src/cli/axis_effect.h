#ifndef WS_AXIS_EFFECT_H
#define WS_AXIS_EFFECT_H
/* Which varying axes changed no metric at all, for `info --best` (issue 46):
 * an axis changed nothing when every row equals, metric for metric, each row
 * that differs from it only in that axis (same workload, seed and every
 * other parameter). A ranking over such an axis ranks identical results. */
#include "warpsweep/replicates.h"
#include "warpsweep/sweep.h"

#define AXIS_EFFECT_MAX 32

typedef struct axis_effect {
    int n;
    int axis[AXIS_EFFECT_MAX];          /* parameter ids */
    uint8_t matters[AXIS_EFFECT_MAX];   /* two rows differing only there differ in a metric */
    uint64_t pairs[AXIS_EFFECT_MAX];    /* rows that had a partner differing only there */
    rep_index ix[AXIS_EFFECT_MAX];      /* the rows' keys without the axis */
    uint64_t *mhash[AXIS_EFFECT_MAX];   /* per key: the metrics' digest of its first row */
    size_t cap[AXIS_EFFECT_MAX];
    int oom;
} axis_effect;

/* Watches the parameters with show[p] set (seed excepted), at most AXIS_EFFECT_MAX. */
void axis_effect_init(axis_effect *e, const uint8_t *show);
/* One row (status ok) of workload id wl. */
void axis_effect_add(axis_effect *e, const ws_row *row, int wl);
/* 1 when axis k (0..n-1) changed no metric: compared rows, none differed. */
int axis_effect_none(const axis_effect *e, int k);
void axis_effect_free(axis_effect *e);
#endif
