#ifndef WS_SCHED_VTA_H
#define WS_SCHED_VTA_H
/*
 * Per-warp victim tag arrays (Rogers, O'Connor, Aamodt, MICRO 2012, Section
 * 3.3.1), shared by ccws and daws: every warp slot has `entries` tags of
 * evicted L1 lines in sets of `ways` (LRU); the tag of a line the L1 evicts
 * enters the VTA of the warp that allocated it, and a warp missing on a line
 * its VTA holds has lost intra-warp locality (a VTA hit; the tag stays: the
 * paper only probes).
 */
#include <stdint.h>
#include <string.h>
#include "sim/div/divergence.h"   /* ws_hmix */

#define WS_VTA_NO_TAG UINT64_MAX

typedef struct ws_vta {
    uint32_t entries, ways, sets;
    uint64_t *tag;            /* slots x entries tags (line addresses) */
    uint64_t *stamp;          /* LRU stamps of the tags */
    uint64_t clock;
} ws_vta;

/* entries tags per slot in ways-way sets (whole sets), every tag empty. */
static inline int ws_vta_init(ws_vta *v, uint32_t slots, uint32_t entries, uint32_t ways,
                              void *(*alloc)(void *ctx, size_t n), void *ctx)
{
    if (ways > entries) ways = entries;
    v->ways = ways;
    v->sets = entries / ways;
    v->entries = v->sets * ways;
    v->clock = 0;
    size_t n = (size_t)slots * v->entries;
    v->tag = alloc(ctx, n * sizeof *v->tag);
    v->stamp = alloc(ctx, n * sizeof *v->stamp);
    if (!v->tag || !v->stamp) return -1;
    for (size_t i = 0; i < n; i++) { v->tag[i] = WS_VTA_NO_TAG; v->stamp[i] = 0; }
    return 0;
}

static inline void ws_vta_clear(ws_vta *v, uint32_t w)
{
    for (uint32_t e = 0; e < v->entries; e++) v->tag[(size_t)w * v->entries + e] = WS_VTA_NO_TAG;
}

/* First entry of the set of line in warp w's VTA. */
static inline size_t ws_vta_set(const ws_vta *v, uint32_t w, uint64_t line)
{
    return (size_t)w * v->entries + (size_t)(line % v->sets) * v->ways;
}

/* Line evicted from the L1, allocated by warp w: into w's VTA (LRU victim). */
static inline void ws_vta_insert(ws_vta *v, uint32_t w, uint64_t line)
{
    size_t b = ws_vta_set(v, w, line), x = b;
    for (uint32_t k = 0; k < v->ways; k++) {
        if (v->tag[b + k] == line) { x = b + k; break; }
        if (v->tag[b + k] == WS_VTA_NO_TAG) { x = b + k; break; }
        if (v->stamp[b + k] < v->stamp[x]) x = b + k;
    }
    v->tag[x] = line;
    v->stamp[x] = ++v->clock;
}

/* Does warp w's VTA hold line? */
static inline int ws_vta_probe(const ws_vta *v, uint32_t w, uint64_t line)
{
    size_t b = ws_vta_set(v, w, line);
    for (uint32_t k = 0; k < v->ways; k++)
        if (v->tag[b + k] == line) return 1;
    return 0;
}

static inline uint64_t ws_vta_hash(const ws_vta *v, uint32_t w, uint64_t h)
{
    for (uint32_t e = 0; e < v->entries; e++) h = ws_hmix(h, v->tag[(size_t)w * v->entries + e]);
    return h;
}

#endif
