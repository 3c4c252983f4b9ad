/*
 * daws: divergence-aware warp scheduling (Rogers, O'Connor, Aamodt,
 * "Divergence-Aware Warp Scheduling", MICRO 2013), the detected variant:
 * per-load-PC locality learned at run time, per-warp cache footprints
 * predicted from it, and as many warps allowed to load as their predicted
 * footprints fit the L1.  Like ccws, one state per core (the L1 is the
 * core's), shared by its schedulers.
 *
 * Locality detection: a load PC has intra-warp locality (for the rest of
 * the run) once one of its accesses hits an L1 line the same warp slot
 * allocated (OWN_HIT), or misses on a line the warp lost: the per-warp
 * victim tag arrays of ccws (sched_vta.h, ccws_vta_entries / ccws_vta_ways)
 * hold the tags of the lines the L1 evicted from each warp.
 *
 * Footprint prediction: every global/local load tells the policy its PC,
 * the L1 lines it touched and its active lanes (load_access).  Loops are the
 * kernel's backward branches (bra at b to t <= b: the loop t..b; a PC
 * belongs to the innermost loop holding it).  A warp is in the loop of its
 * last load; its predicted footprint is the sum, over the loads of that loop
 * with locality, of the lines one access touches for it: 1 for a converged
 * load (its last access touched one line), else the last access's lines
 * scaled by the warp's active lanes over that access's lanes (memory and
 * control divergence, rounded up).  A warp outside loops, or before its
 * first load, predicts 0.
 *
 * Limiting: walking the core's warps oldest first (warps parked at a CTA
 * barrier skipped), a warp may load while the footprints so far plus its own
 * fit the L1 (l1_kb x 1024 / l1_line lines); the first that does not and all
 * younger ones are held; the oldest may always load (progress).  The issue
 * order of each scheduler is GTO; a held warp issues all but its global and
 * local loads (may_issue_load, as for ccws).  Differences from the paper:
 * docs/model.md "daws".
 */
#include <string.h>
#include "sched.h"
#include "sched_vta.h"

#define NO_LOOP UINT32_MAX
#define NO_PC UINT32_MAX

typedef struct daws_pc {
    uint32_t loop;            /* first PC of the innermost loop holding it, NO_LOOP */
    uint32_t loop_end;        /* its backward branch */
    uint32_t lines, lanes;    /* the last access of this load: L1 lines, active lanes */
    uint8_t locality;         /* a VTA hit was seen at this PC */
} daws_pc;

typedef struct daws_state {
    uint32_t nslots, npcs;
    uint64_t capacity;        /* L1 lines */
    ws_vta vta;
    daws_pc *pc;              /* per instruction of the kernel */
    uint32_t *last_pc;        /* per slot: PC of its last load, NO_PC */
    uint32_t *lanes;          /* per slot: active lanes of its last load */
    uint8_t *held;            /* per slot: may not load (last build) */
    uint32_t *age;            /* the core's resident warps, oldest first */
    uint32_t nage;
    uint32_t cur_pc;          /* the load whose L1 events arrive (load_access) */
    uint8_t stale;            /* held must be rebuilt */
} daws_state;

static daws_state *st(const ws_sched *s) { return s->pstate; }

/* Lines one access of load p touches for warp w (divergence-aware). */
static uint64_t load_lines(const daws_state *d, const daws_pc *p, uint32_t w)
{
    if (p->lines <= 1 || p->lanes == 0) return p->lines;    /* converged: one line */
    uint64_t lanes = d->lanes[w] ? d->lanes[w] : p->lanes;
    return ((uint64_t)p->lines * lanes + p->lanes - 1) / p->lanes;
}

/* Predicted footprint of warp w: its loop's loads with locality. */
static uint64_t footprint(const daws_state *d, uint32_t w)
{
    uint32_t at = d->last_pc[w];
    if (at == NO_PC || d->pc[at].loop == NO_LOOP) return 0;
    uint32_t loop = d->pc[at].loop, end = d->pc[at].loop_end;
    uint64_t lines = 0;
    for (uint32_t q = loop; q <= end; q++) {
        const daws_pc *p = &d->pc[q];
        if (p->locality && p->loop == loop) lines += load_lines(d, p, w);
    }
    return lines;
}

/* Oldest first, warps may load while the footprints fit the L1. */
static void rebuild_held(const ws_sched *s, daws_state *d)
{
    uint64_t used = 0;
    int first = 1, full = 0;
    for (uint32_t i = 0; i < d->nage; i++) {
        uint32_t w = d->age[i];
        d->held[w] = 0;
        if (ws_core_parked_at_barrier(s->core, w)) continue;
        uint64_t fp = footprint(d, w);
        if (!first && (full || used + fp > d->capacity)) { d->held[w] = 1; full = 1; continue; }
        used += fp;
        first = 0;
    }
    d->stale = 0;
}

static void daws_add(ws_sched *s, uint32_t slot)
{
    daws_state *d = st(s);
    d->last_pc[slot] = NO_PC;
    d->lanes[slot] = 0;
    d->held[slot] = 0;
    ws_vta_clear(&d->vta, slot);
    ws_sched_list_append(d->age, &d->nage, slot);
    ws_sched_list_append(s->age, &s->nage, slot);
    d->stale = 1;
    s->dirty = 1;
}

static void daws_remove(ws_sched *s, uint32_t slot)
{
    daws_state *d = st(s);
    d->held[slot] = 0;
    ws_sched_list_remove(d->age, &d->nage, slot);
    ws_sched_list_remove(s->age, &s->nage, slot);
    if (s->has_last && s->last == slot) s->has_last = 0;
    d->stale = 1;
    s->dirty = 1;
}

static uint32_t daws_order(ws_sched *s, uint64_t now, const uint32_t **out, uint32_t *start)
{
    (void)now;
    if (s->dirty) ws_sched_gto_build(s, s->nage);
    *out = s->prio;
    *start = 0;
    return s->nprio;
}

static void daws_issued(ws_sched *s, uint32_t slot, uint64_t now)
{
    (void)now;
    if (!s->has_last || s->last != slot) s->dirty = 1;
    s->last = slot;
    s->has_last = 1;
}

static void daws_load_access(ws_sched *s, uint32_t slot, uint32_t pc, uint32_t lines, uint32_t lanes,
                             uint64_t now)
{
    (void)now;
    daws_state *d = st(s);
    if (pc >= d->npcs || slot >= d->nslots) return;
    daws_pc *p = &d->pc[pc];
    d->cur_pc = pc;
    if (d->last_pc[slot] == pc && d->lanes[slot] == lanes && p->lines == lines && p->lanes == lanes)
        return;                               /* no footprint changed */
    d->last_pc[slot] = pc;
    d->lanes[slot] = lanes;
    p->lines = lines;
    p->lanes = lanes;
    d->stale = 1;
}

static void daws_mem_event(ws_sched *s, const ws_mem_event *ev, uint64_t now)
{
    (void)now;
    daws_state *d = st(s);
    if (ev->warp >= d->nslots) return;
    if (ev->kind == WS_MEV_EVICT) { ws_vta_insert(&d->vta, ev->warp, ev->line); return; }
    if (d->cur_pc == NO_PC || d->pc[d->cur_pc].locality) return;
    /* intra-warp locality: a hit on a line this warp brought in, or a miss on one it lost */
    if (ev->kind == WS_MEV_MISS && !ws_vta_probe(&d->vta, ev->warp, ev->line)) return;
    d->pc[d->cur_pc].locality = 1;
    d->stale = 1;
}

static void daws_parking(ws_sched *s, uint32_t slot)
{
    (void)slot;
    st(s)->stale = 1;
}

static int daws_may_issue_load(ws_sched *s, uint32_t slot, uint64_t now)
{
    (void)now;
    daws_state *d = st(s);
    if (d->stale) rebuild_held(s, d);
    return !d->held[slot];
}

/* For the starvation report: a held warp is not offered its loads. */
static int daws_eligible(const ws_sched *s, uint32_t slot)
{
    daws_state *d = st(s);
    if (d->stale) rebuild_held(s, d);
    return !d->held[slot];
}

static uint64_t daws_hash(const ws_sched *s, uint64_t h)
{
    const daws_state *d = st(s);
    h = ws_sched_hash_common(s, h);
    for (uint32_t i = 0; i < s->nage; i++) {
        uint32_t w = s->age[i];
        h = ws_vta_hash(&d->vta, w, ws_hmix(ws_hmix(h, d->last_pc[w]), d->lanes[w]));
    }
    if (s->id == 0)                           /* the shared per-PC table, once per core */
        for (uint32_t q = 0; q < d->npcs; q++)
            if (d->pc[q].locality) h = ws_hmix(ws_hmix(h, q), (uint64_t)d->pc[q].lines << 32 | d->pc[q].lanes);
    return h;
}

/* The innermost loop (backward branch b -> t <= b) holding each PC: every
 * loop claims its PCs unless a shorter one already did. */
static void find_loops(daws_state *d, const ws_kernel *k)
{
    for (uint32_t q = 0; q < d->npcs; q++) {
        memset(&d->pc[q], 0, sizeof d->pc[q]);
        d->pc[q].loop = NO_LOOP;
    }
    for (uint32_t b = 0; b < d->npcs; b++) {
        const ws_inst *in = &k->insts[b];
        if (in->op != WS_OP_BRA || in->target > b) continue;
        for (uint32_t q = in->target; q <= b; q++) {
            daws_pc *p = &d->pc[q];
            if (p->loop == NO_LOOP || b - in->target < p->loop_end - p->loop) {
                p->loop = in->target;
                p->loop_end = b;
            }
        }
    }
}

static int daws_alloc_core(ws_sched *s, const ws_config *cfg, void *(*alloc)(void *ctx, size_t n), void *ctx)
{
    daws_state *d = alloc(ctx, sizeof *d);
    if (!d) return -1;
    memset(d, 0, sizeof *d);
    const ws_kernel *k = ws_core_kernel(s->core);
    d->nslots = s->cap * (s->stride > 1 ? s->stride : 1);
    d->npcs = k->ninsts;
    d->capacity = (uint64_t)ws_cfg_i(cfg, WS_P_l1_kb) * 1024 / (uint64_t)ws_cfg_i(cfg, WS_P_l1_line);
    d->cur_pc = NO_PC;
    size_t n = d->nslots;
    if (ws_vta_init(&d->vta, d->nslots, (uint32_t)ws_cfg_i(cfg, WS_P_ccws_vta_entries),
                    (uint32_t)ws_cfg_i(cfg, WS_P_ccws_vta_ways), alloc, ctx) < 0)
        return -1;
    d->pc = alloc(ctx, (d->npcs ? d->npcs : 1) * sizeof *d->pc);
    d->last_pc = alloc(ctx, n * sizeof *d->last_pc);
    d->lanes = alloc(ctx, n * sizeof *d->lanes);
    d->held = alloc(ctx, n * sizeof *d->held);
    d->age = alloc(ctx, n * sizeof *d->age);
    if (!d->pc || !d->last_pc || !d->lanes || !d->held || !d->age) return -1;
    find_loops(d, k);
    for (size_t i = 0; i < n; i++) { d->last_pc[i] = NO_PC; d->lanes[i] = 0; d->held[i] = 0; }
    s->pstate = d;
    return 0;
}

/* Scheduler 0 allocates the core's state; the others share it. */
static int daws_setup(ws_sched *s, const ws_config *cfg, void *(*alloc)(void *ctx, size_t n), void *ctx)
{
    if (s->id == 0) return daws_alloc_core(s, cfg, alloc, ctx);
    s->pstate = ws_core_policy_state(s->core);
    return s->pstate ? 0 : -1;
}

const ws_sched_ops ws_sched_daws = {
    .name = "daws", .add = daws_add, .remove = daws_remove, .order = daws_order,
    .issued = daws_issued, .hash = daws_hash, .parking = daws_parking, .eligible = daws_eligible,
    .limit_param = "l1_kb", .setup = daws_setup, .mem_event = daws_mem_event,
    .may_issue_load = daws_may_issue_load, .load_access = daws_load_access,
};
