/*
 * A sectored cache, timing only (docs/memory.md), used for the per-core L1
 * and for each L2 slice: sets x ways of line tags, LRU replacement, a valid
 * and a dirty bit per sector, the cycle each sector's fill completes, the
 * warp (or core) that allocated each line, and MSHRs: one per line fill in
 * flight, merging later requests for the sectors it brings up to a limit.
 *
 * A read finds which of its sectors are present (hit), in flight (merge) or
 * absent (to fetch); the caller picks an MSHR, asks the level below for the
 * absent sectors and records the fill.  Nothing here knows about the levels
 * around it, so the L1 and the L2 are the same code.
 */
#include <stdlib.h>
#include <string.h>
#include "mem_internal.h"

#define INVALID UINT64_MAX
#define NO_MSHR UINT32_MAX

int ws_cache_init(ws_cache *c, const ws_cache_geom *g, ws_error *err)
{
    *c = (ws_cache){0};
    const uint32_t line = g->line, sector = g->sector ? g->sector : g->line;
    if (line == 0 || (line & (line - 1)))
        return ws_fail(err, "%s line=%u is not a power of two", g->name, line);
    if (sector == 0 || line % sector || line / sector > 64)
        return ws_fail(err, "%s: sector_bytes=%u must divide the %u-byte line into at most 64 sectors",
                       g->name, sector, line);
    if (g->ways == 0 || g->mshrs == 0)
        return ws_fail(err, "%s: ways and MSHRs must be at least 1", g->name);
    uint64_t way_bytes = (uint64_t)g->ways * line;
    if (g->bytes == 0 || g->bytes % way_bytes)
        return ws_fail(err, "%s: %llu bytes is not a multiple of ways x line = %u x %u bytes", g->name,
                       (unsigned long long)g->bytes, g->ways, line);
    c->sets = (uint32_t)(g->bytes / way_bytes);
    c->interleave = g->interleave ? g->interleave : 1;
    c->ways = g->ways;
    c->line = line;
    c->sector = sector;
    c->spl = line / sector;
    c->full = c->spl == 64 ? ~0ull : (1ull << c->spl) - 1;
    c->latency = g->latency;
    c->write_back = g->write_back;
    c->nmshr = g->mshrs;
    c->merge_max = g->merge_max;
    size_t n = (size_t)c->sets * c->ways;
    c->tag = malloc(n * sizeof *c->tag);
    c->stamp = calloc(n, sizeof *c->stamp);
    c->valid = calloc(n, sizeof *c->valid);
    c->dirty = calloc(n, sizeof *c->dirty);
    c->owner = calloc(n, sizeof *c->owner);
    c->fill_mshr = malloc(n * sizeof *c->fill_mshr);
    c->ready = calloc(n * c->spl, sizeof *c->ready);
    c->mshr_line = malloc((size_t)c->nmshr * sizeof *c->mshr_line);
    c->mshr_done = calloc(c->nmshr, sizeof *c->mshr_done);
    c->mshr_mask = calloc(c->nmshr, sizeof *c->mshr_mask);
    c->mshr_merged = calloc(c->nmshr, sizeof *c->mshr_merged);
    if (!c->tag || !c->stamp || !c->valid || !c->dirty || !c->owner || !c->fill_mshr || !c->ready
        || !c->mshr_line || !c->mshr_done || !c->mshr_mask || !c->mshr_merged) {
        ws_cache_free(c);
        return ws_fail(err, "out of memory for a %llu-byte %s", (unsigned long long)g->bytes, g->name);
    }
    for (size_t i = 0; i < n; i++) { c->tag[i] = INVALID; c->fill_mshr[i] = NO_MSHR; }
    for (uint32_t i = 0; i < c->nmshr; i++) c->mshr_line[i] = INVALID;
    return 0;
}

void ws_cache_free(ws_cache *c)
{
    free(c->tag); free(c->stamp); free(c->valid); free(c->dirty); free(c->owner);
    free(c->fill_mshr); free(c->ready);
    free(c->mshr_line); free(c->mshr_done); free(c->mshr_mask); free(c->mshr_merged);
    *c = (ws_cache){0};
}

void ws_cache_invalidate(ws_cache *c, void (*wb)(void *ctx, uint64_t line, uint64_t dirty), void *ctx)
{
    size_t n = (size_t)c->sets * c->ways;
    for (size_t i = 0; i < n; i++) {
        if (c->tag[i] != INVALID && c->dirty[i] && wb) wb(ctx, c->tag[i], c->dirty[i]);
        c->tag[i] = INVALID;
        c->valid[i] = c->dirty[i] = 0;
        c->fill_mshr[i] = NO_MSHR;
    }
    memset(c->ready, 0, n * c->spl * sizeof *c->ready);
}

/* A slice of an interleaved cache sees only the lines l = s mod interleave:
 * indexing its sets by l mod sets would use only sets / gcd(sets, interleave)
 * of them (one set of 64 slices' 32 each), so the slice-local index l /
 * interleave picks the set. */
static inline size_t set_base(const ws_cache *c, uint64_t line)
{
    return (size_t)((line / c->interleave) % c->sets) * c->ways;
}

static inline size_t find_way(const ws_cache *c, uint64_t line)
{
    size_t b = set_base(c, line);
    for (uint32_t w = 0; w < c->ways; w++)
        if (c->tag[b + w] == line) return b + w;
    return SIZE_MAX;
}

/* Allocates line in its set: the first invalid way, else the least recently
 * used one, whose line is reported in *ev (valid = 0 when none was there). */
static size_t allocate(ws_cache *c, uint64_t line, uint32_t owner, ws_cache_evict *ev)
{
    size_t b = set_base(c, line), victim = SIZE_MAX;
    for (uint32_t w = 0; w < c->ways && victim == SIZE_MAX; w++)
        if (c->tag[b + w] == INVALID) victim = b + w;
    if (victim == SIZE_MAX) {
        victim = b;
        for (uint32_t w = 1; w < c->ways; w++)
            if (c->stamp[b + w] < c->stamp[victim]) victim = b + w;
        ev->valid = 1;
        ev->line = c->tag[victim];
        ev->owner = c->owner[victim];
        ev->dirty = c->dirty[victim];
        c->evictions++;
        if (ev->dirty) c->writebacks++;
    }
    c->tag[victim] = line;
    c->valid[victim] = 0;
    c->dirty[victim] = 0;
    c->owner[victim] = owner;
    c->fill_mshr[victim] = NO_MSHR;
    c->stamp[victim] = ++c->clock;
    return victim;
}

/* The in-flight sectors `inflight` of way i complete at the latest of their
 * ready times; a request merging into their MSHR beyond merge_max waits for
 * the fill and replays (one more hit latency). */
static uint64_t merge_done(ws_cache *c, size_t i, uint64_t inflight, uint64_t now, uint64_t *merge_stall)
{
    uint64_t fill = 0;
    for (uint64_t m = inflight; m; m &= m - 1) {
        uint64_t r = c->ready[i * c->spl + (unsigned)__builtin_ctzll(m)];
        if (r > fill) fill = r;
    }
    uint32_t s = c->fill_mshr[i];
    if (s != NO_MSHR && c->merge_max && c->mshr_line[s] == c->tag[i] && c->mshr_done[s] > now) {
        if (c->mshr_merged[s] >= c->merge_max) {
            (*merge_stall)++;
            return fill + c->latency;
        }
        c->mshr_merged[s]++;
    }
    uint64_t hit = now + c->latency;
    return fill > hit ? fill : hit;
}

int ws_cache_read(ws_cache *c, uint64_t line, uint64_t mask, uint64_t now, uint32_t owner, ws_cache_look *lk)
{
    lk->done = 0;
    lk->miss = 0;
    lk->ev.valid = 0;
    mask &= c->full;
    size_t i = find_way(c, line);
    uint64_t inflight = 0, present = 0;
    if (i == SIZE_MAX) {
        /* evicted while its fill is in flight: the MSHR still brings it
         * (nothing to look for once every fill has returned) */
        for (uint32_t m = 0; c->mshr_latest > now && m < c->nmshr; m++)
            if (c->mshr_line[m] == line && c->mshr_done[m] > now && (c->mshr_mask[m] & mask)) {
                uint64_t covered = c->mshr_mask[m] & mask, hit = now + c->latency;
                lk->done = c->mshr_done[m] > hit ? c->mshr_done[m] : hit;
                c->sector_misses += (uint64_t)__builtin_popcountll(covered);
                mask &= ~covered;
                if (!mask) { c->merges++; c->misses++; lk->way = SIZE_MAX; return WS_L1_MERGE; }
                break;
            }
        i = allocate(c, line, owner, &lk->ev);
    } else {
        c->stamp[i] = ++c->clock;
        present = c->valid[i] & mask;
        for (uint64_t m = present; m; m &= m - 1) {
            unsigned s = (unsigned)__builtin_ctzll(m);
            if (c->ready[i * c->spl + s] > now) inflight |= 1ull << s;
        }
    }
    lk->way = i;
    lk->miss = mask & ~present;
    uint64_t hits = present & ~inflight;
    c->sector_hits += (uint64_t)__builtin_popcountll(hits);
    c->sector_misses += (uint64_t)__builtin_popcountll(mask & ~hits);
    if (hits) lk->done = lk->done > now + c->latency ? lk->done : now + c->latency;
    if (inflight) {
        uint64_t d = merge_done(c, i, inflight, now, &c->merge_stalls);
        if (d > lk->done) lk->done = d;
    }
    if (lk->miss) { c->misses++; return WS_L1_MISS; }
    if (inflight) { c->misses++; c->merges++; return WS_L1_MERGE; }
    c->hits++;
    return WS_L1_HIT;
}

/* The MSHR freeing earliest is kept in c->mshr_best, rescanned only when a
 * fill changes an MSHR (accept() asks on every load issue: O(1)). */
static void rescan_best(ws_cache *c)
{
    uint32_t best = 0;
    for (uint32_t m = 1; m < c->nmshr; m++)
        if (c->mshr_done[m] < c->mshr_done[best]) best = m;
    c->mshr_best = best;
}

uint32_t ws_cache_mshr_pick(const ws_cache *c, uint64_t now, uint64_t *at)
{
    uint32_t best = c->mshr_best;
    *at = c->mshr_done[best] > now ? c->mshr_done[best] : now;
    return best;
}

uint64_t ws_cache_mshr_free_at(const ws_cache *c, uint64_t now)
{
    uint64_t at;
    ws_cache_mshr_pick(c, now, &at);
    return at;
}

void ws_cache_fill(ws_cache *c, const ws_cache_look *lk, uint64_t line, uint32_t slot, uint64_t done)
{
    c->mshr_line[slot] = line;
    c->mshr_done[slot] = done;
    c->mshr_mask[slot] = lk->miss;
    c->mshr_merged[slot] = 0;
    if (done > c->mshr_latest) c->mshr_latest = done;
    rescan_best(c);
    size_t i = lk->way;
    if (i == SIZE_MAX || c->tag[i] != line) return;
    c->fill_mshr[i] = slot;
    c->valid[i] |= lk->miss;
    for (uint64_t m = lk->miss; m; m &= m - 1)
        c->ready[i * c->spl + (unsigned)__builtin_ctzll(m)] = done;
}

int ws_cache_write(ws_cache *c, uint64_t line, uint64_t mask, uint64_t now, uint32_t owner, ws_cache_evict *ev)
{
    ev->valid = 0;
    mask &= c->full;
    size_t i = find_way(c, line);
    if (i == SIZE_MAX) {
        c->write_misses++;
        if (!c->write_back) return 0;                 /* no write-allocate */
        i = allocate(c, line, owner, ev);
    } else {
        c->write_hits++;
        c->stamp[i] = ++c->clock;
        if (!c->write_back) return 1;                 /* written through; present sectors stay valid */
    }
    /* write-allocate: the written sectors are valid and dirty now; a sector
     * still being filled keeps its ready time (the fill is older data, but
     * the timing of a later read is the fill's) */
    for (uint64_t m = mask & ~c->valid[i]; m; m &= m - 1)
        c->ready[i * c->spl + (unsigned)__builtin_ctzll(m)] = now;
    c->valid[i] |= mask;
    c->dirty[i] |= mask;
    return 1;
}

void ws_cache_install(ws_cache *c, uint64_t line)
{
    size_t i = find_way(c, line);
    if (i == SIZE_MAX) {
        ws_cache_evict ev;
        uint64_t evictions = c->evictions, writebacks = c->writebacks;
        i = allocate(c, line, 0, &ev);
        c->evictions = evictions;   /* a copy's replacements are not the kernel's */
        c->writebacks = writebacks;
    } else {
        c->stamp[i] = ++c->clock;
    }
    for (uint32_t s = 0; s < c->spl; s++) c->ready[i * c->spl + s] = 0;
    c->valid[i] = c->full;
    c->dirty[i] = 0;
}

/* ---- the original L1 interface: one sector per line ---- */

int ws_l1_init(ws_l1 *c, uint32_t kb, uint32_t ways, uint32_t line, uint64_t latency,
               uint32_t mshrs, ws_error *err)
{
    ws_cache_geom g = {.name = "L1", .bytes = (uint64_t)kb * 1024, .ways = ways, .line = line,
                       .sector = line, .latency = latency, .mshrs = mshrs};
    if (line == 0 || (line & (line - 1)))
        return ws_fail(err, "l1_line=%u is not a power of two", line);
    if (ways == 0 || mshrs == 0)
        return ws_fail(err, "l1_ways and l1_mshrs must be at least 1");
    if (kb == 0 || g.bytes % ((uint64_t)ways * line))
        return ws_fail(err, "l1_kb=%u is not a multiple of l1_ways x l1_line = %u x %u bytes", kb, ways, line);
    return ws_cache_init(c, &g, err);
}

void ws_l1_free(ws_l1 *c) { ws_cache_free(c); }

int ws_l1_probe(ws_l1 *c, uint64_t line, uint64_t now, uint64_t *done)
{
    /* a probe that misses does not allocate (the caller's fill does) */
    size_t i = find_way(c, line);
    uint64_t hit = now + c->latency;
    if (i != SIZE_MAX && c->valid[i]) {
        c->stamp[i] = ++c->clock;
        uint64_t r = c->ready[i * c->spl];
        if (r <= now) { *done = hit; return WS_L1_HIT; }
        *done = r > hit ? r : hit;
        return WS_L1_MERGE;
    }
    for (uint32_t m = 0; c->mshr_latest > now && m < c->nmshr; m++)
        if (c->mshr_line[m] == line && c->mshr_done[m] > now) {
            *done = c->mshr_done[m] > hit ? c->mshr_done[m] : hit;
            return WS_L1_MERGE;
        }
    return WS_L1_MISS;
}

uint32_t ws_l1_mshr_pick(const ws_l1 *c, uint64_t now, uint64_t *at) { return ws_cache_mshr_pick(c, now, at); }

uint64_t ws_l1_mshr_free_at(const ws_l1 *c, uint64_t now) { return ws_cache_mshr_free_at(c, now); }

void ws_l1_fill(ws_l1 *c, uint32_t slot, uint64_t line, uint64_t done)
{
    uint64_t vl;
    uint32_t vo;
    ws_l1_fill_owned(c, slot, line, done, 0, &vl, &vo);
}

int ws_l1_fill_owned(ws_l1 *c, uint32_t slot, uint64_t line, uint64_t done, uint32_t warp,
                     uint64_t *victim_line, uint32_t *victim_owner)
{
    ws_cache_look lk = {.miss = c->full, .way = find_way(c, line)};
    if (lk.way == SIZE_MAX) lk.way = allocate(c, line, warp, &lk.ev);
    ws_cache_fill(c, &lk, line, slot, done);
    *victim_line = lk.ev.valid ? lk.ev.line : UINT64_MAX;
    *victim_owner = lk.ev.valid ? lk.ev.owner : 0;
    return lk.ev.valid;
}

int ws_l1_store(ws_l1 *c, uint64_t line, uint64_t now)
{
    size_t i = find_way(c, line);
    if (i == SIZE_MAX || !c->valid[i] || c->ready[i * c->spl] > now) return 0;
    c->stamp[i] = ++c->clock;
    return 1;
}
