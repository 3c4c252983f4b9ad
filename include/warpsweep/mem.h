#ifndef WARPSWEEP_MEM_H
#define WARPSWEEP_MEM_H
/*
 * The global-memory timing seam between the SIMT core and the memory system.
 *
 * The core calls ops->access once per issued warp instruction that touches
 * global, local or generic-resolved-global memory (after the instruction has
 * executed functionally, so every lane's address is known) and gets back the
 * cycle at which the access completes: for a load, the cycle its value is
 * available to a dependent instruction; for a store or atomic, the cycle it is
 * done. The core never looks inside: a memory system with caches, MSHRs and
 * DRAM bandwidth plugs in behind the same three functions, keeping whatever
 * queues it needs in `state` (per simulation, never global).
 *
 * Shared memory (smem_latency), .param (alu_latency) and .const (alu_latency,
 * or the constant cache: ws_mem_const_done) are timed by the core itself.  src/mem/fixed.c: every access takes exactly mem_latency.
 */
#include <stdint.h>
#include "error.h"
#include "params.h"
#include "exec.h"

/* L1 events of one load access, for a scheduler that watches locality
 * (sched_ccws.c, sched_daws.c): every line the access misses in the L1
 * (MISS: not present and no fill in flight; a merge into a fill in flight is
 * no miss), every line it finds whose owner is the accessing warp slot
 * (OWN_HIT: intra-warp reuse), and every valid line its fills evict, with
 * the core-local warp slot that allocated the victim (the owner is the slot
 * whose miss allocated the line; a later warp in the same slot inherits it).
 * The core owns the buffer (allocated at init, cap >= 2 * WS_COALESCE_MAX: per
 * line at most a miss or an own hit, and one eviction) and resets n before
 * each access; a memory model without an L1 leaves it empty. */
enum { WS_MEV_MISS, WS_MEV_EVICT, WS_MEV_OWN_HIT };
typedef struct ws_mem_event {
    uint64_t line;            /* line address (byte address / l1_line; local lines carry the warp tag) */
    uint32_t warp;            /* MISS, OWN_HIT: the accessing warp; EVICT: the victim's owner */
    uint32_t kind;            /* WS_MEV_* */
} ws_mem_event;

typedef struct ws_mem_events {
    ws_mem_event *ev;
    uint32_t cap, n;
} ws_mem_events;

/* DRAM runs in its own clock domain (params.def mem_timing_ghz): a DRAM-side
 * latency stated in cycles of mem_timing_ghz, in cycles of clock_ghz (rounded;
 * a nonzero one stays at least 1), and a bandwidth in bytes per such cycle. */
static inline double ws_mem_clock_ratio(const ws_config *cfg)
{
    const double t = ws_cfg_f(cfg, WS_P_mem_timing_ghz);
    return t > 0 ? ws_cfg_f(cfg, WS_P_clock_ghz) / t : 1.0;
}

static inline uint64_t ws_mem_cycles(const ws_config *cfg, ws_param_id id)
{
    const uint64_t c = (uint64_t)ws_cfg_i(cfg, id);
    const double k = ws_mem_clock_ratio(cfg);
    if (k == 1.0 || c == 0) return c;
    const uint64_t s = (uint64_t)((double)c * k + 0.5);
    return s ? s : 1;
}

static inline double ws_mem_bytes_per_cycle(const ws_config *cfg, ws_param_id id)
{
    const double k = ws_mem_clock_ratio(cfg);
    return k == 1.0 ? ws_cfg_f(cfg, id) : ws_cfg_f(cfg, id) / k;
}

/* Appends an event if there is room (a full buffer drops it: never with cap as above). */
static inline void ws_mem_event_push(ws_mem_events *e, uint32_t kind, uint64_t line, uint32_t warp)
{
    if (e && e->n < e->cap) e->ev[e->n++] = (ws_mem_event){.line = line, .warp = warp, .kind = kind};
}

typedef struct ws_mem_req {
    uint64_t cycle;           /* issue cycle */
    uint32_t core;            /* issuing core */
    uint32_t warp;            /* hardware warp slot on that core */
    const ws_inst *inst;
    const ws_effect *eff;     /* mem_kind, mem_space, mem_mask, per-lane addresses */
    uint32_t *lines_out;      /* optional: access stores the line requests after coalescing */
    ws_mem_events *events;    /* optional: L1 misses and evictions of a load (see above) */
} ws_mem_req;

typedef struct ws_mem ws_mem;

typedef struct ws_mem_ops {
    const char *name;
    /* Prepares m->state for one run of cfg on `cores` cores. */
    int (*init)(ws_mem *m, const ws_config *cfg, uint32_t cores, ws_error *err);
    /* Completion cycle (>= req->cycle + 1) of the access. */
    uint64_t (*access)(ws_mem *m, const ws_mem_req *req);
    /* Releases what init allocated (m itself belongs to the caller). */
    void (*fini)(ws_mem *m);
    /* Optional (NULL = always ready).  Asked BEFORE the instruction executes,
     * so req->eff is NULL (addresses are not known yet): the earliest cycle
     * >= req->cycle at which the core's memory unit can take this
     * instruction.  A value > req->cycle means "do not issue now, retry at
     * that cycle" (ws_mem_hier: a load while every L1 MSHR is busy); the core
     * counts the wait as its own stall reason (idle_mshr).  access() is then
     * called as before and always succeeds. */
    uint64_t (*accept)(ws_mem *m, const ws_mem_req *req);
    /* Optional: fills the memory-system metrics (see ws_mem_stats). */
    void (*stats)(ws_mem *m, ws_value *metrics);
    /* Optional: see ws_mem_fence. */
    uint64_t (*fence)(ws_mem *m, uint32_t core, uint32_t warp, uint64_t now);
    /* Optional: a kernel boundary at cycle now (every operation of the
     * launch done): invalidate every L1 (flush_l1) and the L2 (flush_l2),
     * writing dirty sectors below at now; everything else carries over. */
    void (*kernel_boundary)(ws_mem *m, uint64_t now, int flush_l1, int flush_l2);
    /* Optional: before the first launch, the global bytes [addr, addr + bytes)
     * are written through the L2 as a host copy writes them (l2_warm=inputs):
     * their lines valid and clean, nothing counted in the statistics. */
    void (*warm)(ws_mem *m, uint64_t addr, uint64_t bytes);
} ws_mem_ops;

struct ws_mem {
    const ws_mem_ops *ops;
    void *state;
    uint64_t latency;         /* mem_latency of the run */
    uint64_t accesses;        /* warp-level accesses seen (statistics) */
};

/* membar/fence (parameter fence = stores): the cycle >= now by which every
 * store, reduction and atomic warp `warp` of `core` has issued is done
 * (acknowledged by the level that orders it); now for a model that does
 * not track stores. */
uint64_t ws_mem_fence(ws_mem *m, uint32_t core, uint32_t warp, uint64_t now);

/* ld.const through the constant cache: t + latency when every active lane
 * reads one address (broadcast), one more cycle per further distinct
 * address (serialised). */
uint64_t ws_mem_const_done(const ws_effect *eff, uint64_t t, uint64_t latency);

/* Fixed-latency memory (the seed's model). */
extern const ws_mem_ops ws_mem_fixed;

/* The memory hierarchy (docs/memory.md): coalescing into sectors of l1_line
 * lines, an optional sectored L1 per core (l1_kb > 0; MSHRs with a merge
 * limit; write-through or write-back), an optional crossbar with per-core
 * ports, an optional sliced, banked L2 (l2_kb > 0) where atomics serialise
 * per address, and DRAM: the seed's FIFO channel (dram_banks = 0) or
 * channels x banks with open rows.  Timing only: data always lives in the
 * functional memory.  With every stage off (the registry defaults, preset
 * seed) every access completes exactly mem_latency after it issues, as
 * ws_mem_fixed. */
extern const ws_mem_ops ws_mem_hier;

/* m->ops->accept(m, req) if the model has one, else req->cycle. */
uint64_t ws_mem_accept(ws_mem *m, const ws_mem_req *req);

/* Fills metrics[] entries l1_hit_rate, l1_mpki, dram_bytes, dram_utilization
 * and gmem_lines (0 for a model without statistics).  Call once at the end of
 * a run, AFTER metrics[WS_M_cycles] and metrics[WS_M_warp_insts] are set
 * (l1_mpki and dram_utilization divide by them).  smem_bank_conflicts and
 * idle_mshr are counted by the core (they are issue-side facts). */
void ws_mem_stats(ws_mem *m, ws_value *metrics);

/* Coalescing: the distinct line addresses (byte address / line_bytes)
 * touched by the lanes of eff->mem_mask whose resolved space is global (or
 * .const) or local, in ascending order.  Lane l touches
 * [mem_addr[l], mem_addr[l] + mem_bytes), so a misaligned or wide (.v2/.v4,
 * 64-bit) access may straddle lines.  Local lanes are interleaved as CUDA
 * does (offset o of lane l at WS_LOCAL_WINDOW + o * WS_MAX_WARP_SIZE +
 * l * mem_bytes), so the same offset in every lane is contiguous.  Shared
 * lanes of a mixed generic access are skipped.  lines_out must hold
 * WS_COALESCE_MAX entries; line_bytes >= 1 (>= mem_bytes guarantees at most
 * two lines per lane, per texel of a texture footprint, eff->mem_extra).
 * Returns the count. */
#define WS_COALESCE_MAX (2 * WS_TEX_FOOTPRINT * WS_MAX_WARP_SIZE)
uint32_t ws_coalesce(const ws_effect *eff, uint32_t line_bytes, uint64_t *lines_out);

/* Shared-memory bank conflicts: banks 4-byte banks; every 4-byte word a lane
 * of eff->mem_mask touches goes to bank (offset / 4) mod banks; lanes on the
 * same word share it (broadcast, free); degree = max over banks of the
 * distinct words it must deliver (>= 1; 0 when no lane accessed).  The access
 * takes degree passes: (degree - 1) replays.  A 64-bit access by 32 lanes at
 * stride 1 touches 64 words: degree 2 (two wavefronts, as on hardware).
 * banks <= WS_SMEM_MAX_BANKS. */
#define WS_SMEM_MAX_BANKS 128
uint32_t ws_smem_conflict_degree(const ws_effect *eff, uint32_t banks, int atomic_lanes);

#endif
