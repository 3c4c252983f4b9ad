/*
 * swl: static warp limiting (Rogers et al., MICRO 2012 baseline; GPGPU-Sim
 * `warp_limiting:N`): greedy-then-oldest restricted to the swl_limit oldest
 * resident warps of the scheduler; younger warps wait until older ones finish.
 */
#include "sched.h"

void ws_sched_gto_build(ws_sched *s, uint32_t limit);

static void swl_add(ws_sched *s, uint32_t slot)
{
    ws_sched_list_append(s->age, &s->nage, slot);
    s->dirty = 1;
}

static void swl_remove(ws_sched *s, uint32_t slot)
{
    ws_sched_list_remove(s->age, &s->nage, slot);
    if (s->has_last && s->last == slot) s->has_last = 0;
    s->dirty = 1;
}

static uint32_t swl_order(ws_sched *s, uint64_t now, const uint32_t **out, uint32_t *start)
{
    (void)now;
    if (s->dirty) ws_sched_gto_build(s, s->limit);
    *out = s->prio;
    *start = 0;
    return s->nprio;
}

static void swl_issued(ws_sched *s, uint32_t slot, uint64_t now)
{
    (void)now;
    if (!s->has_last || s->last != slot) s->dirty = 1;
    s->last = slot;
    s->has_last = 1;
}

const ws_sched_ops ws_sched_swl = {
    .name = "swl", .add = swl_add, .remove = swl_remove, .order = swl_order,
    .issued = swl_issued, .hash = ws_sched_hash_common,
};
