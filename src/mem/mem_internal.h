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

/* ---- L1 data cache (cache.c): tags, LRU, MSHRs ---- */
enum { WS_L1_HIT, WS_L1_MERGE, WS_L1_MISS };

typedef struct ws_l1 {
    uint32_t sets, ways;
    uint32_t line;            /* bytes (statistics, documentation) */
    uint64_t latency;         /* hit latency */
    uint64_t *tag;            /* sets * ways line addresses; UINT64_MAX = invalid */
    uint64_t *stamp;          /* LRU: last use (larger = more recent) */
    uint64_t *ready;          /* cycle the line's fill completes */
    uint32_t *owner;          /* core-local warp slot whose miss allocated the line */
    uint64_t clock;           /* LRU stamp counter */
    uint32_t nmshr;
    uint64_t *mshr_line;      /* line held by each MSHR */
    uint64_t *mshr_done;      /* its fill completes (the MSHR is free from then on) */
    /* statistics (load line requests) */
    uint64_t hits, misses, merges, mshr_waits;
} ws_l1;

/* kb*1024 must be a multiple of ways*line (sets >= 1). */
int ws_l1_init(ws_l1 *c, uint32_t kb, uint32_t ways, uint32_t line, uint64_t latency,
               uint32_t mshrs, ws_error *err);
void ws_l1_free(ws_l1 *c);
/* Looks line up at cycle now without changing anything but LRU on a hit or
 * merge: WS_L1_HIT (*done = now + latency), WS_L1_MERGE (a fill of this
 * line is in flight: *done = max(its completion, now + latency)) or
 * WS_L1_MISS. */
int ws_l1_probe(ws_l1 *c, uint64_t line, uint64_t now, uint64_t *done);
/* The MSHR a miss at cycle now gets: the one freeing earliest (lowest index
 * on ties); *at = max(now, the cycle it is free). Returns its index. */
uint32_t ws_l1_mshr_pick(const ws_l1 *c, uint64_t now, uint64_t *at);
/* Earliest cycle >= now at which some MSHR is free. */
uint64_t ws_l1_mshr_free_at(const ws_l1 *c, uint64_t now);
/* Records a miss sent to memory: MSHR `slot` holds line until done, and
 * line is allocated in its set (evicting the LRU way) with ready = done. */
void ws_l1_fill(ws_l1 *c, uint32_t slot, uint64_t line, uint64_t done);
/* ws_l1_fill for a miss of warp `warp` (the new line's owner).  Returns 1
 * and the victim's line and owner if a valid line was evicted, else 0. */
int ws_l1_fill_owned(ws_l1 *c, uint32_t slot, uint64_t line, uint64_t done, uint32_t warp,
                     uint64_t *victim_line, uint32_t *victim_owner);
/* A store at cycle now: if line is present (filled), marks it used (LRU).
 * No allocation.  Returns 1 if present. */
int ws_l1_store(ws_l1 *c, uint64_t line, uint64_t now);

/* ---- the hierarchy (hier.c) ---- */
typedef struct ws_hier {
    uint32_t ncores;
    uint32_t line;            /* coalescing granularity (l1_line) */
    uint64_t latency;         /* mem_latency */
    int has_l1;
    ws_l1 *l1;                /* ncores caches, or NULL */
    ws_dram dram;
    uint64_t gmem_lines;      /* line requests after coalescing */
    uint64_t lines[WS_COALESCE_MAX];   /* scratch */
    uint64_t sectors[WS_COALESCE_MAX]; /* scratch */
} ws_hier;

/* Bytes a store/atomic moves to DRAM per line: 32-byte sectors touched. */
#define WS_SECTOR_BYTES 32u

#endif
