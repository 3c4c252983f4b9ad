/*
 * swl: static warp limiting (Rogers et al., MICRO 2012 baseline; GPGPU-Sim
 * `warp_limiting:N`): greedy-then-oldest restricted to the swl_limit oldest
 * resident warps of the scheduler; younger warps wait until older ones finish.
 *
 * A warp all of whose live threads wait at a CTA barrier does not take a
 * place in the window: otherwise a window full of such warps would wait
 * forever for CTA-mates outside it, a deadlock of the policy rather than of
 * the program.  The window is rebuilt when it may have changed: a warp
 * launched or finished, another warp issued (greedy order), or a warp's
 * lanes reached or left a CTA barrier or exited (the parking hook).
 */
#include <stdint.h>
#include "sched.h"


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

/* The window: the swl_limit oldest warps not parked at a CTA barrier, in GTO
 * order (the warp that issued last first, the rest oldest first). */
static void swl_build(ws_sched *s)
{
    uint32_t n = 0, last_at = UINT32_MAX;
    for (uint32_t i = 0; i < s->nage && n < s->limit; i++) {
        uint32_t slot = s->age[i];
        if (ws_core_parked_at_barrier(s->core, slot)) continue;
        if (s->has_last && slot == s->last) last_at = n;
        s->prio[n++] = slot;
    }
    for (uint32_t i = last_at; i != UINT32_MAX && i > 0; i--) {
        uint32_t t = s->prio[i];
        s->prio[i] = s->prio[i - 1];
        s->prio[i - 1] = t;
    }
    s->nprio = n;
    s->dirty = 0;
}

static uint32_t swl_order(ws_sched *s, uint64_t now, const uint32_t **out, uint32_t *start)
{
    (void)now;
    if (s->dirty) swl_build(s);
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

static void swl_parking(ws_sched *s, uint32_t slot)
{
    (void)slot;
    s->dirty = 1;
}

/* In the window (rebuilt first if it may have changed: no side effect on
 * the order the core sees, the same build would happen at the next order()). */
static int swl_eligible(const ws_sched *s, uint32_t slot)
{
    if (s->dirty) swl_build((ws_sched *)s);
    return ws_sched_in_prio(s, slot);
}

static int swl_setup(ws_sched *s, const ws_config *cfg, void *(*alloc)(void *ctx, size_t n), void *ctx)
{
    (void)alloc; (void)ctx;
    s->limit = (uint32_t)ws_cfg_i(cfg, WS_P_swl_limit);
    return 0;
}

const ws_sched_ops ws_sched_swl = {
    .name = "swl", .add = swl_add, .remove = swl_remove, .order = swl_order,
    .issued = swl_issued, .hash = ws_sched_hash_common, .parking = swl_parking,
    .eligible = swl_eligible, .limit_param = "swl_limit", .setup = swl_setup,
};
