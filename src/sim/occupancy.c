/* Occupancy: how many CTAs of a workload one core holds at once, and what
 * limits it (docs/model.md "Occupancy"). The cycle-level core sizes its
 * state from it; `warpsweep expand` uses it to flag points that will be
 * invalid before anything runs. */
#include <stdio.h>
#include "warpsweep/sim.h"

static const char *const limit_names[WS_OCC_COUNT] = {"warps", "registers", "smem", "max_ctas", "grid"};

const char *ws_occupancy_limit_name(int64_t limit)
{
    return limit >= 0 && limit < WS_OCC_COUNT ? limit_names[limit] : "?";
}

/* CTAs per core = min over warp slots, registers (per-warp allocation
 * rounded up to reg_alloc_unit registers), shared memory and max_ctas;
 * limit names the binding one (ties: the first in that order), or grid
 * when the grid gives each core fewer CTAs than that. One CTA that does
 * not fit makes the point invalid: fits = 0, limit says which resource,
 * why says by how much. */
void ws_occupancy_compute(const ws_workload *wl, const ws_kernel *k, const ws_config *cfg, ws_occupancy *o)
{
    ws_launch_spec l;
    ws_launch_of_top(wl, &l);
    ws_occupancy_launch(&l, k, cfg, o);
}

void ws_occupancy_launch(const ws_launch_spec *wl, const ws_kernel *k, const ws_config *cfg, ws_occupancy *o)
{
    uint32_t ws = (uint32_t)ws_cfg_i(cfg, WS_P_warp_size), nwarps = (uint32_t)ws_cfg_i(cfg, WS_P_warps);
    uint32_t ncores = (uint32_t)ws_cfg_i(cfg, WS_P_cores);
    uint32_t tpc = ws_launch_threads_per_cta(wl);
    o->warps_per_cta = (tpc + ws - 1) / ws;
    o->ctas_per_core = 0;
    o->fits = 0;
    o->why[0] = 0;
    uint32_t regs = wl->regs_per_thread ? wl->regs_per_thread : k->est_regs_per_thread;
    regs += k->bmov_regs;   /* spilled convergence barriers (barrier_pass.c) */
    uint64_t unit = (uint64_t)ws_cfg_i(cfg, WS_P_reg_alloc_unit);
    uint64_t warp_regs = ((uint64_t)regs * ws + unit - 1) / unit * unit;
    uint64_t cta_bytes = warp_regs * 4 * o->warps_per_cta;
    uint64_t rf = (uint64_t)ws_cfg_i(cfg, WS_P_regfile_kb) * 1024;
    uint64_t smem_cta = (uint64_t)k->shared_bytes + wl->dyn_shared_bytes;
    uint64_t smem = (uint64_t)ws_cfg_i(cfg, WS_P_smem_kb) * 1024;
    if (o->warps_per_cta > nwarps) {
        o->limit = WS_OCC_WARPS;
        snprintf(o->why, sizeof o->why, "warp slots: a CTA of %u threads needs %u warps of %u but the core has warps=%u",
                 tpc, o->warps_per_cta, ws, nwarps);
        return;
    }
    if (cta_bytes > rf) {
        o->limit = WS_OCC_REGISTERS;
        snprintf(o->why, sizeof o->why,
                 "register file: a CTA needs %llu bytes (%u warps x %llu regs (%u regs/thread x %u threads, rounded up "
                 "to reg_alloc_unit=%llu) x 4 B) but regfile_kb=%lld",
                 (unsigned long long)cta_bytes, o->warps_per_cta, (unsigned long long)warp_regs, regs, ws,
                 (unsigned long long)unit, (long long)ws_cfg_i(cfg, WS_P_regfile_kb));
        return;
    }
    if (smem_cta > smem) {
        o->limit = WS_OCC_SMEM;
        snprintf(o->why, sizeof o->why, "shared memory: a CTA needs %llu bytes but smem_kb=%lld",
                 (unsigned long long)smem_cta, (long long)ws_cfg_i(cfg, WS_P_smem_kb));
        return;
    }
    o->fits = 1;
    uint64_t by_warps = nwarps / o->warps_per_cta;
    uint64_t by_regs = cta_bytes ? rf / cta_bytes : by_warps;
    uint64_t by_smem = smem_cta ? smem / smem_cta : by_warps;
    uint64_t by_max = (uint64_t)ws_cfg_i(cfg, WS_P_max_ctas);
    uint64_t cpc = by_warps;
    o->limit = WS_OCC_WARPS;
    if (by_regs < cpc) { cpc = by_regs; o->limit = WS_OCC_REGISTERS; }
    if (by_smem < cpc) { cpc = by_smem; o->limit = WS_OCC_SMEM; }
    if (by_max < cpc) { cpc = by_max; o->limit = WS_OCC_MAX_CTAS; }
    uint64_t per_core_share = (ws_launch_ctas(wl) + ncores - 1) / ncores;
    if (per_core_share < cpc) {
        o->limit = WS_OCC_GRID;
        cpc = per_core_share;
    }
    o->ctas_per_core = (uint32_t)cpc;
}
