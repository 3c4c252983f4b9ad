/*
 * gto: greedy-then-oldest (GPGPU-Sim): the warp that issued last keeps the
 * highest priority; then the other resident warps, oldest first (dynamic warp
 * id = launch order).  The list is rebuilt only when the last-issued warp or
 * the resident set changes.
 */
#include <string.h>
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

/* ws_sched_gto_build over every resident warp (gto; swl and the others when
 * their limit admits all): the last issuer is always resident (gto_remove
 * forgets it), so the list is it, then the age list in two copies around it.
 * Rebuilt once per change of greedy warp: the walk of the cache bench. */
static void gto_build_all(ws_sched *s)
{
    uint32_t n = s->nage;
    if (!s->has_last) {
        memcpy(s->prio, s->age, n * sizeof s->age[0]);
        s->nprio = n;
        s->dirty = 0;
        return;
    }
    uint32_t i = 0;
    while (i < n && s->age[i] != s->last) i++;
    if (i == n) {   /* not resident (a policy that keeps last otherwise): no greedy warp */
        memcpy(s->prio, s->age, n * sizeof s->age[0]);
    } else {
        s->prio[0] = s->last;
        memcpy(s->prio + 1, s->age, i * sizeof s->age[0]);
        memcpy(s->prio + 1 + i, s->age + i + 1, (n - i - 1) * sizeof s->age[0]);
    }
    s->nprio = n;
    s->dirty = 0;
}

/* Greedy warp first, then the first `limit` oldest (limit = nage for gto). */
void ws_sched_gto_build(ws_sched *s, uint32_t limit)
{
    uint32_t n = 0;
    if (limit >= s->nage) {
        gto_build_all(s);
        return;
    }
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
