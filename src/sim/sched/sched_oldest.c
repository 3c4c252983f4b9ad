/*
 * oldest: strict age priority, the oldest resident warp (lowest dynamic warp
 * id, i.e. launched first) first, whatever issued last.
 */
#include "sched.h"

static void old_add(ws_sched *s, uint32_t slot) { ws_sched_list_append(s->age, &s->nage, slot); }
static void old_remove(ws_sched *s, uint32_t slot) { ws_sched_list_remove(s->age, &s->nage, slot); }

static uint32_t old_order(ws_sched *s, uint64_t now, const uint32_t **out, uint32_t *start)
{
    (void)now;
    *out = s->age;
    *start = 0;
    return s->nage;
}

static void old_issued(ws_sched *s, uint32_t slot, uint64_t now)
{
    (void)now;
    s->last = slot;
    s->has_last = 1;
}

const ws_sched_ops ws_sched_oldest = {
    .name = "oldest", .add = old_add, .remove = old_remove, .order = old_order,
    .issued = old_issued, .hash = ws_sched_hash_common,
};
