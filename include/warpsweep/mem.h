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
 * Shared memory (smem_latency) and .param/.const (alu_latency) are timed by
 * the core itself.  src/mem/fixed.c: every access takes exactly mem_latency.
 */
#include <stdint.h>
#include "error.h"
#include "params.h"
#include "exec.h"

typedef struct ws_mem_req {
    uint64_t cycle;           /* issue cycle */
    uint32_t core;            /* issuing core */
    uint32_t warp;            /* hardware warp slot on that core */
    const ws_inst *inst;
    const ws_effect *eff;     /* mem_kind, mem_space, mem_mask, per-lane addresses */
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
} ws_mem_ops;

struct ws_mem {
    const ws_mem_ops *ops;
    void *state;
    uint64_t latency;         /* mem_latency of the run */
    uint64_t accesses;        /* warp-level accesses seen (statistics) */
};

/* Fixed-latency memory (the seed's model). */
extern const ws_mem_ops ws_mem_fixed;

#endif
