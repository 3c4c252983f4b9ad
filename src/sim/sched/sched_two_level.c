/*
 * two_level: per-warp demotion, GPGPU-Sim's two_level_active scheduler (the
 * active and pending warp sets of Gebhart et al., "Energy-efficient
 * Mechanisms for Managing Thread Context in Throughput Processors", ISCA
 * 2011).  Narasiman et al.'s fetch groups (MICRO 2011) are sched_fetch_group.c.
 * A bounded active set (two_level_active warps) is scheduled round-robin
 * (starting after the warp that issued last); every cycle, before ordering,
 * an active warp whose next instruction waits on a long-latency result (a
 * global/local memory load in flight) is demoted to the tail of a FIFO
 * pending list, and free active entries are refilled with the pending warps
 * that no longer wait, in FIFO order (GPGPU-Sim promotes the FIFO head
 * blindly and lets it bounce back; taking the first ready one is the intent of
 * a pending set and avoids a per-cycle churn that would defeat event skipping).  New
 * warps enter the active set if it has room, else the FIFO.
 *
 * A warp all of whose live threads wait at a CTA barrier is demoted the same
 * way and is not promoted again until the barrier releases it (as swl keeps
 * such warps out of its window): otherwise an active set full of parked warps
 * would wait forever for CTA-mates left in the FIFO (a 512-thread CTA is 16
 * warps, the default active set 8), a deadlock of the policy, not of the
 * program.  GPGPU-Sim demotes on long-latency waits only; a barrier wait is
 * the longest-latency wait there is.
 */
#include "sched.h"

static void fifo_push(ws_sched *s, uint32_t slot)
{
    s->fifo[(s->fhead + s->nfifo) % s->cap] = slot;
    s->nfifo++;
}

static void tl_add(ws_sched *s, uint32_t slot)
{
    if (s->nprio < s->limit && s->nfifo == 0) ws_sched_list_append(s->prio, &s->nprio, slot);
    else fifo_push(s, slot);
}

static void tl_remove(ws_sched *s, uint32_t slot)
{
    if (ws_sched_list_remove(s->prio, &s->nprio, slot)) {
        if (s->has_last && s->last == slot) s->has_last = 0;
        return;
    }
    /* remove from the FIFO, keeping order */
    uint32_t n = s->nfifo, k = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t v = s->fifo[(s->fhead + i) % s->cap];
        if (v != slot) s->fifo[(s->fhead + k++) % s->cap] = v;
    }
    s->nfifo = k;
}

/* Must warp `slot` leave (or stay out of) the active set at cycle `now`? */
static int tl_must_wait(const ws_sched *s, uint32_t slot, uint64_t now)
{
    return ws_core_waiting_long(s->core, slot, now) || ws_core_parked_at_barrier(s->core, slot);
}

static uint32_t tl_order(ws_sched *s, uint64_t now, const uint32_t **out, uint32_t *start)
{
    /* demote active warps waiting on a long-latency operation or a CTA barrier */
    uint32_t k = 0;
    for (uint32_t i = 0; i < s->nprio; i++) {
        uint32_t w = s->prio[i];
        if (tl_must_wait(s, w, now)) {
            fifo_push(s, w);
        } else {
            s->prio[k++] = w;
        }
    }
    s->nprio = k;
    /* promote, in FIFO order, the pending warps no longer waiting */
    if (s->nprio < s->limit && s->nfifo > 0) {
        uint32_t n = s->nfifo, kept = 0;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t w = s->fifo[(s->fhead + i) % s->cap];
            if (s->nprio < s->limit && !tl_must_wait(s, w, now))
                ws_sched_list_append(s->prio, &s->nprio, w);
            else
                s->fifo[(s->fhead + kept++) % s->cap] = w;
        }
        s->nfifo = kept;
    }
    *out = s->prio;
    *start = 0;
    if (s->has_last)
        for (uint32_t i = 0; i < s->nprio; i++)
            if (s->prio[i] == s->last) { *start = (i + 1) % s->nprio; break; }
    return s->nprio;
}

/* Earliest cycle at which order() could change the sets on its own: a
 * pending warp's long-latency wait ends (cached wake of the core) while the
 * active set has room, or an active warp starts such a wait.  A warp parked
 * at a CTA barrier is released only by another warp's issue (arrival or
 * exit), never by time alone, so it is no event: with every warp parked or
 * the active set full of stalled warps, time may still jump ahead. */
static uint64_t tl_next_event(ws_sched *s, uint64_t now)
{
    uint64_t t = UINT64_MAX;
    for (uint32_t i = 0; i < s->nfifo; i++) {
        uint32_t w = s->fifo[(s->fhead + i) % s->cap];
        if (ws_core_parked_at_barrier(s->core, w)) continue;
        uint64_t wk = ws_core_wake(s->core, w);
        if (wk > now && wk < t) t = wk;
        if (wk <= now && s->nprio < s->limit) return now + 1;
    }
    for (uint32_t i = 0; i < s->nprio; i++)
        if (ws_core_waiting_long(s->core, s->prio[i], now + 1) && s->nfifo) return now + 1;
    return t;
}

static void tl_issued(ws_sched *s, uint32_t slot, uint64_t now)
{
    (void)now;
    s->last = slot;
    s->has_last = 1;
}

static int tl_setup(ws_sched *s, const ws_config *cfg, void *(*alloc)(void *ctx, size_t n), void *ctx)
{
    (void)alloc; (void)ctx;
    s->limit = (uint32_t)ws_cfg_i(cfg, WS_P_two_level_active);
    return 0;
}

const ws_sched_ops ws_sched_two_level = {
    .name = "two_level", .add = tl_add, .remove = tl_remove, .order = tl_order,
    .issued = tl_issued, .next_event = tl_next_event, .hash = ws_sched_hash_common,
    .eligible = ws_sched_in_prio, .limit_param = "two_level_active", .setup = tl_setup,
};
