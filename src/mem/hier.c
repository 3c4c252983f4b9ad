/*
 * ws_mem_hier: the memory hierarchy behind the ws_mem seam (docs/memory.md).
 *
 *   access -> coalesce into sectors (sector_bytes, or 32 B), grouped by line
 *     load:   L1 (l1_kb > 0) per line: present sectors hit, sectors in flight
 *             merge, the rest are fetched with one MSHR; no L1: every line's
 *             sectors are fetched.
 *     store:  L1 write-through (a present line is touched) or write-back
 *             (allocated, dirty); through: the sectors go below.
 *     atomic: bypasses the L1; executes below, serialised per address.
 *   below the L1: [crossbar: per-core request and reply ports] ->
 *                 [L2 slice: bank port, sectored cache, MSHRs, atomics] ->
 *                 DRAM (the seed's FIFO channel, or channels x banks x rows).
 *   A load reports its L1 misses and evictions (with the victim's owning
 *   warp) in req->events if the core passed a buffer (mem.h ws_mem_events).
 *   Every stage is optional; with all of them off (the registry defaults)
 *   this is exactly the seed's model.  The access completes when its last
 *   line does.
 *
 * Completion times are computed when the access is made (no per-cycle
 * work): each shared resource keeps the cycle it is free from, so the core's
 * event skipping is unaffected.  Calls come in issue order, cycles
 * non-decreasing per core, cores in a fixed order: deterministic.
 */
#include <stdlib.h>
#include <string.h>
#include "mem_internal.h"

enum { REQ_READ, REQ_WRITE, REQ_ATOM };

/* per-address atomic serialisation: a direct-mapped table of the addresses
 * last operated on (a collision forgets the older one: documented) */
#define ATOM_SLOTS 1024u
typedef struct ws_atom_slot { uint64_t addr, free; } ws_atom_slot;

typedef struct ws_slice {
    ws_cache cache;
    ws_dram *bank;            /* l2_banks data ports (FIFO links, latency 0) */
    ws_atom_slot *atom;
} ws_slice;

typedef struct ws_atom_group { uint64_t addr; uint32_t lanes; } ws_atom_group;

typedef struct ws_hier {
    uint32_t ncores, nwarps;
    uint32_t line;            /* l1_line: lines, the L1/L2 line */
    uint32_t sec;             /* coalescing sector: sector_bytes, or 32 (store bytes) */
    uint32_t track;           /* what the caches fetch: sector_bytes, or the whole line */
    uint32_t spl;             /* sec-sectors per line */
    uint64_t latency;         /* mem_latency */
    int has_l1;
    ws_cache *l1;             /* ncores caches, or NULL */
    int has_icnt;
    uint32_t ctrl;            /* icnt_ctrl_bytes */
    uint64_t icnt_latency;
    ws_dram *req, *rep;       /* per-core crossbar ports */
    int has_l2;
    uint32_t nslices, nbanks;
    uint64_t l2_latency;
    ws_slice *slice;
    int banked;
    ws_dram fifo;             /* the seed's channel */
    ws_dram_banked dram;
    uint64_t atom_interval;
    uint64_t jitter;          /* jitter: a reply's extra delay is uniform in 0..jitter */
    uint64_t *rng;            /* ncores splitmix64 states (jitter > 0), one stream per core */
    ws_atom_slot *atom_mem;   /* without L2: the memory side's table */
    uint64_t *store_done;     /* ncores * nwarps: a warp's last store/atomic completion */
    /* statistics */
    uint64_t gmem_lines, gmem_sectors, l2_bytes;
    uint64_t atom_sectors;           /* of gmem_sectors: atomics' (executed at the L2) */
    uint64_t atom_requests;          /* atomic transactions sent to the L2 (atom_transactions) */
    uint64_t bypass_sectors, store_sectors;   /* of gmem_sectors: loads past the L1 (.cg/.cv), stores */
    uint64_t store_hit_sectors;      /* of store_sectors: onto a line the L1 holds */
    uint64_t l2_rd_hit, l2_rd_miss, l2_wr;    /* the L2's accesses, in 32-byte sectors (partition) */
    uint64_t loads, load_lat_sum, load_lat_max;
    uint64_t atom_stall, icnt_stall;
    /* scratch */
    uint64_t secs[WS_COALESCE_MAX];
    ws_atom_group atoms[WS_MAX_WARP_SIZE];
} ws_hier;

static void hier_fini(ws_mem *m);

/* splitmix64's output function (Steele, Lea and Flood, "Fast splittable
 * pseudorandom number generators", OOPSLA 2014): a bijective 64-bit mix. */
static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Core c's starting state for seed: the streams of two cores or two seeds
 * start at unrelated points of the splitmix64 sequence. */
static uint64_t jitter_stream(uint64_t seed, uint32_t c)
{
    return mix64(seed ^ mix64(0x6a09e667f3bcc909ull + c));
}

/* The extra delay of one reply to core `core`, uniform in 0..h->jitter
 * (docs/noise.md): the next splitmix64 number of the core's stream, scaled
 * by a 64x64 -> 128-bit multiply (Lemire 2019: bias below jitter / 2^64). */
static uint64_t jitter_draw(ws_hier *h, uint32_t core)
{
    uint64_t x = mix64(h->rng[core] += 0x9e3779b97f4a7c15ull);
    return (uint64_t)(((unsigned __int128)x * (h->jitter + 1)) >> 64);
}

static int init_fail(ws_mem *m)
{
    hier_fini(m);
    return -1;
}

/* formats the message while the state is still there, then frees it */
#define FAIL(...) do { ws_fail(err, __VA_ARGS__); return init_fail(m); } while (0)

/* The L1's ways: l1_ways, or (0) as many as a carve-out of l1_kb keeps l1_sets
 * sets at (GPGPU-Sim's adaptive L1 scales the associativity, not the sets);
 * 0 if l1_kb is no whole number of sets. */
static uint32_t l1_ways(const ws_config *cfg, uint32_t line)
{
    uint64_t ways = (uint64_t)ws_cfg_i(cfg, WS_P_l1_ways);
    if (ways) return (uint32_t)ways;
    uint64_t set_bytes = (uint64_t)ws_cfg_i(cfg, WS_P_l1_sets) * line;
    uint64_t bytes = (uint64_t)ws_cfg_i(cfg, WS_P_l1_kb) * 1024;
    return bytes % set_bytes ? 0 : (uint32_t)(bytes / set_bytes);
}

static int init_l2(ws_hier *h, const ws_config *cfg, uint64_t l2_bytes, ws_error *err)
{
    h->has_l2 = 1;
    h->nbanks = (uint32_t)ws_cfg_i(cfg, WS_P_l2_banks);
    h->l2_latency = (uint64_t)ws_cfg_i(cfg, WS_P_l2_latency);
    h->slice = calloc(h->nslices, sizeof *h->slice);
    if (!h->slice) return ws_fail(err, "out of memory for %u L2 slices", h->nslices);
    if (l2_bytes % h->nslices)
        return ws_fail(err, "l2_kb=%llu KiB does not split evenly over %u slices",
                       (unsigned long long)(l2_bytes / 1024), h->nslices);
    ws_cache_geom g = {.name = "L2", .bytes = l2_bytes / h->nslices, .ways = (uint32_t)ws_cfg_i(cfg, WS_P_l2_ways),
                       .line = h->line, .sector = h->track, .latency = h->l2_latency,
                       .mshrs = (uint32_t)ws_cfg_i(cfg, WS_P_l2_mshrs),
                       .merge_max = (uint32_t)ws_cfg_i(cfg, WS_P_l2_mshr_merge),
                       .write_back = ws_cfg_i(cfg, WS_P_l2_write) == 0, .interleave = h->nslices};
    const double bank_bw = ws_cfg_f(cfg, WS_P_l2_bank_bw);
    for (uint32_t s = 0; s < h->nslices; s++) {
        ws_slice *sl = &h->slice[s];
        if (ws_cache_init(&sl->cache, &g, err) < 0) return -1;
        sl->bank = calloc(h->nbanks, sizeof *sl->bank);
        sl->atom = calloc(ATOM_SLOTS, sizeof *sl->atom);
        if (!sl->bank || !sl->atom) return ws_fail(err, "out of memory for the L2 slices");
        for (uint32_t b = 0; b < h->nbanks; b++) ws_dram_init(&sl->bank[b], 0, bank_bw);
    }
    return 0;
}

static int hier_init(ws_mem *m, const ws_config *cfg, uint32_t cores, ws_error *err)
{
    m->state = NULL;
    m->latency = ws_mem_cycles(cfg, WS_P_mem_latency);   /* DRAM-side: in the DRAM clock domain */
    m->accesses = 0;
    ws_hier *h = calloc(1, sizeof *h);
    if (!h) return ws_fail(err, "out of memory for the memory system");
    m->state = h;
    h->ncores = cores ? cores : 1;
    h->nwarps = (uint32_t)ws_cfg_i(cfg, WS_P_warps);
    h->latency = m->latency;
    h->line = (uint32_t)ws_cfg_i(cfg, WS_P_l1_line);
    const uint32_t sector = (uint32_t)ws_cfg_i(cfg, WS_P_sector_bytes);
    if (h->line < WS_SECTOR_BYTES || (h->line & (h->line - 1)))
        FAIL("l1_line=%u must be a power of two >= %u", h->line, WS_SECTOR_BYTES);
    if (sector && (sector < WS_SECTOR_BYTES || (sector & (sector - 1)) || sector > h->line
                   || h->line / sector > 64))
        FAIL("sector_bytes=%u must be 0 or a power of two from %u to l1_line=%u "
                                     "(at most 64 sectors per line)", sector, WS_SECTOR_BYTES, h->line);
    h->sec = sector ? sector : WS_SECTOR_BYTES;
    h->track = sector ? sector : h->line;
    h->spl = h->line / h->sec;
    /* mem_per_core: the shared levels are one core's share, times cores */
    const uint64_t scale = ws_cfg_i(cfg, WS_P_mem_per_core) ? h->ncores : 1;
    const double dram_bw = ws_mem_bytes_per_cycle(cfg, WS_P_dram_bw) * (double)scale;
    const uint32_t banks = (uint32_t)ws_cfg_i(cfg, WS_P_dram_banks);
    h->store_done = calloc((size_t)h->ncores * h->nwarps, sizeof *h->store_done);
    if (!h->store_done) FAIL("out of memory for the memory system");
    h->banked = banks > 0;
    ws_dram_init(&h->fifo, h->latency, dram_bw);
    if (h->banked
        && ws_dram_banked_init(&h->dram, (uint32_t)(ws_cfg_i(cfg, WS_P_dram_channels) * scale), banks,
                               (uint32_t)ws_cfg_i(cfg, WS_P_dram_row_bytes), h->line,
                               ws_mem_cycles(cfg, WS_P_dram_tRCD), ws_mem_cycles(cfg, WS_P_dram_tRP),
                               ws_mem_cycles(cfg, WS_P_dram_tCL), h->latency, dram_bw,
                               ws_cfg_i(cfg, WS_P_dram_sched) == 1 ? (uint32_t)ws_cfg_i(cfg, WS_P_dram_queue) : 0,
                               err) < 0)
        return init_fail(m);
    h->atom_interval = (uint64_t)ws_cfg_i(cfg, WS_P_atomic_interval);
    h->jitter = (uint64_t)ws_cfg_i(cfg, WS_P_jitter);
    if (h->jitter) {
        h->rng = malloc(h->ncores * sizeof *h->rng);
        if (!h->rng) FAIL("out of memory for the memory system");
        for (uint32_t c = 0; c < h->ncores; c++)
            h->rng[c] = jitter_stream((uint64_t)ws_cfg_i(cfg, WS_P_seed), c);
    }
    h->atom_mem = calloc(ATOM_SLOTS, sizeof *h->atom_mem);
    if (!h->atom_mem) FAIL("out of memory for the memory system");
    /* crossbar */
    h->icnt_latency = (uint64_t)ws_cfg_i(cfg, WS_P_icnt_latency);
    const double req_bw = ws_cfg_f(cfg, WS_P_icnt_req_bw), rep_bw = ws_cfg_f(cfg, WS_P_icnt_reply_bw);
    h->has_icnt = h->icnt_latency > 0 || req_bw > 0 || rep_bw > 0;
    h->ctrl = (uint32_t)ws_cfg_i(cfg, WS_P_icnt_ctrl_bytes);
    if (h->has_icnt) {
        h->req = calloc(h->ncores, sizeof *h->req);
        h->rep = calloc(h->ncores, sizeof *h->rep);
        if (!h->req || !h->rep) FAIL("out of memory for the interconnect");
        for (uint32_t c = 0; c < h->ncores; c++) {
            ws_dram_init(&h->req[c], h->icnt_latency, req_bw);
            ws_dram_init(&h->rep[c], h->icnt_latency, rep_bw);
        }
    }
    /* L2 */
    const uint64_t l2_bytes = (uint64_t)ws_cfg_i(cfg, WS_P_l2_kb) * 1024 * scale;
    h->nslices = (uint32_t)(ws_cfg_i(cfg, WS_P_l2_slices) * scale);
    if (l2_bytes && init_l2(h, cfg, l2_bytes, err) < 0) return init_fail(m);
    /* L1 */
    uint32_t kb = (uint32_t)ws_cfg_i(cfg, WS_P_l1_kb);
    if (kb > 0) {
        h->l1 = calloc(h->ncores, sizeof *h->l1);
        if (!h->l1) FAIL("out of memory for the L1 caches");
        h->has_l1 = 1;
        ws_cache_geom g = {.name = "L1", .bytes = (uint64_t)kb * 1024, .ways = l1_ways(cfg, h->line),
                           .line = h->line, .sector = h->track,
                           .latency = (uint64_t)ws_cfg_i(cfg, WS_P_l1_latency),
                           .mshrs = (uint32_t)ws_cfg_i(cfg, WS_P_l1_mshrs),
                           .merge_max = (uint32_t)ws_cfg_i(cfg, WS_P_l1_mshr_merge),
                           .write_back = ws_cfg_i(cfg, WS_P_l1_write) == 1};
        if (g.ways == 0 || g.bytes % ((uint64_t)g.ways * h->line)) {
            if (ws_cfg_i(cfg, WS_P_l1_ways) == 0)
                FAIL("l1_kb=%u is not a multiple of l1_sets x l1_line = %u x %u bytes (l1_ways 0 derives the ways)",
                     kb, (unsigned)ws_cfg_i(cfg, WS_P_l1_sets), h->line);
            FAIL("l1_kb=%u is not a multiple of l1_ways x l1_line = %u x %u bytes", kb, g.ways, h->line);
        }
        for (uint32_t c = 0; c < h->ncores; c++)
            if (ws_cache_init(&h->l1[c], &g, err) < 0) return init_fail(m);
    }
    return 0;
}

static void hier_fini(ws_mem *m)
{
    ws_hier *h = m->state;
    if (h) {
        if (h->l1)
            for (uint32_t c = 0; c < h->ncores; c++) ws_cache_free(&h->l1[c]);
        if (h->slice)
            for (uint32_t s = 0; s < h->nslices; s++) {
                ws_cache_free(&h->slice[s].cache);
                free(h->slice[s].bank);
                free(h->slice[s].atom);
            }
        if (h->banked) ws_dram_banked_free(&h->dram);
        free(h->l1); free(h->slice); free(h->req); free(h->rep);
        free(h->atom_mem); free(h->store_done); free(h->rng);
        free(h);
    }
    m->state = NULL;
}

/* Local memory is private to a warp: its (interleaved) sectors get the
 * warp's identity above bit 30 of the address so that two warps never share
 * a line.  Addresses below the local window (global) are left alone. */
static void tag_local(uint64_t *x, uint32_t n, uint32_t unit, uint32_t core, uint32_t warp)
{
    const uint64_t base = WS_LOCAL_WINDOW / unit;
    const uint64_t id = ((uint64_t)core << 16 | warp) + 1;
    for (uint32_t i = 0; i < n; i++)
        if (x[i] >= base) x[i] += (id << 30) / unit;
}

/* A packet of `bytes` on a link (crossbar port): completion, and the cycles
 * it queued behind earlier packets. */
static uint64_t send(ws_hier *h, ws_dram *link, uint64_t t, uint32_t bytes)
{
    uint64_t busy_before = link->free_units > (unsigned __int128)t * link->bw_q && link->bw_q
                               ? (uint64_t)((link->free_units + link->bw_q - 1) / link->bw_q) - t : 0;
    h->icnt_stall += busy_before;
    return ws_dram_request(link, t, bytes);
}

static uint64_t dram(ws_hier *h, uint64_t t, uint64_t line, uint32_t bytes)
{
    return h->banked ? ws_dram_banked_request(&h->dram, t, line, bytes) : ws_dram_request(&h->fifo, t, bytes);
}

/* Lanes on one address execute one after another, atom_interval apart. */
static uint64_t atom_serialise(ws_hier *h, ws_atom_slot *tab, uint64_t t, const ws_atom_group *g, uint32_t n)
{
    uint64_t done = t;
    if (!h->atom_interval) return done;
    for (uint32_t i = 0; i < n; i++) {
        ws_atom_slot *s = &tab[(g[i].addr >> 2) % ATOM_SLOTS];
        if (s->addr != g[i].addr) { s->addr = g[i].addr; s->free = 0; }
        uint64_t start = t > s->free ? t : s->free;
        uint64_t end = start + g[i].lanes * h->atom_interval;
        s->free = end;
        h->atom_stall += end - t - h->atom_interval;
        if (end > done) done = end;
    }
    return done;
}

static void write_back(ws_hier *h, uint64_t t, const ws_cache_evict *ev, uint32_t track);

/* The memory partition of line (L2 slice, DRAM): when the reply leaves it. */
static uint64_t partition(ws_hier *h, uint32_t core, uint64_t a, uint64_t line, uint64_t tmask, uint32_t bytes,
                          int kind, const ws_atom_group *ag, uint32_t nag)
{
    if (!h->has_l2) {
        uint64_t d = dram(h, a, line, bytes);
        return kind == REQ_ATOM ? atom_serialise(h, h->atom_mem, d, ag, nag) : d;
    }
    ws_slice *s = &h->slice[line % h->nslices];
    ws_cache *c = &s->cache;
    uint64_t t = ws_dram_request(&s->bank[(line / h->nslices) % h->nbanks], a, bytes);
    if (kind == REQ_WRITE) {
        h->l2_wr += bytes / 32;
        ws_cache_evict ev;
        ws_cache_write(c, line, tmask, t, core, &ev);
        write_back(h, t, &ev, c->sector);
        if (c->write_back) return t + h->l2_latency;
        return dram(h, t, line, bytes);
    }
    ws_cache_look lk;
    ws_cache_read(c, line, tmask, t, core, &lk);
    write_back(h, t, &lk.ev, c->sector);
    /* the request's sectors (an atomic: its transactions') that missed, and the rest hit */
    const uint64_t missed = (uint64_t)__builtin_popcountll(lk.miss) * c->sector / 32, all = bytes / 32;
    h->l2_rd_miss += missed < all ? missed : all;
    h->l2_rd_hit += missed < all ? all - missed : 0;
    uint64_t d = lk.done;
    if (lk.miss) {
        uint64_t at;
        uint32_t slot = ws_cache_mshr_pick(c, t, &at);
        if (at > t) c->mshr_waits++;
        uint64_t f = dram(h, at + h->l2_latency, line, (uint32_t)__builtin_popcountll(lk.miss) * c->sector);
        ws_cache_fill(c, &lk, line, slot, f);
        if (f > d) d = f;
    }
    if (kind == REQ_ATOM) {
        ws_cache_evict ev;
        if (c->write_back) {
            ws_cache_write(c, line, tmask, d, core, &ev);   /* allocated by the read: evicts only after a merge */
            write_back(h, d, &ev, c->sector);
        }
        d = atom_serialise(h, s->atom, d, ag, nag);
    }
    return d;
}

/* A dirty line evicted from a write-back cache: its sectors go to DRAM
 * (bandwidth taken at t; nobody waits for it). */
static void write_back(ws_hier *h, uint64_t t, const ws_cache_evict *ev, uint32_t track)
{
    if (ev->valid && ev->dirty) (void)dram(h, t, ev->line, (uint32_t)__builtin_popcountll(ev->dirty) * track);
}

/* Below the L1: crossbar, partition, crossbar back.  Requests carry
 * icnt_ctrl_bytes (+ the data of a write or atomic), replies the data of a
 * read or atomic (a write's ack: icnt_ctrl_bytes).  With jitter, a read's or
 * an atomic's reply leaves the partition 0..jitter cycles late (an L2 hit, a
 * DRAM return, an atomic's result alike: docs/noise.md); a write's ack is
 * not perturbed (no warp waits for it but a fence). */
static uint64_t below(ws_hier *h, uint32_t core, uint64_t t, uint64_t line, uint64_t tmask, uint32_t bytes, int kind,
                      const ws_atom_group *ag, uint32_t nag)
{
    if (kind != REQ_READ) h->l2_bytes += bytes;
    uint64_t a = h->has_icnt ? send(h, &h->req[core], t, h->ctrl + (kind == REQ_READ ? 0 : bytes)) : t;
    uint64_t r = partition(h, core, a, line, tmask, bytes, kind, ag, nag);
    if (h->jitter && kind != REQ_WRITE) r += jitter_draw(h, core);
    return h->has_icnt ? send(h, &h->rep[core], r, kind == REQ_WRITE ? h->ctrl : bytes) : r;
}

/* sec-sector mask of line -> the caches' tracking mask */
static inline uint64_t track_mask(const ws_hier *h, uint64_t secmask)
{
    return h->track == h->line ? 1 : secmask;
}

static uint64_t load_line(ws_hier *h, ws_mem_events *evs, uint32_t core, uint32_t warp, uint64_t t, uint64_t line,
                          uint64_t tmask, int bypass)
{
    if (!h->has_l1 || bypass) {
        uint32_t bytes = (uint32_t)__builtin_popcountll(tmask) * h->track;
        h->l2_bytes += bytes;
        return below(h, core, t, line, tmask, bytes, REQ_READ, NULL, 0);
    }
    ws_cache *l1 = &h->l1[core];
    ws_cache_look lk;
    ws_cache_read(l1, line, tmask, t, warp, &lk);
    /* locality events (mem.h): a miss (sectors to fetch; a merge is none) or a
     * hit on a line the same warp slot allocated, then the miss's victim */
    if (lk.miss) ws_mem_event_push(evs, WS_MEV_MISS, line, warp);
    else if (evs && lk.way != SIZE_MAX && l1->owner[lk.way] == warp) ws_mem_event_push(evs, WS_MEV_OWN_HIT, line, warp);
    if (lk.ev.valid) {
        ws_mem_event_push(evs, WS_MEV_EVICT, lk.ev.line, lk.ev.owner);
        if (lk.ev.dirty)
            (void)below(h, core, t, lk.ev.line, lk.ev.dirty,
                        (uint32_t)__builtin_popcountll(lk.ev.dirty) * h->track, REQ_WRITE, NULL, 0);
    }
    uint64_t done = lk.done;
    if (lk.miss) {
        uint64_t at;
        uint32_t slot = ws_cache_mshr_pick(l1, t, &at);
        if (at > t) l1->mshr_waits++;
        uint32_t bytes = (uint32_t)__builtin_popcountll(lk.miss) * h->track;
        h->l2_bytes += bytes;
        uint64_t f = below(h, core, at, line, lk.miss, bytes, REQ_READ, NULL, 0);
        ws_cache_fill(l1, &lk, line, slot, f);
        if (f > done) done = f;
    }
    return done;
}

static uint64_t store_line(ws_hier *h, ws_mem_events *evs, uint32_t core, uint32_t warp, uint64_t t, uint64_t line,
                           uint64_t secmask)
{
    const uint32_t bytes = (uint32_t)__builtin_popcountll(secmask) * h->sec;
    const uint64_t tmask = track_mask(h, secmask);
    if (h->has_l1) {
        ws_cache *l1 = &h->l1[core];
        ws_cache_evict ev;
        const uint64_t hits = l1->write_hits;
        ws_cache_write(l1, line, tmask, t, warp, &ev);
        if (l1->write_hits != hits) h->store_hit_sectors += (uint64_t)__builtin_popcountll(secmask);
        if (l1->write_back) {
            if (ev.valid) {
                ws_mem_event_push(evs, WS_MEV_EVICT, ev.line, ev.owner);   /* write-allocate evicts */
                if (ev.dirty)
                    (void)below(h, core, t, ev.line, ev.dirty, (uint32_t)__builtin_popcountll(ev.dirty) * h->track,
                                REQ_WRITE, NULL, 0);
            }
            return t + l1->latency;
        }
    }
    return below(h, core, t, line, tmask, bytes, REQ_WRITE, NULL, 0);
}

/* The atomic's lanes on global addresses, grouped by address (ascending). */
static uint32_t atom_groups(ws_hier *h, const ws_effect *eff)
{
    uint32_t n = 0;
    for (uint64_t m = eff->mem_mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctzll(m);
        if (l >= WS_MAX_WARP_SIZE) break;
        uint8_t sp = eff->mem_lane_space[l];
        if (sp != WS_SP_GLOBAL && sp != WS_SP_CONST) continue;
        uint64_t a = eff->mem_addr[l];
        uint32_t i = n;
        while (i > 0 && h->atoms[i - 1].addr > a) i--;
        if (i > 0 && h->atoms[i - 1].addr == a) { h->atoms[i - 1].lanes++; continue; }
        memmove(&h->atoms[i + 1], &h->atoms[i], (n - i) * sizeof *h->atoms);
        h->atoms[i] = (ws_atom_group){a, 1};
        n++;
    }
    return n;
}

/* A line's atomic lanes as the L1 sends them to the L2 (GPGPU-Sim 4.2
 * abstract_hardware_model.cc, memory_coalescing_arch_atomic): lanes on
 * distinct addresses of one line share a transaction, a lane whose address
 * is already in every open transaction opens a new one; so the line needs as
 * many transactions as the most lanes on one of its addresses, and
 * transaction k carries the sectors of the addresses with more than k lanes.
 * Adds the transactions to h->atom_requests and returns their bytes (each
 * sector of each transaction is an L2 access, as GPGPU-Sim's sectored L2
 * counts them: L2_RH of bench/energy/accelwattch/histatom.txt). */
static uint32_t atom_transactions(ws_hier *h, const ws_atom_group *g, uint32_t n)
{
    uint32_t most = 0, bytes = 0;
    for (uint32_t i = 0; i < n; i++) if (g[i].lanes > most) most = g[i].lanes;
    for (uint32_t k = 0; k < most; k++) {
        uint64_t mask = 0;
        for (uint32_t i = 0; i < n; i++)
            if (g[i].lanes > k) mask |= 1ull << ((g[i].addr % h->line) / h->sec);
        bytes += (uint32_t)__builtin_popcountll(mask) * h->sec;
    }
    h->atom_requests += most;
    return bytes;
}

static uint64_t hier_access(ws_mem *m, const ws_mem_req *req)
{
    ws_hier *h = m->state;
    m->accesses++;
    const ws_effect *eff = req->eff;
    const uint32_t core = req->core < h->ncores ? req->core : 0;
    const uint32_t warp = req->warp;
    const uint64_t t = req->cycle;
    uint32_t ns = ws_coalesce(eff, h->sec, h->secs);
    tag_local(h->secs, ns, h->sec, core, warp);
    h->gmem_sectors += ns;
    const int kind = eff->mem_kind == 1 ? REQ_READ : eff->mem_kind == 3 ? REQ_ATOM : REQ_WRITE;
    if (kind == REQ_ATOM) h->atom_sectors += ns;
    if (kind == REQ_WRITE) h->store_sectors += ns;
    /* ld.cg / ld.cv: cached in the L2 only (PTX ISA, "Cache operators"; GPGPU-Sim's bypassL1D) */
    const int bypass = kind == REQ_READ && req->inst && (req->inst->mods & WS_MOD_L1_BYPASS);
    if (bypass) h->bypass_sectors += ns;
    uint32_t nag = kind == REQ_ATOM ? atom_groups(h, eff) : 0, g = 0;
    uint64_t done = t + 1;
    uint32_t lines = 0;
    for (uint32_t i = 0; i < ns;) {                 /* one request per line: its sectors */
        const uint64_t line = h->secs[i] / h->spl;
        uint64_t mask = 0;
        for (; i < ns && h->secs[i] / h->spl == line; i++) mask |= 1ull << (h->secs[i] % h->spl);
        lines++;
        uint64_t c;
        if (kind == REQ_READ) c = load_line(h, req->events, core, warp, t, line, track_mask(h, mask), bypass);
        else if (kind == REQ_WRITE) c = store_line(h, req->events, core, warp, t, line, mask);
        else {
            uint32_t g0 = g;
            while (g < nag && h->atoms[g].addr / h->line <= line) g++;
            /* the line's transactions travel as one request of their bytes (one header) */
            const uint32_t bytes = g > g0 ? atom_transactions(h, &h->atoms[g0], g - g0)
                                          : (uint32_t)__builtin_popcountll(mask) * h->sec;
            c = below(h, core, t, line, track_mask(h, mask), bytes, REQ_ATOM, &h->atoms[g0], g - g0);
        }
        if (c > done) done = c;
    }
    h->gmem_lines += lines;
    if (req->lines_out) *req->lines_out = lines;
    if (lines == 0) return t + h->latency;
    if (kind == REQ_READ) {
        uint64_t lat = done - t;
        h->loads++;
        h->load_lat_sum += lat;
        if (lat > h->load_lat_max) h->load_lat_max = lat;
    } else if (warp < h->nwarps) {
        uint64_t *sd = &h->store_done[(size_t)core * h->nwarps + warp];
        if (done > *sd) *sd = done;
    }
    return done;
}

static uint64_t hier_accept(ws_mem *m, const ws_mem_req *req)
{
    ws_hier *h = m->state;
    if (!h->has_l1 || !req->inst) return req->cycle;
    const ws_inst *in = req->inst;
    if (in->op != WS_OP_LD && in->op != WS_OP_LDU) return req->cycle;
    if (in->space != WS_SP_GLOBAL && in->space != WS_SP_LOCAL && in->space != WS_SP_GENERIC
        && in->space != WS_SP_NONE)
        return req->cycle;
    const uint32_t core = req->core < h->ncores ? req->core : 0;
    return ws_cache_mshr_free_at(&h->l1[core], req->cycle);
}

static double ratio(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }

static void dram_stats(const ws_hier *h, ws_value *mt, double cycles)
{
    if (!h->banked) {
        mt[WS_M_dram_bytes].i = (int64_t)h->fifo.bytes;
        double u = h->fifo.bw > 0 && cycles > 0 ? (double)h->fifo.bytes / (h->fifo.bw * cycles) : 0.0;
        mt[WS_M_dram_utilization].f = mt[WS_M_dram_util_max].f = mt[WS_M_dram_util_mean].f = u;
        return;
    }
    const ws_dram_banked *d = &h->dram;
    uint64_t bytes = 0, req = 0, hits = 0, queue = 0;
    double umax = 0, usum = 0;
    for (uint32_t c = 0; c < d->channels; c++) {
        const ws_dram_chan *ch = &d->chan[c];
        bytes += ch->bytes; req += ch->requests; hits += ch->row_hits; queue += ch->queue_cycles;
        double u = d->channel_bw > 0 && cycles > 0 ? (double)ch->bytes / (d->channel_bw * cycles) : 0.0;
        usum += u;
        if (u > umax) umax = u;
    }
    mt[WS_M_dram_bytes].i = (int64_t)bytes;
    mt[WS_M_dram_util_max].f = umax;
    mt[WS_M_dram_util_mean].f = usum / d->channels;
    mt[WS_M_dram_utilization].f = usum / d->channels;   /* equal channel bandwidths: total / total */
    mt[WS_M_dram_row_hit_rate].f = ratio(hits, req);
    mt[WS_M_dram_queue_delay].f = ratio(queue, req);
}

static void hier_stats(ws_mem *m, ws_value *mt)
{
    ws_hier *h = m->state;
    uint64_t hits = 0, misses = 0, sh = 0, sm = 0, stalls = 0;
    if (h->has_l1)
        for (uint32_t c = 0; c < h->ncores; c++) {
            const ws_cache *l1 = &h->l1[c];
            hits += l1->hits; misses += l1->misses; sh += l1->sector_hits; sm += l1->sector_misses;
            stalls += l1->merge_stalls;
        }
    const double cycles = (double)mt[WS_M_cycles].i, insts = (double)mt[WS_M_warp_insts].i;
    mt[WS_M_l1_hit_rate].f = ratio(hits, hits + misses);
    mt[WS_M_l1_sector_hit_rate].f = ratio(sh, sh + sm);
    mt[WS_M_l1_mpki].f = insts > 0 ? (double)misses * 1000.0 / insts : 0.0;
    mt[WS_M_l1_merge_stalls].i = (int64_t)stalls;
    mt[WS_M_l1_hit_sectors].i = (int64_t)sh;
    mt[WS_M_atom_sectors].i = (int64_t)h->atom_sectors;
    mt[WS_M_gmem_lines].i = (int64_t)h->gmem_lines;
    mt[WS_M_gmem_sectors].i = (int64_t)h->gmem_sectors;
    mt[WS_M_l2_bytes].i = (int64_t)h->l2_bytes;
    mt[WS_M_atom_requests].i = (int64_t)h->atom_requests;
    mt[WS_M_l1_bypass_sectors].i = (int64_t)h->bypass_sectors;
    mt[WS_M_store_sectors].i = (int64_t)h->store_sectors;
    mt[WS_M_store_hit_sectors].i = (int64_t)h->store_hit_sectors;
    mt[WS_M_l2_read_hit_sectors].i = (int64_t)h->l2_rd_hit;
    mt[WS_M_l2_read_miss_sectors].i = (int64_t)h->l2_rd_miss;
    mt[WS_M_l2_write_sectors].i = (int64_t)h->l2_wr;
    if (h->has_l2) {
        uint64_t h2 = 0, m2 = 0, s2h = 0, s2m = 0;
        for (uint32_t s = 0; s < h->nslices; s++) {
            const ws_cache *c = &h->slice[s].cache;
            h2 += c->hits; m2 += c->misses; s2h += c->sector_hits; s2m += c->sector_misses;
        }
        mt[WS_M_l2_hit_rate].f = ratio(h2, h2 + m2);
        mt[WS_M_l2_sector_hit_rate].f = ratio(s2h, s2h + s2m);
        uint64_t dirty = 0;   /* written to DRAM after the run: not in dram_bytes (docs/memory.md) */
        for (uint32_t s = 0; s < h->nslices; s++)
            dirty += ws_cache_dirty_bytes(&h->slice[s].cache);
        mt[WS_M_l2_dirty_end_bytes].i = (int64_t)dirty;
    }
    mt[WS_M_load_latency_avg].f = ratio(h->load_lat_sum, h->loads);
    mt[WS_M_load_latency_max].i = (int64_t)h->load_lat_max;
    mt[WS_M_atomic_stall_cycles].i = (int64_t)h->atom_stall;
    mt[WS_M_icnt_stall_cycles].i = (int64_t)h->icnt_stall;
    dram_stats(h, mt, cycles);
}

static uint64_t hier_fence(ws_mem *m, uint32_t core, uint32_t warp, uint64_t now)
{
    ws_hier *h = m->state;
    if (core >= h->ncores || warp >= h->nwarps) return now;
    uint64_t d = h->store_done[(size_t)core * h->nwarps + warp];
    return d > now ? d : now;
}

/* Kernel boundaries (GPGPU-Sim gpu-sim.cc: -gpgpu_flush_l1_cache /
 * -gpgpu_flush_l2_cache invalidate the caches once a kernel's threads are
 * done): dirty sectors go below at the boundary, so they occupy the links
 * and DRAM the next launch meets. */
typedef struct flush_ctx { ws_hier *h; uint32_t core; uint64_t now; } flush_ctx;

static void l1_write_back(void *ctx, uint64_t line, uint64_t dirty)
{
    flush_ctx *f = ctx;
    (void)below(f->h, f->core, f->now, line, dirty, (uint32_t)__builtin_popcountll(dirty) * f->h->track, REQ_WRITE,
                NULL, 0);
}

static void l2_write_back(void *ctx, uint64_t line, uint64_t dirty)
{
    flush_ctx *f = ctx;
    ws_cache_evict ev = {.valid = 1, .line = line, .dirty = dirty};
    write_back(f->h, f->now, &ev, f->h->track);
}

static void hier_kernel_boundary(ws_mem *m, uint64_t now, int flush_l1, int flush_l2)
{
    ws_hier *h = m->state;
    flush_ctx f = {.h = h, .now = now};
    if (flush_l1 && h->has_l1)
        for (f.core = 0; f.core < h->ncores; f.core++) ws_cache_invalidate(&h->l1[f.core], l1_write_back, &f);
    if (flush_l2 && h->has_l2)
        for (uint32_t s = 0; s < h->nslices; s++) ws_cache_invalidate(&h->slice[s].cache, l2_write_back, &f);
}

/* l2_warm=inputs: each line of [addr, addr + bytes), in address order, into
 * its slice (partition()'s mapping); without an L2 there is nothing to warm. */
static void hier_warm(ws_mem *m, uint64_t addr, uint64_t bytes)
{
    ws_hier *h = m->state;
    if (!h || !h->has_l2 || !bytes) return;
    for (uint64_t line = addr / h->line; line <= (addr + bytes - 1) / h->line; line++)
        ws_cache_install(&h->slice[line % h->nslices].cache, line);
}

const ws_mem_ops ws_mem_hier = {
    .name = "hier",
    .init = hier_init,
    .access = hier_access,
    .fini = hier_fini,
    .accept = hier_accept,
    .stats = hier_stats,
    .fence = hier_fence,
    .kernel_boundary = hier_kernel_boundary,
    .warm = hier_warm,
};

uint64_t ws_mem_accept(ws_mem *m, const ws_mem_req *req)
{
    return m->ops && m->ops->accept ? m->ops->accept(m, req) : req->cycle;
}

uint64_t ws_mem_fence(ws_mem *m, uint32_t core, uint32_t warp, uint64_t now)
{
    return m->ops && m->ops->fence && m->state ? m->ops->fence(m, core, warp, now) : now;
}

void ws_mem_stats(ws_mem *m, ws_value *mt)
{
    static const int f[] = {WS_M_l1_hit_rate, WS_M_l1_sector_hit_rate, WS_M_l1_mpki, WS_M_l2_hit_rate,
                            WS_M_l2_sector_hit_rate, WS_M_dram_utilization, WS_M_dram_util_max,
                            WS_M_dram_util_mean, WS_M_dram_row_hit_rate, WS_M_dram_queue_delay,
                            WS_M_load_latency_avg};
    static const int i[] = {WS_M_gmem_lines, WS_M_gmem_sectors, WS_M_l2_bytes, WS_M_dram_bytes,
                            WS_M_load_latency_max, WS_M_atomic_stall_cycles, WS_M_icnt_stall_cycles,
                            WS_M_l1_merge_stalls, WS_M_l1_hit_sectors, WS_M_atom_sectors, WS_M_l2_dirty_end_bytes,
                            WS_M_atom_requests, WS_M_l1_bypass_sectors, WS_M_store_sectors, WS_M_store_hit_sectors,
                            WS_M_l2_read_hit_sectors, WS_M_l2_read_miss_sectors, WS_M_l2_write_sectors};
    for (size_t k = 0; k < sizeof f / sizeof *f; k++) mt[f[k]].f = 0;
    for (size_t k = 0; k < sizeof i / sizeof *i; k++) mt[i[k]].i = 0;
    if (m->ops && m->ops->stats && m->state) m->ops->stats(m, mt);
}

uint64_t ws_mem_const_done(const ws_effect *eff, uint64_t t, uint64_t latency)
{
    uint64_t seen[WS_MAX_WARP_SIZE];
    uint32_t n = 0;
    for (uint64_t m = eff->mem_mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctzll(m);
        if (l >= WS_MAX_WARP_SIZE) break;
        uint64_t a = eff->mem_addr[l];
        uint32_t k = 0;
        while (k < n && seen[k] != a) k++;
        if (k == n) seen[n++] = a;
    }
    return t + latency + (n > 1 ? n - 1 : 0);
}
