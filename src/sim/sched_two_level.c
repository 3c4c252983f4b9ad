/*
 * two_level: Narasiman et al. (MICRO 2011) / GPGPU-Sim two_level_active.
 * A bounded active set (two_level_active warps) is scheduled round-robin
 * (starting after the warp that issued last); every cycle, before ordering,
 * an active warp whose next instruction waits on a long-latency result (a
 * global/local memory load in flight) is demoted to the tail of a FIFO
 * pending list, and free active entries are refilled from the FIFO's head
 * (a promoted warp that still waits is demoted again next cycle, so pending
 * warps rotate).  New warps enter the active set if it has room, else the FIFO.
 */
#include "sched.h"

static void fifo_push(ws_sched *s, uint32_t slot)
{
    s->fifo[(s->fhead + s->nfifo) % s->cap] = slot;
    s->nfifo++;
}

static uint32_t fifo_pop(ws_sched *s)
{
    uint32_t v = s->fifo[s->fhead];
    s->fhead = (s->fhead + 1) % s->cap;
    s->nfifo--;
    return v;
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

static uint32_t tl_order(ws_sched *s, uint64_t now, const uint32_t **out, uint32_t *start)
{
    /* demote active warps waiting on a long-latency operation */
    uint32_t k = 0;
    for (uint32_t i = 0; i < s->nprio; i++) {
        uint32_t w = s->prio[i];
        if (ws_core_waiting_long(s->core, w, now)) {
            fifo_push(s, w);
        } else {
            s->prio[k++] = w;
        }
    }
    s->nprio = k;
    /* promote from the FIFO head */
    while (s->nprio < s->limit && s->nfifo > 0)
        ws_sched_list_append(s->prio, &s->nprio, fifo_pop(s));
    *out = s->prio;
    *start = 0;
    if (s->has_last)
        for (uint32_t i = 0; i < s->nprio; i++)
            if (s->prio[i] == s->last) { *start = (i + 1) % s->nprio; break; }
    return s->nprio;
}

static void tl_issued(ws_sched *s, uint32_t slot, uint64_t now)
{
    (void)now;
    s->last = slot;
    s->has_last = 1;
}

const ws_sched_ops ws_sched_two_level = {
    .name = "two_level", .add = tl_add, .remove = tl_remove, .order = tl_order,
    .issued = tl_issued, .hash = ws_sched_hash_common,
};
