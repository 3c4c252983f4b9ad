#ifndef WS_DIVERGENCE_H
#define WS_DIVERGENCE_H
/*
 * Divergence schemes, pluggable like the schedulers: one file per scheme,
 * each exporting one const ws_div_ops.  A scheme owns the control state of a
 * warp (PCs and masks): the core asks it for the warp's issuable units
 * ("splits": a PC and the lanes that run it), executes one, and hands the
 * instruction's ws_effect back to ops->update, which moves the PCs.
 *
 *   stack    (div_stack.c)   pre-Volta IPDOM reconvergence stack (GPGPU-Sim rules):
 *                            one split, the top of stack.
 *   sbi      (div_sbi.c)     subwarp interleaving (Damani et al., HPCA 2022):
 *                            convergence barriers (ADD/WAIT/YIELD inserted by
 *                            ws_barrier_transform, free), per-thread state,
 *                            splits = ready threads grouped by PC, any of
 *                            which may issue (switch on any stall).
 *   barrier  (div_barrier.c) Turing's convergence barriers: the same pass, its
 *                            instructions issued, one split owns the warp
 *                            until it blocks, yields or exits.
 *   multipath (div_multipath.c) Multi-Path IPDOM: warp split table +
 *                            reconvergence table, any split issues.
 *   dualpath (div_dualpath.c) dual-path stack: two schedulable paths per entry.
 *   aware    (div_aware.c)   multipath + a timeout releasing waiting lanes.
 *   tbc      (div_tbc.c)     thread block compaction: a block-wide stack whose
 *                            top entry runs as compacted dynamic warps (CTA scope:
 *                            cta_state_size, cta_init, parts).
 * The choice index of parameter `divergence` (params.def) selects
 * ws_div_schemes[index].
 */
#include <stdint.h>
#include <stdio.h>
#include "warpsweep/ptx.h"
#include "warpsweep/exec.h"
#include "warpsweep/params.h"

/* A schedulable unit. Layout shared with the stack entry (mask, pc first). */
typedef struct ws_split {
    uint64_t mask;
    uint32_t pc;
    uint32_t aux;          /* stack: RPC; barrier: unused */
} ws_split;

typedef struct ws_div_ctx {
    const ws_kernel *k;
    uint32_t warp_size;
    uint32_t nbar;         /* barrier registers */
    uint32_t max_depth;    /* stack capacity per warp */
    const uint64_t *now;   /* the core's current cycle (read during update) */
    uint64_t timeout;      /* aware: aware_timeout cycles (0 elsewhere) */
    uint32_t cta_warps;    /* warps per CTA (CTA-scope schemes) */
    uint8_t uniform_skip;  /* tbc: a CTA-uniform branch (ws_inst.cta_uniform) needs no block-wide wait */
} ws_div_ctx;

typedef struct ws_div_ops {
    const char *name;
    const char *at_branch;   /* what the scheme does at a divergent branch (inspect) */
    int barrier_pass;        /* runs the kernel transformed by ws_barrier_transform (passes.h) */
    int sink_release;        /* ... then ws_barrier_sink_release: BSYNC after a spin lock's release */
    int issues_div_ops;      /* ADD/WAIT/YIELD are issued (counted in div_insts), not free */
    int needs_timeout;       /* reads ctx.timeout (aware_timeout) */
    int owner_keeps_warp;    /* the first offered split that stalls on timing ends the search */
    int per_lane_blocking;   /* blocking issue holds the split's lanes (1) or the warp (0) */
    int warp_sync_waits;     /* .sync warp ops wait for every member lane (1) */
    size_t (*state_size)(const ws_div_ctx *c);
    void (*init)(const ws_div_ctx *c, void *st, uint64_t valid);
    /* The warp's ready splits in the scheme's preferred order:
     * (*out)[(start + i) % n], i = 0..n-1. n = 0: nothing ready. */
    uint32_t (*splits)(void *st, const ws_split **out, uint32_t *start);
    /* After split `sp` (a copy) executed `in` at sp->pc with effect eff. Returns
     * 0, 1 (CTA scope: the splits of other warps of the CTA changed, the core
     * wakes them), or -1 with a message in err (e.g. stack overflow). */
    int (*update)(const ws_div_ctx *c, void *st, const ws_split *sp, const ws_inst *in,
                  const ws_effect *eff, char *err, size_t errlen);
    /* Trace column "split": stack level of the TOS (0 = bottom) / index of
     * split idx in the ready list. */
    uint32_t (*level)(const void *st, uint32_t idx);
    /* Statistics: the deepest stack and the most splits at once (max_warp_splits:
     * docs/model.md "Divergence schemes", one definition for every scheme). */
    void (*stats)(const void *st, uint32_t *depth, uint32_t *splits);
    /* Architectural control state, for the livelock proof. */
    uint64_t (*hash)(const ws_div_ctx *c, const void *st, uint64_t h);
    /* Lanes that cannot run again before some lane of `held` (waiting at a CTA
     * barrier) moves on: they count as arrived at that barrier (core.c,
     * parked_at). Optional (NULL: none). */
    uint64_t (*parked)(const ws_div_ctx *c, const void *st, uint64_t held);
    /* Lanes that cannot run again before some lane of `waiting` (at the
     * warp-level .sync op at `pc`) moves on: blocked at a convergence barrier
     * WAIT after pc whose other live participants all wait there (lanes nvcc
     * sent to a common tail: `if (c) { out = x; return; } __shfl_sync(~0,
     * ..)`). They count as arrived at the op without executing it, as
     * WARPSYNC treats them (core.c sync_parked_lanes, docs/model.md "Lanes
     * parked behind a .sync operation"). NULL: the op waits for them (the
     * stack's SIMT deadlock). */
    uint64_t (*sync_parked)(const ws_div_ctx *c, const void *st, uint64_t waiting, uint32_t pc);
    /* A scheme whose state changes with time alone (aware's timeout), called
     * when the warp has nothing it could ever issue: applies what is due at
     * `now` and sets *next to the next cycle something falls due (UINT64_MAX:
     * none). Returns 1 if the splits changed, 0, or -1 with a message in err.
     * Optional (NULL: the state changes only when the warp issues). */
    int (*tick)(const ws_div_ctx *c, void *st, uint64_t now, uint64_t *next, char *err, size_t errlen);
    /* Human-readable state (for deadlock messages): "pc 5 (line 23) lanes 0x..; ..." */
    int (*describe)(const ws_div_ctx *c, const void *st, char *buf, size_t len);
    /* Bits of divergence state one warp needs under cfg (the area model,
     * docs/area.md "Divergence state"). */
    uint64_t (*state_bits)(const ws_config *cfg);
    /* CTA scope (tbc; NULL elsewhere). The core allocates cta_state_size bytes
     * per CTA slot and, at a CTA's launch, calls cta_init instead of init with
     * the states and valid lanes of its c->cta_warps warps (in CTA order). A
     * split a warp offers is then a dynamic warp: parts fills lanes[i] with
     * the lanes of it that warp i of the CTA holds (disjoint lane positions);
     * the core executes the instruction on each such warp's own lanes and
     * registers and charges one issue slot and one warp instruction. */
    size_t (*cta_state_size)(const ws_div_ctx *c);
    void (*cta_init)(const ws_div_ctx *c, void *cta, void *const *warp_st, const uint64_t *valid);
    void (*parts)(const void *st, const ws_split *sp, uint64_t *lanes);
} ws_div_ops;

extern const ws_div_ops ws_div_stack, ws_div_sbi, ws_div_barrier, ws_div_multipath, ws_div_dualpath,
                        ws_div_aware, ws_div_tbc;

/* Does the path from pc go straight to an exit (div_stack.c)? Stack-based
 * schemes push such paths last, so they run first and leave. */
int ws_div_starts_exit(const ws_kernel *k, uint32_t pc);

/* The scheme of choice index `index` of parameter divergence (NULL if none). */
const ws_div_ops *ws_div_scheme(int64_t index);

/* Hash step used everywhere (two independent 64-bit lanes folded into one). */
static inline uint64_t ws_hmix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 31;
    return h;
}

#endif
