#ifndef WS_MEM_INTERNAL_H
#define WS_MEM_INTERNAL_H
/*
 * Building blocks of the memory hierarchy (docs/memory.md), each unit-tested
 * on its own (tests/unit/test_mem_*.c) and composed by hier.c into
 * ws_mem_hier.  Timing only: none of them holds data.
 */
#include <stdint.h>
#include "warpsweep/mem.h"

/* ---- DRAM (dram.c): one channel shared by every core ----
 * A request of B bytes issued at cycle t:
 *   start = max(t, channel free)      (FIFO in call order)
 *   channel free = start + B / bw     (fractions kept exactly, see dram.c)
 *   completion = ceil(channel free) + latency
 * bw == 0: unlimited, completion = t + latency.  bw is used at a resolution
 * of 1/WS_DRAM_BW_SCALE byte/cycle. */
#define WS_DRAM_BW_SCALE 1000u

typedef struct ws_dram {
    uint64_t latency;         /* mem_latency */
    double bw;                /* bytes per cycle, 0 = unlimited */
    uint64_t bw_q;            /* round(bw * WS_DRAM_BW_SCALE); 0 = unlimited */
    unsigned __int128 free_units; /* channel free from this time on, in 1/bw_q cycles */
    uint64_t bytes;           /* bytes transferred (statistics) */
    uint64_t requests;
} ws_dram;

void ws_dram_init(ws_dram *d, uint64_t latency, double bw);
/* Completion cycle of a B-byte transfer requested at cycle t. */
uint64_t ws_dram_request(ws_dram *d, uint64_t t, uint32_t bytes);

/* ---- sectored cache (cache.c): the L1 and each L2 slice ---- */
enum { WS_L1_HIT, WS_L1_MERGE, WS_L1_MISS };

typedef struct ws_cache_geom {
    const char *name;         /* "L1", "L2" (error messages) */
    uint64_t bytes;           /* capacity; a multiple of ways * line */
    uint32_t ways, line;
    uint32_t sector;          /* bytes; divides line, <= 64 per line; 0 = the line */
    uint64_t latency;         /* hit latency */
    uint32_t mshrs;
    uint32_t merge_max;       /* requests an MSHR merges; 0 = unlimited */
    int write_back;           /* 1: write-back + write-allocate; 0: write-through, no allocate */
    uint32_t interleave;      /* the cache is one of this many slices that take every
                                 interleave-th line (line l in slice l mod interleave): its
                                 set is (l / interleave) mod sets; 0 or 1 = not sliced */
} ws_cache_geom;

typedef struct ws_cache_evict {
    int valid;                /* a line was evicted */
    uint64_t line;
    uint64_t dirty;           /* its dirty sectors (to write back) */
    uint32_t owner;           /* who allocated it (L1: the core-local warp) */
} ws_cache_evict;

typedef struct ws_cache_look {
    uint64_t done;            /* completion of the present and in-flight sectors (0: none) */
    uint64_t miss;            /* sectors to fetch from below */
    size_t way;               /* the line's way (SIZE_MAX: merged into an evicted line's MSHR) */
    ws_cache_evict ev;        /* the line the allocation evicted */
} ws_cache_look;

typedef struct ws_cache {
    uint32_t sets, ways, line, sector, spl;   /* spl: sectors per line */
    uint32_t interleave;      /* ws_cache_geom.interleave, at least 1 */
    uint64_t full;            /* mask of all spl sectors */
    uint64_t latency;
    int write_back;
    uint64_t *tag;            /* sets * ways line addresses; UINT64_MAX = invalid */
    uint64_t *valid, *dirty;  /* sector masks per way */
    uint32_t *owner;          /* who allocated the way's line */
    uint32_t *fill_mshr;      /* MSHR of the way's latest fill */
    uint64_t *ready;          /* sets * ways * spl: cycle each sector's fill completes */
    /* LRU order per set: a list from the least to the most recently used
     * way (lru_prev/lru_next per way, lru_old/lru_new per set), and the
     * set's valid ways (set_used); a full set's victim is its list head */
    uint32_t *lru_prev, *lru_next, *lru_old, *lru_new, *set_used;
    /* where each valid line is: an open-addressing table of way + 1 (0:
     * empty), linear probing, way_mask + 1 slots (at least twice the ways) */
    uint32_t *way_of, way_mask;
    uint32_t nmshr, merge_max;
    uint32_t mshr_best;       /* the MSHR freeing earliest (lowest index on ties) */
    uint64_t mshr_latest;     /* the latest fill completion of any MSHR */
    uint64_t *mshr_line;      /* line of each MSHR's fill */
    uint64_t *mshr_done;      /* its fill completes (the MSHR is free from then on) */
    uint64_t *mshr_mask;      /* the sectors it brings */
    uint32_t *mshr_merged;    /* requests merged into it */
    /* the MSHRs by free time: a tournament tree over mshr_leaves leaves
     * (node k holds the earlier of its children, the lower index on ties;
     * node 1 is mshr_best), and by line: chains per hash bucket */
    uint32_t *mshr_tree, mshr_leaves;
    uint32_t *mshr_head, *mshr_next, mshr_hmask;
    /* statistics: read requests (one per line), their sectors, writes */
    uint64_t hits, misses, merges, mshr_waits, merge_stalls;
    uint64_t sector_hits, sector_misses;
    uint64_t write_hits, write_misses, evictions, writebacks;
} ws_cache;

int ws_cache_init(ws_cache *c, const ws_cache_geom *g, ws_error *err);
void ws_cache_free(ws_cache *c);
/* Invalidates every line (a kernel boundary: no fill is in flight then);
 * a line with dirty sectors is handed to wb (if not NULL) first. */
void ws_cache_invalidate(ws_cache *c, void (*wb)(void *ctx, uint64_t line, uint64_t dirty), void *ctx);
/* Bytes in dirty sectors (each c->sector bytes) of the valid lines. */
uint64_t ws_cache_dirty_bytes(const ws_cache *c);
/* A read of the sectors `mask` of line at cycle now.  Present, filled
 * sectors hit (done = now + latency); sectors in flight merge (done = their
 * fill, or fill + latency past the MSHR's merge limit); absent ones are
 * returned in lk->miss, the line allocated if it was not there (evicting:
 * lk->ev; `owner` recorded).  The caller then fetches lk->miss, from the
 * MSHR ws_cache_mshr_pick gives, and calls ws_cache_fill.  Returns
 * WS_L1_HIT, WS_L1_MERGE (nothing to fetch, something in flight) or
 * WS_L1_MISS. */
int ws_cache_read(ws_cache *c, uint64_t line, uint64_t mask, uint64_t now, uint32_t owner, ws_cache_look *lk);
/* The MSHR freeing earliest (lowest index on ties); *at = max(now, then). */
uint32_t ws_cache_mshr_pick(const ws_cache *c, uint64_t now, uint64_t *at);
uint64_t ws_cache_mshr_free_at(const ws_cache *c, uint64_t now);
/* Records the fetch of lk->miss into MSHR slot, completing at done. */
void ws_cache_fill(ws_cache *c, const ws_cache_look *lk, uint64_t line, uint32_t slot, uint64_t done);
/* A write of sectors `mask` at now.  Write-through: touches a present line
 * (LRU), allocates nothing.  Write-back: allocates (evicting into *ev) and
 * marks the sectors valid and dirty.  Returns 1 if the line is in the cache
 * afterwards. */
int ws_cache_write(ws_cache *c, uint64_t line, uint64_t mask, uint64_t now, uint32_t owner, ws_cache_evict *ev);
/* Makes line present with every sector valid and clean (ready at 0), as a copy
 * through the cache leaves it: the LRU way of its set is replaced. Counts
 * nothing (l2_warm). */
void ws_cache_install(ws_cache *c, uint64_t line);

/* The original one-sector-per-line L1 interface (tests/unit/test_mem_cache.c). */
typedef ws_cache ws_l1;
/* kb*1024 must be a multiple of ways*line (sets >= 1). */
int ws_l1_init(ws_l1 *c, uint32_t kb, uint32_t ways, uint32_t line, uint64_t latency,
               uint32_t mshrs, ws_error *err);
void ws_l1_free(ws_l1 *c);
/* Looks line up without allocating: WS_L1_HIT (*done = now + latency),
 * WS_L1_MERGE (fill in flight: *done = max(its completion, now + latency))
 * or WS_L1_MISS. */
int ws_l1_probe(ws_l1 *c, uint64_t line, uint64_t now, uint64_t *done);
uint32_t ws_l1_mshr_pick(const ws_l1 *c, uint64_t now, uint64_t *at);
uint64_t ws_l1_mshr_free_at(const ws_l1 *c, uint64_t now);
/* MSHR slot holds line until done; line allocated (LRU victim) with ready = done. */
void ws_l1_fill(ws_l1 *c, uint32_t slot, uint64_t line, uint64_t done);
/* ws_l1_fill for a miss of warp `warp` (the new line's owner).  Returns 1
 * and the victim's line and owner if a valid line was evicted, else 0. */
int ws_l1_fill_owned(ws_l1 *c, uint32_t slot, uint64_t line, uint64_t done, uint32_t warp,
                     uint64_t *victim_line, uint32_t *victim_owner);
/* A store: if line is present and filled, marks it used (LRU); returns 1 then. */
int ws_l1_store(ws_l1 *c, uint64_t line, uint64_t now);

/* ---- banked DRAM (dram.c): channels x banks with open-row buffers ----
 * Line l of a chip-wide line address goes to channel l mod C; within the
 * channel, x = l / C: column block x mod R (R = lines per row), bank
 * (x / R) mod B, row x / (R * B).  A request of `bytes` arriving at t:
 *   start = max(t, bank free)
 *   column = start                         row hit
 *          = start + tRP + tRCD            another row open (precharge, activate)
 *          = start + tRCD                  bank idle (no row open)
 *   data   = column + tCL
 *   bus    = the channel's data bus (a FIFO ws_dram at channel_bw, latency 0) from data
 *   bank free = column + bytes / channel_bw (next column command)
 *   done   = bus end + mem_latency
 * Requests are served in arrival order per bank (see docs/memory.md). */
/* One request the channel's FR-FCFS window remembers: its bank, row and the
 * cycle its burst ends (the row stays open for it until then). */
typedef struct ws_dram_pending {
    uint32_t bank;
    uint64_t row, end;
} ws_dram_pending;

typedef struct ws_dram_chan {
    ws_dram bus;
    uint64_t *open_row;       /* per bank; UINT64_MAX = closed */
    uint64_t *bank_free;
    ws_dram_pending *window;  /* the last `queue` requests (ring), FR-FCFS only */
    uint32_t window_next;
    uint64_t bytes, requests, row_hits, queue_cycles;
} ws_dram_chan;

typedef struct ws_dram_banked {
    uint32_t channels, banks, lines_per_row, line;
    uint32_t queue;           /* FR-FCFS scheduler queue per channel; 0 = FCFS */
    uint64_t tRCD, tRP, tCL, latency;
    double channel_bw;        /* bytes per cycle per channel; 0 = unlimited */
    ws_dram_chan *chan;
} ws_dram_banked;

int ws_dram_banked_init(ws_dram_banked *d, uint32_t channels, uint32_t banks, uint32_t row_bytes,
                        uint32_t line, uint64_t tRCD, uint64_t tRP, uint64_t tCL, uint64_t latency,
                        double total_bw, uint32_t frfcfs_queue, ws_error *err);
void ws_dram_banked_free(ws_dram_banked *d);
/* Completion of a `bytes` transfer of line (chip-wide line address) arriving at t. */
uint64_t ws_dram_banked_request(ws_dram_banked *d, uint64_t t, uint64_t line, uint32_t bytes);

/* Bytes a store/atomic moves per sector when sector_bytes is 0 (the seed). */
#define WS_SECTOR_BYTES 32u

#endif
