/*
 * ccws: cache-conscious wavefront scheduling (Rogers, O'Connor, Aamodt,
 * "Cache-Conscious Wavefront Scheduling", MICRO 2012, Section 3).
 *
 * One lost-locality point system per core, shared by the core's schedulers,
 * as the L1 it protects is (the authors' GPGPU-Sim keeps one
 * scheduling_point_system per shader_core_ctx and every scheduler unit of the
 * core consults it; scheduling-point-system.cc, shader.cc).
 *
 * Lost-locality detection: every warp has a small victim tag array (VTA,
 * ccws_vta_entries tags in ccws_vta_ways-way LRU sets).  When the L1 evicts
 * a line, its tag goes into the VTA of the warp that allocated it (the L1
 * hook, mem.h ws_mem_events).  When a warp misses in the L1 on a line its
 * VTA holds, the warp has lost intra-warp locality: a VTA hit.
 *
 * Lost-locality scoring (Section 3.3.4-3.3.5): every warp has a
 * lost-locality score (LLS), never below ccws_base_score.  The cumulative
 * cutoff is
 *     LLS_cutoff = resident warps of the core x ccws_base_score
 * and a VTA hit sets the warp's score to the lost-locality detected score
 *     LLDS = (VTA hits / instructions issued) x KThrottle x LLS_cutoff
 * (Equation 1; both counts over the core's resident warps: a finished
 * warp's hits and instructions leave them, as in the authors' code),
 * "capped at LLDS regardless of how many VTA hits it has received" (the
 * authors' code adds LLDS and caps the sum at LLDS: the same score); scores
 * above the base lose ccws_decay points per cycle ("one point every cycle").
 * The warps are stacked by score, largest first (a max heap; ties: oldest
 * first); walking the stack, warps may load until the cumulative score
 * reaches the cutoff, the warp that reaches it included
 * (evaluate_exclusive_load_list in the authors' code); the others are
 * throttled.  With every score at the base the stack reaches the cutoff at
 * its last warp: nothing is throttled, and ccws is gto.
 *
 * The issue order of each scheduler is GTO over its resident warps (the
 * paper's baseline); a throttled warp still issues its other instructions,
 * only its global and local loads are held (Section 3.3; the authors'
 * point_system_scheduler_unit drops a warp from the order only while its
 * next instruction is such a load): the core asks may_issue_load before
 * such a load issues.
 *
 * Constants: Table 3 of the paper (KThrottle 8, base score 100, VTA 16
 * entries per warp, 8-way).  Differences from the paper and the authors'
 * code (docs/model.md): a warp parked at a CTA barrier does not take a share
 * of the cutoff (as swl keeps such warps out of its window), so parked warps
 * cannot throttle the CTA-mates they wait for; the allowed set is rebuilt as
 * soon as a score changes, not once per cycle after the issue stage; an LLDS
 * below the base leaves the score at the base (the authors' cap would lower
 * it below the base); barriers and fences count as issued instructions.
 */
#include <string.h>
#include "sched.h"
#include "sched_vta.h"

/* The core's point system: indexed by warp slot; scheduler 0 owns it. */
typedef struct ccws_state {
    uint32_t nslots;          /* warp slots of the core */
    uint64_t base, kthrottle, decay;
    ws_vta vta;               /* per slot (sched_vta.h) */
    uint32_t *age;            /* the core's resident warps, oldest first */
    uint32_t nage;
    uint64_t *score;          /* per slot: LLS as of cycle `at` */
    uint64_t at;
    uint32_t above;           /* warps whose score is above the base */
    uint32_t throttled;       /* resident warps throttled in the last build */
    uint8_t stale;            /* held must be rebuilt (a score, the warps or parking changed) */
    uint32_t *stack;          /* scratch: the warps by score */
    uint8_t *held;            /* per slot: throttled (its loads wait) in the last build */
    uint64_t vta_hits;        /* VTA hits of the core's resident warps (Equation 1) */
    uint64_t issued;          /* instructions they issued (Equation 1) */
    uint64_t *warp_hits;      /* per slot: its share of vta_hits */
    uint64_t *warp_issued;    /* per slot: its share of issued */
} ccws_state;

static ccws_state *st(const ws_sched *s) { return s->pstate; }

/* Scores as of cycle now: each above the base loses decay points a cycle. */
static void decay_to(ccws_state *c, uint64_t now)
{
    if (now <= c->at) return;
    if (c->above && c->decay) {
        uint64_t drop = (now - c->at) * c->decay;
        c->above = 0;
        for (uint32_t i = 0; i < c->nage; i++) {
            uint64_t *sc = &c->score[c->age[i]];
            *sc = *sc - c->base > drop ? *sc - drop : c->base;
            if (*sc > c->base) c->above++;
        }
        c->stale = 1;
    }
    c->at = now;
}

static void ccws_add(ws_sched *s, uint32_t slot)
{
    ccws_state *c = st(s);
    c->score[slot] = c->base;
    c->warp_hits[slot] = c->warp_issued[slot] = 0;
    ws_vta_clear(&c->vta, slot);
    ws_sched_list_append(c->age, &c->nage, slot);
    ws_sched_list_append(s->age, &s->nage, slot);
    c->stale = 1;
    s->dirty = 1;
}

static void ccws_remove(ws_sched *s, uint32_t slot)
{
    ccws_state *c = st(s);
    if (c->score[slot] > c->base) c->above--;
    c->score[slot] = c->base;
    c->vta_hits -= c->warp_hits[slot];         /* Equation 1 counts resident warps only */
    c->issued -= c->warp_issued[slot];
    c->warp_hits[slot] = c->warp_issued[slot] = 0;
    c->held[slot] = 0;
    ws_sched_list_remove(c->age, &c->nage, slot);
    ws_sched_list_remove(s->age, &s->nage, slot);
    if (s->has_last && s->last == slot) s->has_last = 0;
    c->stale = 1;
    s->dirty = 1;
}

/* The stack by score (largest first, ties oldest first) and the cutoff
 * walk over the core's warps, which marks the warps past it held. */
static void ccws_rebuild_held(const ws_sched *s, ccws_state *c)
{
    uint32_t n = c->nage;
    for (uint32_t i = 0; i < n; i++) {          /* insertion sort, stable on age */
        uint32_t w = c->age[i], k = i;
        uint64_t sc = c->score[w];
        while (k > 0 && c->score[c->stack[k - 1]] < sc) {
            c->stack[k] = c->stack[k - 1];
            k--;
        }
        c->stack[k] = w;
    }
    const uint64_t cutoff = (uint64_t)n * c->base;
    uint64_t cum = 0;
    uint32_t allowed = 0;
    for (uint32_t i = 0; i < n; i++) {          /* stack[0 .. allowed-1] may load */
        uint32_t w = c->stack[i];
        if (ws_core_parked_at_barrier(s->core, w)) { c->stack[allowed++] = w; continue; }
        cum += c->score[w];
        c->stack[allowed++] = w;
        if (cum >= cutoff) break;               /* the warp reaching the cutoff is in */
    }
    c->throttled = n - allowed;
    for (uint32_t i = 0; i < n; i++) c->held[c->stack[i]] = i >= allowed;
    c->stale = 0;
}

/* The point system as of cycle now. */
static ccws_state *current(const ws_sched *s, uint64_t now)
{
    ccws_state *c = st(s);
    decay_to(c, now);
    if (c->stale) ccws_rebuild_held(s, c);
    return c;
}

static uint32_t ccws_order(ws_sched *s, uint64_t now, const uint32_t **out, uint32_t *start)
{
    current(s, now);
    if (s->dirty) ws_sched_gto_build(s, s->nage);   /* every warp issues its non-loads */
    *out = s->prio;
    *start = 0;
    return s->nprio;
}

static void ccws_issued(ws_sched *s, uint32_t slot, uint64_t now)
{
    (void)now;
    ccws_state *c = st(s);
    c->issued++;
    c->warp_issued[slot]++;
    if (!s->has_last || s->last != slot) s->dirty = 1;
    s->last = slot;
    s->has_last = 1;
}

static void ccws_mem_event(ws_sched *s, const ws_mem_event *ev, uint64_t now)
{
    ccws_state *c = st(s);
    decay_to(c, now);
    uint32_t w = ev->warp;
    if (w >= c->nslots) return;
    if (ev->kind == WS_MEV_EVICT) { ws_vta_insert(&c->vta, w, ev->line); return; }
    if (ev->kind != WS_MEV_MISS) return;       /* own hits score nothing (the authors' 0 points) */
    if (!ws_vta_probe(&c->vta, w, ev->line) || c->nage == 0) return;
    c->vta_hits++;
    c->warp_hits[w]++;
    /* the lost-locality detected score (Equation 1): the warp's score is set
     * to it, "capped at LLDS regardless of how many VTA hits it has received" */
    const uint64_t cutoff = (uint64_t)c->nage * c->base;
    uint64_t llds = c->vta_hits * c->kthrottle * cutoff / (c->issued ? c->issued : 1);
    if (llds < c->base) llds = c->base;
    if (c->score[w] > c->base) c->above--;
    c->score[w] = llds;
    if (llds > c->base) c->above++;
    c->stale = 1;
}

static void ccws_parking(ws_sched *s, uint32_t slot)
{
    (void)slot;
    st(s)->stale = 1;
}

/* Throttling changes with time only while some warp is throttled and some
 * score still decays. */
static uint64_t ccws_next_event(ws_sched *s, uint64_t now)
{
    const ccws_state *c = st(s);
    return c->throttled && c->above && c->decay ? now + 1 : UINT64_MAX;
}

/* A warp past the cutoff may not issue loads: the one thing ccws withholds. */
static int ccws_may_issue_load(ws_sched *s, uint32_t slot, uint64_t now)
{
    return !current(s, now)->held[slot];
}

/* For the starvation report: a held warp is not offered its loads. */
static int ccws_eligible(const ws_sched *s, uint32_t slot)
{
    ccws_state *c = st(s);
    if (c->stale) ccws_rebuild_held(s, c);
    return !c->held[slot];
}

/* The scheduler's own order state, then its warps' share of the point system. */
static uint64_t ccws_hash(const ws_sched *s, uint64_t h)
{
    const ccws_state *c = st(s);
    h = ws_sched_hash_common(s, h);
    for (uint32_t i = 0; i < s->nage; i++) {
        uint32_t w = s->age[i];
        h = ws_vta_hash(&c->vta, w, ws_hmix(h, c->score[w]));
    }
    return h;
}

static int ccws_alloc_core(ws_sched *s, const ws_config *cfg, void *(*alloc)(void *ctx, size_t n), void *ctx)
{
    ccws_state *c = alloc(ctx, sizeof *c);
    if (!c) return -1;
    memset(c, 0, sizeof *c);
    c->nslots = s->cap * (s->stride > 1 ? s->stride : 1);
    c->base = (uint64_t)ws_cfg_i(cfg, WS_P_ccws_base_score);
    c->kthrottle = (uint64_t)ws_cfg_i(cfg, WS_P_ccws_kthrottle);
    c->decay = (uint64_t)ws_cfg_i(cfg, WS_P_ccws_decay);
    size_t n = c->nslots;
    if (ws_vta_init(&c->vta, c->nslots, (uint32_t)ws_cfg_i(cfg, WS_P_ccws_vta_entries),
                    (uint32_t)ws_cfg_i(cfg, WS_P_ccws_vta_ways), alloc, ctx) < 0)
        return -1;
    c->age = alloc(ctx, n * sizeof *c->age);
    c->score = alloc(ctx, n * sizeof *c->score);
    c->stack = alloc(ctx, n * sizeof *c->stack);
    c->held = alloc(ctx, n * sizeof *c->held);
    c->warp_hits = alloc(ctx, n * sizeof *c->warp_hits);
    c->warp_issued = alloc(ctx, n * sizeof *c->warp_issued);
    if (!c->age || !c->score || !c->stack || !c->held || !c->warp_hits ||
        !c->warp_issued)
        return -1;
    memset(c->held, 0, n * sizeof *c->held);
    memset(c->warp_hits, 0, n * sizeof *c->warp_hits);
    memset(c->warp_issued, 0, n * sizeof *c->warp_issued);
    for (size_t i = 0; i < n; i++) c->score[i] = c->base;
    s->pstate = c;
    return 0;
}

/* Scheduler 0 allocates the core's point system; the others share it (the
 * core sets its schedulers up in order). */
static int ccws_setup(ws_sched *s, const ws_config *cfg, void *(*alloc)(void *ctx, size_t n), void *ctx)
{
    if (s->id == 0) return ccws_alloc_core(s, cfg, alloc, ctx);
    s->pstate = ws_core_policy_state(s->core);
    return s->pstate ? 0 : -1;
}

const ws_sched_ops ws_sched_ccws = {
    .name = "ccws", .add = ccws_add, .remove = ccws_remove, .order = ccws_order,
    .issued = ccws_issued, .hash = ccws_hash, .next_event = ccws_next_event,
    .parking = ccws_parking, .eligible = ccws_eligible, .limit_param = "ccws_kthrottle",
    .setup = ccws_setup, .mem_event = ccws_mem_event, .may_issue_load = ccws_may_issue_load,
};
