/* The area model (docs/area.md): a pure function of the configuration.
 *
 *   core = area.core_fixed_mm2
 *        + area.scheduler_mm2 × schedulers
 *        + area.rf_overhead × sram(regfile_kb, rf_banks × schedulers)
 *        + area.l1_overhead × (sram(l1_kb, 1) + sram(smem_kb, 1))   [arrays of 0 KiB cost 0]
 *        + warps × area.warp_state_mm2
 *        + warps × divergence_bits × area.state_bit_um2 × 1e-6
 *        + collectors × schedulers × 3 × warp_size × 32 × area.state_bit_um2 × 1e-6
 *        + (issue_width - 1) × schedulers × area.dispatch_mm2
 *   chip = cores × core + area.uncore_mm2 + cores × area.uncore_per_core_mm2
 *   sram(kb, banks) = banks × area.sram_bank_mm2 + kb × area.sram_kb_mm2
 * every term multiplied by (area.node_nm / 16)². */
#include <math.h>
#include "warpsweep/area.h"
#include "sim/div/divergence.h"

/* Value of an optional numeric parameter (one the memory system may or may
 * not have registered yet), 0 when it does not exist. */
static double optional_param(const ws_config *cfg, const char *name)
{
    int id = ws_param_find(name);
    if (id < 0)
        return 0;
    switch (ws_params[id].type) {
    case WS_PT_INT:   return (double)cfg->v[id].i;
    case WS_PT_FLOAT: return cfg->v[id].f;
    default:          return 0;
    }
}

/* A float parameter that counts something (entries, bits), rounded to the
 * nearest integer and at least 1. */
static uint64_t count_param(const ws_config *cfg, ws_param_id id)
{
    long long n = llround(ws_cfg_f(cfg, id));
    return n < 1 ? 1 : (uint64_t)n;
}

double ws_area_node_scale(const ws_config *cfg)
{
    double r = ws_cfg_f(cfg, WS_P_area_node_nm) / WS_AREA_REF_NODE_NM;
    return r * r;
}

double ws_area_sram_mm2(const ws_config *cfg, double kb, double banks)
{
    if (kb <= 0)
        return 0;
    return banks * ws_cfg_f(cfg, WS_P_area_sram_bank_mm2) + kb * ws_cfg_f(cfg, WS_P_area_sram_kb_mm2);
}

uint64_t ws_area_divergence_bits(const ws_config *cfg)
{
    const ws_div_ops *d = ws_div_scheme(ws_cfg_i(cfg, WS_P_divergence));
    return d ? d->state_bits(cfg) : 0;
}

uint64_t ws_area_count(const ws_config *cfg, ws_param_id id) { return count_param(cfg, id); }

void ws_area_compute(const ws_config *cfg, ws_area *out)
{
    double s = ws_area_node_scale(cfg);
    double warps = (double)ws_cfg_i(cfg, WS_P_warps);
    double cores = (double)ws_cfg_i(cfg, WS_P_cores);

    out->fixed_mm2 = s * ws_cfg_f(cfg, WS_P_area_core_fixed_mm2);
    out->sched_mm2 = s * ws_cfg_f(cfg, WS_P_area_scheduler_mm2) * (double)ws_cfg_i(cfg, WS_P_schedulers);
    out->rf_mm2 = s * ws_cfg_f(cfg, WS_P_area_rf_overhead)
                * ws_area_sram_mm2(cfg, (double)ws_cfg_i(cfg, WS_P_regfile_kb),
                                   (double)ws_cfg_i(cfg, WS_P_rf_banks) * (double)ws_cfg_i(cfg, WS_P_schedulers));
    out->l1_smem_mm2 = s * ws_cfg_f(cfg, WS_P_area_l1_overhead)
                     * (ws_area_sram_mm2(cfg, optional_param(cfg, "l1_kb"), 1)
                        + ws_area_sram_mm2(cfg, optional_param(cfg, "smem_kb"), 1));
    out->warp_state_mm2 = s * warps * ws_cfg_f(cfg, WS_P_area_warp_state_mm2);
    out->divergence_mm2 = s * warps * (double)ws_area_divergence_bits(cfg)
                        * ws_cfg_f(cfg, WS_P_area_state_bit_um2) * 1e-6;
    double scheds = (double)ws_cfg_i(cfg, WS_P_schedulers);
    /* a collector unit holds three source operands of a warp (fma's a, b, c) */
    double collector_bits = 3.0 * (double)ws_cfg_i(cfg, WS_P_warp_size) * 32.0;
    out->collector_mm2 = s * (double)ws_cfg_i(cfg, WS_P_collectors) * scheds * collector_bits
                       * ws_cfg_f(cfg, WS_P_area_state_bit_um2) * 1e-6;
    out->dispatch_mm2 = s * (double)(ws_cfg_i(cfg, WS_P_issue_width) - 1) * scheds
                      * ws_cfg_f(cfg, WS_P_area_dispatch_mm2);
    out->core_mm2 = out->fixed_mm2 + out->sched_mm2 + out->rf_mm2 + out->l1_smem_mm2
                  + out->warp_state_mm2 + out->divergence_mm2 + out->collector_mm2 + out->dispatch_mm2;
    out->uncore_mm2 = s * (ws_cfg_f(cfg, WS_P_area_uncore_mm2)
                           + cores * ws_cfg_f(cfg, WS_P_area_uncore_per_core_mm2));
    out->chip_mm2 = cores * out->core_mm2 + out->uncore_mm2;
}

void ws_area_metrics(const ws_config *cfg, const ws_area *a, ws_value *m)
{
    const double cores = (double)ws_cfg_i(cfg, WS_P_cores);
    m[WS_M_area_rf_mm2].f = cores * a->rf_mm2;
    m[WS_M_area_sram_mm2].f = cores * a->l1_smem_mm2;
    m[WS_M_area_warp_state_mm2].f = cores * a->warp_state_mm2;
    m[WS_M_area_divergence_mm2].f = cores * a->divergence_mm2;
    m[WS_M_area_collector_mm2].f = cores * a->collector_mm2;
    m[WS_M_area_dispatch_mm2].f = cores * a->dispatch_mm2;
    m[WS_M_area_sched_mm2].f = cores * a->sched_mm2;
    m[WS_M_area_core_fixed_mm2].f = cores * a->fixed_mm2;
    m[WS_M_area_uncore_mm2].f = a->uncore_mm2;
}

double ws_throughput_per_area(double ipc, double clock_ghz, double area_mm2)
{
    return area_mm2 > 0 ? ipc * clock_ghz / area_mm2 : 0;
}
