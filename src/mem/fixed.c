/*
 * Fixed-latency global memory: every access completes exactly mem_latency
 * cycles after it issues, whatever its address, size or the traffic around it
 * (the seed's "ideal fixed-latency memory").  The memory-system issue replaces
 * this by caches and DRAM behind the same ws_mem_ops seam (warpsweep/mem.h).
 */
#include "warpsweep/mem.h"

static int fixed_init(ws_mem *m, const ws_config *cfg, uint32_t cores, ws_error *err)
{
    (void)cores; (void)err;
    m->state = NULL;
    m->latency = ws_mem_cycles(cfg, WS_P_mem_latency);
    m->accesses = 0;
    return 0;
}

static uint64_t fixed_access(ws_mem *m, const ws_mem_req *req)
{
    m->accesses++;
    return req->cycle + m->latency;
}

static void fixed_fini(ws_mem *m) { m->state = NULL; }

const ws_mem_ops ws_mem_fixed = {
    .name = "fixed",
    .init = fixed_init,
    .access = fixed_access,
    .fini = fixed_fini,
};
