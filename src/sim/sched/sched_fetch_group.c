/*
 * fetch_group: two-level warp scheduling with fetch groups (Narasiman et
 * al., "Improving GPU Performance via Large Warps and Two-Level Warp
 * Scheduling", MICRO 2011, Section 4).
 *
 * The scheduler's warp slots are split into fixed fetch groups of
 * fetch_group_size consecutive slots (scheduler-local index / size).  One
 * group is active and has the highest priority; inside it warps are served
 * round-robin, starting after the warp that issued last.  The other groups
 * follow in group order (each in slot order), so their warps fill cycles in
 * which the active group cannot issue for a short reason.  When every warp of
 * the active group waits on a long-latency result (a global/local load in
 * flight) the next group that does not (cyclically) becomes active: groups
 * reach their long-latency loads at different times, which is what breaks
 * the convoy of round-robin (docs/model.md "Latency hiding").
 *
 * Unlike two_level (GPGPU-Sim's per-warp demotion, Gebhart et al.), no warp
 * ever leaves the order, so the policy cannot starve a warp; a warp all of
 * whose live threads wait at a CTA barrier counts as waiting on long latency
 * for the switch (the barrier-parking fix of two_level): a group of parked
 * warps hands the priority to the groups whose warps they wait for.
 */
#include "sched.h"
#include "sim/div/divergence.h"   /* ws_hmix */

static uint32_t group_of(const ws_sched *s, uint32_t slot) { return ws_sched_local(s, slot) / s->limit; }
static uint32_t ngroups(const ws_sched *s) { return (s->cap + s->limit - 1) / s->limit; }

static void fg_add(ws_sched *s, uint32_t slot)
{
    ws_sched_list_add_sorted(s->res, &s->nres, slot);
    s->dirty = 1;
}

static void fg_remove(ws_sched *s, uint32_t slot)
{
    ws_sched_list_remove(s->res, &s->nres, slot);
    if (s->has_last && s->last == slot) s->has_last = 0;
    s->dirty = 1;
}

static int waits_long(const ws_sched *s, uint32_t slot, uint64_t now)
{
    return ws_core_waiting_long(s->core, slot, now) || ws_core_parked_at_barrier(s->core, slot);
}

/* Every resident warp of group g waits on long latency at `now` (an empty
 * group counts as stalled: it has nothing to issue). */
static int group_stalled(const ws_sched *s, uint32_t g, uint64_t now)
{
    for (uint32_t i = 0; i < s->nres; i++)
        if (group_of(s, s->res[i]) == g && !waits_long(s, s->res[i], now)) return 0;
    return 1;
}

/* The active group's warps round-robin after the last issued one, then the
 * other groups in order. */
static void fg_build(ws_sched *s)
{
    uint32_t n = 0, first = 0, in_active = 0;
    for (uint32_t i = 0; i < s->nres; i++)
        if (group_of(s, s->res[i]) == s->group) {
            if (s->has_last && s->res[i] <= s->last) first = in_active + 1;
            in_active++;
        }
    if (first >= in_active) first = 0;
    for (uint32_t k = 0, seen = 0; k < s->nres; k++)
        if (group_of(s, s->res[k]) == s->group && seen++ >= first) s->prio[n++] = s->res[k];
    for (uint32_t k = 0, seen = 0; k < s->nres && seen < first; k++)
        if (group_of(s, s->res[k]) == s->group) { s->prio[n++] = s->res[k]; seen++; }
    const uint32_t ng = ngroups(s);
    for (uint32_t d = 1; d < ng; d++)
        for (uint32_t k = 0; k < s->nres; k++)
            if (group_of(s, s->res[k]) == (s->group + d) % ng) s->prio[n++] = s->res[k];
    s->nprio = n;
    s->dirty = 0;
}

static uint32_t fg_order(ws_sched *s, uint64_t now, const uint32_t **out, uint32_t *start)
{
    const uint32_t ng = ngroups(s);
    if (group_stalled(s, s->group, now))
        for (uint32_t d = 1; d < ng; d++) {
            uint32_t g = (s->group + d) % ng;
            if (!group_stalled(s, g, now)) {
                s->group = g;
                s->dirty = 1;
                break;
            }
        }
    if (s->dirty) fg_build(s);
    *out = s->prio;
    *start = 0;
    return s->nprio;
}

/* The active group changes without an issue only when it is stalled and a
 * stalled group's wait ends (waits end with time; a barrier releases only
 * when some warp issues).  Called after order(), so at `now` either the
 * active group is not stalled (and stays so until an issue) or every group
 * is: the next event is the earliest end of a long wait outside it. */
static uint64_t fg_next_event(ws_sched *s, uint64_t now)
{
    if (!group_stalled(s, s->group, now + 1)) return UINT64_MAX;
    uint64_t t = UINT64_MAX;
    for (uint32_t i = 0; i < s->nres; i++) {
        uint32_t w = s->res[i];
        if (group_of(s, w) == s->group || ws_core_parked_at_barrier(s->core, w)) continue;
        if (!ws_core_waiting_long(s->core, w, now + 1)) return now + 1;
        uint64_t wk = ws_core_wake(s->core, w);
        if (wk < t) t = wk;
    }
    return t;
}

static void fg_issued(ws_sched *s, uint32_t slot, uint64_t now)
{
    (void)now;
    s->last = slot;
    s->has_last = 1;
    s->dirty = 1;
}

static uint64_t fg_hash(const ws_sched *s, uint64_t h)
{
    return ws_hmix(ws_sched_hash_common(s, h), s->group);
}

static int fg_setup(ws_sched *s, const ws_config *cfg, void *(*alloc)(void *ctx, size_t n), void *ctx)
{
    (void)alloc; (void)ctx;
    s->limit = (uint32_t)ws_cfg_i(cfg, WS_P_fetch_group_size);
    s->group = 0;
    return 0;
}

const ws_sched_ops ws_sched_fetch_group = {
    .name = "fetch_group", .add = fg_add, .remove = fg_remove, .order = fg_order,
    .issued = fg_issued, .next_event = fg_next_event, .hash = fg_hash, .setup = fg_setup,
};
