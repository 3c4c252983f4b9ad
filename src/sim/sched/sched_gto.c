/*
 * gto: greedy-then-oldest (GPGPU-Sim): the warp that issued last keeps the
 * highest priority; then the other resident warps, oldest first (dynamic warp
 * id = launch order).  The list is rebuilt only when the last-issued warp or
 * the resident set changes.
 */
#include "sched.h"

static void gto_add(ws_sched *s, uint32_t slot)
{
    ws_sched_list_append(s->age, &s->nage, slot);   /* launched last = youngest */
    s->dirty = 1;
}

static void gto_remove(ws_sched *s, uint32_t slot)
{
    ws_sched_list_remove(s->age, &s->nage, slot);
    if (s->has_last && s->last == slot) s->has_last = 0;
    s->dirty = 1;
}

/* Greedy warp first, then the first `limit` oldest (limit = nage for gto). */
void ws_sched_gto_build(ws_sched *s, uint32_t limit)
{
    uint32_t n = 0;
    if (limit > s->nage) limit = s->nage;
    int greedy = 0;
    if (s->has_last)
        for (uint32_t i = 0; i < limit; i++)
            if (s->age[i] == s->last) { greedy = 1; break; }
    if (greedy) s->prio[n++] = s->last;
    for (uint32_t i = 0; i < limit; i++)
        if (!greedy || s->age[i] != s->last) s->prio[n++] = s->age[i];
    s->nprio = n;
    s->dirty = 0;
}

static uint32_t gto_order(ws_sched *s, uint64_t now, const uint32_t **out, uint32_t *start)
{
    (void)now;
    if (s->dirty) ws_sched_gto_build(s, s->nage);
    *out = s->prio;
    *start = 0;
    return s->nprio;
}

static void gto_issued(ws_sched *s, uint32_t slot, uint64_t now)
{
    (void)now;
    if (!s->has_last || s->last != slot) s->dirty = 1;
    s->last = slot;
    s->has_last = 1;
}

const ws_sched_ops ws_sched_gto = {
    .name = "gto", .add = gto_add, .remove = gto_remove, .order = gto_order,
    .issued = gto_issued, .hash = ws_sched_hash_common,
};
