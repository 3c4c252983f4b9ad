/*
 * L1 data cache, timing only (docs/memory.md): sets x ways of line tags with
 * LRU replacement, allocate on miss (the tag is reserved when the miss is
 * sent, ready when its fill returns), and MSHRs: one per line in flight;
 * a later miss to that line merges into it and completes with it.
 */
#include <stdlib.h>
#include "mem_internal.h"

#define INVALID UINT64_MAX

int ws_l1_init(ws_l1 *c, uint32_t kb, uint32_t ways, uint32_t line, uint64_t latency,
               uint32_t mshrs, ws_error *err)
{
    *c = (ws_l1){0};
    if (line == 0 || (line & (line - 1)))
        return ws_fail(err, "l1_line=%u is not a power of two", line);
    if (ways == 0 || mshrs == 0)
        return ws_fail(err, "l1_ways and l1_mshrs must be at least 1");
    uint64_t bytes = (uint64_t)kb * 1024, way_bytes = (uint64_t)ways * line;
    if (bytes == 0 || bytes % way_bytes)
        return ws_fail(err, "l1_kb=%u is not a multiple of l1_ways x l1_line = %u x %u bytes",
                       kb, ways, line);
    c->sets = (uint32_t)(bytes / way_bytes);
    c->ways = ways;
    c->line = line;
    c->latency = latency;
    c->nmshr = mshrs;
    size_t n = (size_t)c->sets * ways;
    c->tag = malloc(n * sizeof *c->tag);
    c->stamp = calloc(n, sizeof *c->stamp);
    c->ready = calloc(n, sizeof *c->ready);
    c->owner = calloc(n, sizeof *c->owner);
    c->mshr_line = malloc((size_t)mshrs * sizeof *c->mshr_line);
    c->mshr_done = calloc(mshrs, sizeof *c->mshr_done);
    if (!c->tag || !c->stamp || !c->ready || !c->owner || !c->mshr_line || !c->mshr_done) {
        ws_l1_free(c);
        return ws_fail(err, "out of memory for a %u KiB L1", kb);
    }
    for (size_t i = 0; i < n; i++) c->tag[i] = INVALID;
    for (uint32_t i = 0; i < mshrs; i++) c->mshr_line[i] = INVALID;
    return 0;
}

void ws_l1_free(ws_l1 *c)
{
    free(c->tag); free(c->stamp); free(c->ready); free(c->owner);
    free(c->mshr_line); free(c->mshr_done);
    *c = (ws_l1){0};
}

static inline size_t set_base(const ws_l1 *c, uint64_t line)
{
    return (size_t)(line % c->sets) * c->ways;
}

static inline size_t find_way(const ws_l1 *c, uint64_t line)
{
    size_t b = set_base(c, line);
    for (uint32_t w = 0; w < c->ways; w++)
        if (c->tag[b + w] == line) return b + w;
    return SIZE_MAX;
}

int ws_l1_probe(ws_l1 *c, uint64_t line, uint64_t now, uint64_t *done)
{
    uint64_t hit = now + c->latency;
    size_t i = find_way(c, line);
    if (i != SIZE_MAX) {
        c->stamp[i] = ++c->clock;
        if (c->ready[i] <= now) { *done = hit; return WS_L1_HIT; }
        *done = c->ready[i] > hit ? c->ready[i] : hit;
        return WS_L1_MERGE;
    }
    /* evicted while its fill is still in flight: the MSHR still has it */
    for (uint32_t m = 0; m < c->nmshr; m++)
        if (c->mshr_line[m] == line && c->mshr_done[m] > now) {
            *done = c->mshr_done[m] > hit ? c->mshr_done[m] : hit;
            return WS_L1_MERGE;
        }
    return WS_L1_MISS;
}

uint32_t ws_l1_mshr_pick(const ws_l1 *c, uint64_t now, uint64_t *at)
{
    uint32_t best = 0;
    for (uint32_t m = 1; m < c->nmshr; m++)
        if (c->mshr_done[m] < c->mshr_done[best]) best = m;
    *at = c->mshr_done[best] > now ? c->mshr_done[best] : now;
    return best;
}

uint64_t ws_l1_mshr_free_at(const ws_l1 *c, uint64_t now)
{
    uint64_t at;
    ws_l1_mshr_pick(c, now, &at);
    return at;
}

void ws_l1_fill(ws_l1 *c, uint32_t slot, uint64_t line, uint64_t done)
{
    uint64_t vl;
    uint32_t vo;
    ws_l1_fill_owned(c, slot, line, done, 0, &vl, &vo);
}

int ws_l1_fill_owned(ws_l1 *c, uint32_t slot, uint64_t line, uint64_t done, uint32_t warp,
                     uint64_t *victim_line, uint32_t *victim_owner)
{
    c->mshr_line[slot] = line;
    c->mshr_done[slot] = done;
    size_t b = set_base(c, line), victim = SIZE_MAX;
    for (uint32_t w = 0; w < c->ways && victim == SIZE_MAX; w++)   /* first invalid way */
        if (c->tag[b + w] == INVALID) victim = b + w;
    if (victim == SIZE_MAX) {                                       /* else least recently used */
        victim = b;
        for (uint32_t w = 1; w < c->ways; w++)
            if (c->stamp[b + w] < c->stamp[victim]) victim = b + w;
    }
    int evicted = c->tag[victim] != INVALID;
    *victim_line = c->tag[victim];
    *victim_owner = c->owner[victim];
    c->tag[victim] = line;
    c->owner[victim] = warp;
    c->ready[victim] = done;
    c->stamp[victim] = ++c->clock;
    return evicted;
}

int ws_l1_store(ws_l1 *c, uint64_t line, uint64_t now)
{
    size_t i = find_way(c, line);
    if (i == SIZE_MAX || c->ready[i] > now) return 0;
    c->stamp[i] = ++c->clock;
    return 1;
}
