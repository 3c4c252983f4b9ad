#ifndef WS_SIM_KCACHE_H
#define WS_SIM_KCACHE_H
/* The lookups of the shared cache (include/warpsweep/kcache.h) the core
 * makes (core.c run_kernel, reference_for, reference_work). */
#include "warpsweep/kcache.h"
#include "warpsweep/error.h"

typedef struct ws_kc_entry ws_kc_entry;

/* The entries one ws_sim holds while it runs a point: none of them is
 * evicted before ws_kcache_release. The array is kept between points. */
typedef struct ws_kc_pins {
    ws_kc_entry **e;
    uint32_t n, cap;
} ws_kc_pins;

/* Capacities of ws_kcache_new: entries kept when no point holds them. */
#define WS_KC_KERNELS 64                 /* transformed kernels */
#define WS_KC_REFERENCES 16              /* reference runs with their final memory ... */
#define WS_KC_REFERENCE_BYTES (512ull << 20)   /* ... and at most this much of it */
#define WS_KC_WORKS 4096                 /* thread instruction counts of reference runs */

/* A cache with other capacities (tests). */
ws_kcache *ws_kcache_new_sized(uint32_t kernels, uint32_t references, uint64_t reference_bytes, uint32_t works);

/* k list-scheduled with register budget `budget` (scheduled), then through
 * the convergence-barrier pass with nregs registers and yield policy `yield`
 * (barrier; 2: then ws_barrier_sink_release): NULL with err set when a pass
 * fails (the failure is cached too). Held in pins until ws_kcache_release. */
const ws_kernel *ws_kcache_kernel(ws_kcache *c, ws_kc_pins *pins, const ws_kernel *k, int scheduled,
                                  unsigned budget, int barrier, unsigned nregs, int yield, ws_error *err);

/* The reference run of wl (ws_reference_run, or ws_reference_run_lockstep
 * when lockstep) with these arguments: its result and, in *img, its final
 * memory. Held in pins until ws_kcache_release. */
const ws_result *ws_kcache_reference(ws_kcache *c, ws_kc_pins *pins, const ws_workload *wl, uint64_t seed,
                                     uint32_t warp_size, uint64_t max_steps, int lockstep,
                                     const ws_memimage **img);

/* The status and thread instruction count of ws_reference_run(wl, seed,
 * warp_size, max_steps). */
void ws_kcache_work(ws_kcache *c, const ws_workload *wl, uint64_t seed, uint32_t warp_size, uint64_t max_steps,
                    int *status, uint64_t *thread_insts);

/* Lets go of every entry in pins (the end of a point). */
void ws_kcache_release(ws_kcache *c, ws_kc_pins *pins);

#endif
