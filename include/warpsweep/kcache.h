#ifndef WARPSWEEP_KCACHE_H
#define WARPSWEEP_KCACHE_H
/* The work of a point that depends only on its kernel and pass settings, or
 * only on its workload, seed and warp size, done once per sweep and shared
 * by every thread running its points (src/sim/kcache.c):
 *   - the kernel as a configuration runs it: list-scheduled (inst_order =
 *     ptxas) and/or through the convergence-barrier pass (its CFG and
 *     uniformity analysis included), keyed by (kernel, inst_order's register
 *     budget, pass, barrier_regs, barrier_yield);
 *   - the MIMD reference run (final memory and result), keyed by (workload,
 *     seed, warp size, lock-step), and its thread instruction count alone
 *     (work_ipc), kept for many more keys than the memory images.
 * Each entry is computed by the first thread that asks for it while the
 * others wait, and never changes once published, so a point's result does not
 * depend on the thread count or the order of the points. An entry is evicted
 * (least recently used first) only when no running point holds it.
 *
 * A sweep driver creates one cache, gives it to each thread's ws_sim
 * (ws_sim_new_shared) and frees it after the last ws_sim. The workloads must
 * outlive the cache (entries are keyed by their addresses). */
#include <stdint.h>
#include "sim.h"

typedef struct ws_kcache ws_kcache;

ws_kcache *ws_kcache_new(void);
void ws_kcache_free(ws_kcache *c);   /* after every ws_sim using it */

/* A ws_sim that takes kernels and reference runs from c (shared with other
 * threads); c NULL: from a private cache of its own, as ws_sim_new. */
ws_sim *ws_sim_new_shared(ws_kcache *c);

/* What the cache did so far (tests, diagnostics). */
typedef struct ws_kcache_stats {
    uint64_t kernels_built;       /* run_kernel computations (pass pipelines run) */
    uint64_t references_run;      /* MIMD reference runs, for an image or a count */
    uint64_t lookups;             /* requests, hits included */
    uint32_t kernels, references, works;   /* entries held now */
} ws_kcache_stats;
void ws_kcache_get_stats(ws_kcache *c, ws_kcache_stats *st);

#endif
