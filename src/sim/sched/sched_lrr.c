/*
 * lrr: loose round-robin (GPGPU-Sim's default): the priority list is the
 * scheduler's resident warps in slot order, starting at the warp after the one
 * that issued last, wrapping.  Also the list helpers shared by every policy.
 */
#include <string.h>
#include "sched.h"
#include "sim/div/divergence.h"

void ws_sched_list_add_sorted(uint32_t *list, uint32_t *n, uint32_t slot)
{
    uint32_t i = *n;
    while (i > 0 && list[i - 1] > slot) {
        list[i] = list[i - 1];
        i--;
    }
    list[i] = slot;
    (*n)++;
}

void ws_sched_list_append(uint32_t *list, uint32_t *n, uint32_t slot) { list[(*n)++] = slot; }

int ws_sched_list_remove(uint32_t *list, uint32_t *n, uint32_t slot)
{
    for (uint32_t i = 0; i < *n; i++)
        if (list[i] == slot) {
            memmove(list + i, list + i + 1, (*n - i - 1) * sizeof *list);
            (*n)--;
            return 1;
        }
    return 0;
}

int ws_sched_in_prio(const ws_sched *s, uint32_t slot)
{
    for (uint32_t i = 0; i < s->nprio; i++)
        if (s->prio[i] == slot) return 1;
    return 0;
}

uint64_t ws_sched_hash_common(const ws_sched *s, uint64_t h)
{
    h = ws_hmix(h, s->has_last ? s->last + 1 : 0);
    h = ws_hmix(h, s->nres);
    for (uint32_t i = 0; i < s->nres; i++) h = ws_hmix(h, s->res[i]);
    for (uint32_t i = 0; i < s->nage; i++) h = ws_hmix(h, s->age[i]);
    for (uint32_t i = 0; i < s->nprio; i++) h = ws_hmix(h, s->prio[i]);
    for (uint32_t i = 0; i < s->nfifo; i++) h = ws_hmix(h, s->fifo[(s->fhead + i) % s->cap]);
    return h;
}

static void lrr_add(ws_sched *s, uint32_t slot) { ws_sched_list_add_sorted(s->res, &s->nres, slot); }
static void lrr_remove(ws_sched *s, uint32_t slot) { ws_sched_list_remove(s->res, &s->nres, slot); }

static uint32_t lrr_order(ws_sched *s, uint64_t now, const uint32_t **out, uint32_t *start)
{
    (void)now;
    *out = s->res;
    *start = 0;
    if (s->has_last && s->issued_at < s->nres && s->res[s->issued_at] == s->last) {
        *start = s->issued_at + 1 == s->nres ? 0 : s->issued_at + 1;
    } else if (s->has_last && s->nres) {
        /* first resident slot after the last issued one (slot order, wrapping) */
        uint32_t lo = 0, hi = s->nres;        /* first index with res[i] > last */
        while (lo < hi) {
            uint32_t mid = (lo + hi) / 2;
            if (s->res[mid] <= s->last) lo = mid + 1;
            else hi = mid;
        }
        *start = lo == s->nres ? 0 : lo;
    }
    return s->nres;
}

static void lrr_issued(ws_sched *s, uint32_t slot, uint64_t now)
{
    (void)now;
    s->last = slot;
    s->has_last = 1;
}

const ws_sched_ops ws_sched_lrr = {
    .name = "lrr", .add = lrr_add, .remove = lrr_remove, .order = lrr_order,
    .issued = lrr_issued, .hash = ws_sched_hash_common, .slot_order = 1,
};
