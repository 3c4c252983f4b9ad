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
 * around it, so the L1 and the L2 are the same code. No lookup scans the
 * ways or the MSHRs: a hash table finds a line's way, a list per set keeps
 * its LRU order, a tournament tree the MSHR that frees first (log2 MSHRs
 * steps per fill) and hash chains the MSHRs by line.
 */
#include <stdlib.h>
#include <string.h>
#include "mem_internal.h"

#define INVALID UINT64_MAX
#define NO_MSHR UINT32_MAX

static uint32_t pow2_at_least(uint64_t n)
{
    uint32_t p = 1;
    while (p < n) p *= 2;
    return p;
}

static inline uint32_t hash_line(uint64_t line, uint32_t mask)
{
    return (uint32_t)((line * 0x9e3779b97f4a7c15ull) >> 32) & mask;
}

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
    if (g->bytes / line > (1u << 30))
        return ws_fail(err, "%s: %llu bytes in %u-byte lines is more than 2^30 lines", g->name,
                       (unsigned long long)g->bytes, line);
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
    c->way_mask = pow2_at_least(2 * (uint64_t)n) - 1;
    c->mshr_leaves = pow2_at_least(c->nmshr);
    c->mshr_hmask = c->mshr_leaves - 1;   /* as many hash buckets as tree leaves */
    c->tag = malloc(n * sizeof *c->tag);
    c->valid = calloc(n, sizeof *c->valid);
    c->dirty = calloc(n, sizeof *c->dirty);
    c->owner = calloc(n, sizeof *c->owner);
    c->fill_mshr = malloc(n * sizeof *c->fill_mshr);
    c->ready = calloc(n * c->spl, sizeof *c->ready);
    c->lru_prev = malloc(n * sizeof *c->lru_prev);
    c->lru_next = malloc(n * sizeof *c->lru_next);
    c->lru_old = malloc((size_t)c->sets * sizeof *c->lru_old);
    c->lru_new = malloc((size_t)c->sets * sizeof *c->lru_new);
    c->set_used = calloc(c->sets, sizeof *c->set_used);
    c->way_of = calloc((size_t)c->way_mask + 1, sizeof *c->way_of);
    c->mshr_line = malloc((size_t)c->nmshr * sizeof *c->mshr_line);
    c->mshr_done = calloc(c->nmshr, sizeof *c->mshr_done);
    c->mshr_mask = calloc(c->nmshr, sizeof *c->mshr_mask);
    c->mshr_merged = calloc(c->nmshr, sizeof *c->mshr_merged);
    c->mshr_tree = malloc(2 * (size_t)c->mshr_leaves * sizeof *c->mshr_tree);
    c->mshr_head = malloc(((size_t)c->mshr_hmask + 1) * sizeof *c->mshr_head);
    c->mshr_next = malloc((size_t)c->nmshr * sizeof *c->mshr_next);
    if (!c->tag || !c->valid || !c->dirty || !c->owner || !c->fill_mshr || !c->ready || !c->lru_prev ||
        !c->lru_next || !c->lru_old || !c->lru_new || !c->set_used || !c->way_of || !c->mshr_line ||
        !c->mshr_done || !c->mshr_mask || !c->mshr_merged || !c->mshr_tree || !c->mshr_head || !c->mshr_next) {
        ws_cache_free(c);
        return ws_fail(err, "out of memory for a %llu-byte %s", (unsigned long long)g->bytes, g->name);
    }
    for (size_t i = 0; i < n; i++) { c->tag[i] = INVALID; c->fill_mshr[i] = NO_MSHR; }
    for (uint32_t s = 0; s < c->sets; s++) {   /* each set's list in way order */
        size_t b = (size_t)s * c->ways;
        for (uint32_t w = 0; w < c->ways; w++) {
            c->lru_prev[b + w] = w ? (uint32_t)(b + w - 1) : NO_MSHR;
            c->lru_next[b + w] = w + 1 < c->ways ? (uint32_t)(b + w + 1) : NO_MSHR;
        }
        c->lru_old[s] = (uint32_t)b;
        c->lru_new[s] = (uint32_t)(b + c->ways - 1);
    }
    for (uint32_t i = 0; i < c->nmshr; i++) { c->mshr_line[i] = INVALID; c->mshr_next[i] = NO_MSHR; }
    for (uint32_t i = 0; i <= c->mshr_hmask; i++) c->mshr_head[i] = NO_MSHR;
    for (uint32_t i = 0; i < c->mshr_leaves; i++) c->mshr_tree[c->mshr_leaves + i] = i < c->nmshr ? i : NO_MSHR;
    for (uint32_t k = c->mshr_leaves - 1; k >= 1; k--) c->mshr_tree[k] = c->mshr_tree[2 * k];   /* all free at 0 */
    return 0;
}

void ws_cache_free(ws_cache *c)
{
    free(c->tag); free(c->valid); free(c->dirty); free(c->owner);
    free(c->fill_mshr); free(c->ready);
    free(c->lru_prev); free(c->lru_next); free(c->lru_old); free(c->lru_new); free(c->set_used); free(c->way_of);
    free(c->mshr_line); free(c->mshr_done); free(c->mshr_mask); free(c->mshr_merged);
    free(c->mshr_tree); free(c->mshr_head); free(c->mshr_next);
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
    memset(c->set_used, 0, (size_t)c->sets * sizeof *c->set_used);
    memset(c->way_of, 0, ((size_t)c->way_mask + 1) * sizeof *c->way_of);
}

uint64_t ws_cache_dirty_bytes(const ws_cache *c)
{
    uint64_t sectors = 0;
    for (size_t i = 0, n = (size_t)c->sets * c->ways; i < n; i++)
        if (c->tag[i] != INVALID)
            sectors += (uint64_t)__builtin_popcountll(c->dirty[i]);
    return sectors * c->sector;
}

/* A slice of an interleaved cache sees only the lines l = s mod interleave:
 * indexing its sets by l mod sets would use only sets / gcd(sets, interleave)
 * of them (one set of 64 slices' 32 each), so the slice-local index l /
 * interleave picks the set. */
static inline uint32_t set_of(const ws_cache *c, uint64_t line)
{
    return (uint32_t)((line / c->interleave) % c->sets);
}

/* The way holding line (the way_of table), else SIZE_MAX. */
static inline size_t find_way(const ws_cache *c, uint64_t line)
{
    for (uint32_t p = hash_line(line, c->way_mask);; p = (p + 1) & c->way_mask) {
        uint32_t e = c->way_of[p];
        if (!e) return SIZE_MAX;
        if (c->tag[e - 1] == line) return e - 1;
    }
}

static void way_insert(ws_cache *c, size_t i)
{
    uint32_t p = hash_line(c->tag[i], c->way_mask);
    while (c->way_of[p]) p = (p + 1) & c->way_mask;
    c->way_of[p] = (uint32_t)i + 1;
}

/* Removes way i (still holding its line) from the table: linear probing's
 * backward-shift deletion, so no lookup ever stops early at a hole. */
static void way_remove(ws_cache *c, size_t i)
{
    uint32_t p = hash_line(c->tag[i], c->way_mask);
    while (c->way_of[p] != i + 1) p = (p + 1) & c->way_mask;
    for (uint32_t j = p;;) {
        j = (j + 1) & c->way_mask;
        uint32_t e = c->way_of[j];
        if (!e) break;
        uint32_t home = hash_line(c->tag[e - 1], c->way_mask);
        /* e stays when its home lies cyclically in (p, j] */
        if (p <= j ? (p < home && home <= j) : (p < home || home <= j)) continue;
        c->way_of[p] = e;
        p = j;
    }
    c->way_of[p] = 0;
}

/* Way i was used now: the most recent of its set (ways are numbered set by set). */
static inline void touch(ws_cache *c, size_t i)
{
    const uint32_t w = (uint32_t)i, set = w / c->ways;
    if (c->lru_new[set] == w) return;
    uint32_t pv = c->lru_prev[w], nx = c->lru_next[w];
    if (pv == NO_MSHR) c->lru_old[set] = nx;
    else c->lru_next[pv] = nx;
    c->lru_prev[nx] = pv;               /* nx exists: w is not the newest */
    c->lru_prev[w] = c->lru_new[set];
    c->lru_next[w] = NO_MSHR;
    c->lru_next[c->lru_new[set]] = w;
    c->lru_new[set] = w;
}

/* Allocates line in its set: the first invalid way, else the least recently
 * used one, whose line is reported in *ev (valid = 0 when none was there).
 * A set is full only once each of its ways was allocated since the last
 * invalidation, each touched then, so its list head is the way used longest
 * ago. */
static size_t allocate(ws_cache *c, uint64_t line, uint32_t owner, ws_cache_evict *ev)
{
    uint32_t set = set_of(c, line);
    size_t b = (size_t)set * c->ways, victim = SIZE_MAX;
    if (c->set_used[set] < c->ways) {
        for (uint32_t w = 0; w < c->ways && victim == SIZE_MAX; w++)
            if (c->tag[b + w] == INVALID) victim = b + w;
        c->set_used[set]++;
    } else {
        victim = c->lru_old[set];
        ev->valid = 1;
        ev->line = c->tag[victim];
        ev->owner = c->owner[victim];
        ev->dirty = c->dirty[victim];
        c->evictions++;
        if (ev->dirty) c->writebacks++;
        way_remove(c, victim);
    }
    c->tag[victim] = line;
    way_insert(c, victim);
    c->valid[victim] = 0;
    c->dirty[victim] = 0;
    c->owner[victim] = owner;
    c->fill_mshr[victim] = NO_MSHR;
    touch(c, victim);
    return victim;
}

/* The lowest-numbered MSHR whose fill of line is in flight at now (and, when
 * by_mask, brings one of the sectors mask), else NO_MSHR. */
static uint32_t mshr_find(const ws_cache *c, uint64_t line, uint64_t now, int by_mask, uint64_t mask)
{
    uint32_t best = NO_MSHR;
    if (c->mshr_latest <= now) return best;   /* every fill has returned */
    for (uint32_t m = c->mshr_head[hash_line(line, c->mshr_hmask)]; m != NO_MSHR; m = c->mshr_next[m])
        if (m < best && c->mshr_line[m] == line && c->mshr_done[m] > now && (!by_mask || (c->mshr_mask[m] & mask)))
            best = m;
    return best;
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
        uint32_t m = mshr_find(c, line, now, 1, mask);
        if (m != NO_MSHR) {
            uint64_t covered = c->mshr_mask[m] & mask, hit = now + c->latency;
            lk->done = c->mshr_done[m] > hit ? c->mshr_done[m] : hit;
            c->sector_misses += (uint64_t)__builtin_popcountll(covered);
            mask &= ~covered;
            if (!mask) { c->merges++; c->misses++; lk->way = SIZE_MAX; return WS_L1_MERGE; }
        }
        i = allocate(c, line, owner, &lk->ev);
    } else {
        touch(c, i);
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

/* The MSHR freeing earliest is kept in c->mshr_best, the root of the
 * tournament tree, updated along one leaf's path when a fill changes an MSHR
 * (accept() asks on every load issue: O(1)). A node takes its right child
 * only when that frees strictly earlier: the lowest index on ties, as a scan
 * in index order would find. */
static void mshr_changed(ws_cache *c, uint32_t slot)
{
    uint32_t *t = c->mshr_tree;
    for (uint32_t k = (c->mshr_leaves + slot) / 2; k >= 1; k /= 2) {
        uint32_t a = t[2 * k], b = t[2 * k + 1];
        t[k] = b != NO_MSHR && c->mshr_done[b] < c->mshr_done[a] ? b : a;
    }
    c->mshr_best = t[1];
}

/* MSHR slot takes line: it moves to line's hash chain. */
static void mshr_rechain(ws_cache *c, uint32_t slot, uint64_t line)
{
    uint64_t old = c->mshr_line[slot];
    if (old == line) return;
    if (old != INVALID) {
        uint32_t *pp = &c->mshr_head[hash_line(old, c->mshr_hmask)];
        while (*pp != slot) pp = &c->mshr_next[*pp];
        *pp = c->mshr_next[slot];
    }
    uint32_t *h = &c->mshr_head[hash_line(line, c->mshr_hmask)];
    c->mshr_next[slot] = *h;
    *h = slot;
    c->mshr_line[slot] = line;
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
    mshr_rechain(c, slot, line);
    c->mshr_done[slot] = done;
    c->mshr_mask[slot] = lk->miss;
    c->mshr_merged[slot] = 0;
    if (done > c->mshr_latest) c->mshr_latest = done;
    mshr_changed(c, slot);
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
        touch(c, i);
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
        touch(c, i);
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
        touch(c, i);
        uint64_t r = c->ready[i * c->spl];
        if (r <= now) { *done = hit; return WS_L1_HIT; }
        *done = r > hit ? r : hit;
        return WS_L1_MERGE;
    }
    uint32_t m = mshr_find(c, line, now, 0, 0);
    if (m == NO_MSHR) return WS_L1_MISS;
    *done = c->mshr_done[m] > hit ? c->mshr_done[m] : hit;
    return WS_L1_MERGE;
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
    touch(c, i);
    return 1;
}
