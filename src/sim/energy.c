/* The energy model (docs/energy.md).
 *
 *   dynamic = s² × ( warp_insts × energy.inst_pj
 *                  + rf_reads × energy.rf_read_pj + rf_writes × energy.rf_write_pj
 *                  + rf_nonreg × energy.opnd_pj
 *                  + Σ_unit lanes(unit) × energy.<unit>_lane_pj   (integer and f32 multiplies,
 *                    SFU square roots: their own int_mul_, fp32_mul_, sfu_sqrt_lane_pj)
 *                  + l1_hit_sectors × energy.l1_hit_pj + store_hit_sectors × energy.l1_store_hit_pj
 *                  + (store_sectors - store_hit_sectors) × energy.l1_store_miss_pj
 *                  + (gmem_sectors - atom_sectors - l1_bypass_sectors - store_sectors
 *                     - l1_hit_sectors) × energy.l1_miss_pj
 *                  + smem_wavefronts × energy.smem_pj
 *                  + l2_read_hit_sectors × energy.l2_read_hit_pj + l2_read_miss_sectors × energy.l2_read_miss_pj
 *                  + l2_write_sectors × energy.l2_write_pj
 *                  + l2_bytes/32 × energy.noc_sector_pj
 *                  + (dram_bytes + l2_dirty_end_bytes)/32 × energy.dram_32b_pj )   s = voltage / energy.v_nom
 *             (l2_dirty_end_bytes: the L2's dirty lines at the end, written to DRAM after the run)
 *   An instruction ptxas expands (lowering.def's rows of two or more slots)
 *   counts its SASS: slots warp instructions, each energy class's lanes, and
 *   the sequence's register traffic (fold_expansion), under either lowering.
 *   static  = energy.leak_w_mm2 × area_mm2 × s × seconds × active
 *   idle    = energy.idle_core_w × s × cores × seconds × (1 - active)
 *   const   = energy.const_w_core × cores × seconds
 *   active  = the mean fraction of the cores with a resident CTA (core_busy /
 *             (cores × cycles); a sampled run: over its simulated cycles), as
 *             AccelWattch scales its static power by the active SMs and charges
 *             each idle SM idle_core_power (gpgpu_sim_wrapper.cc
 *             calculate_static_power, power_interface.cc num_idle_core)
 *   seconds = cycles / (clock_ghz × 10⁹)
 *
 * The per-event energies are AccelWattch's (Kandiah et al., MICRO 2021) Volta
 * PTX model measured per event of this model's own counts on microbenchmarks
 * (docs/energy.md "Calibration"). A sampled run's counts describe its detailed
 * CTAs; they are scaled by thread_insts / detailed thread_insts. */
#include "sim/core_internal.h"

static int is_int_mul(int op)
{
    return op == WS_OP_MUL || op == WS_OP_MAD || op == WS_OP_MUL24 || op == WS_OP_MAD24 || op == WS_OP_MADC;
}

/* Source operands the operand collector takes from elsewhere than the
 * register file (GPGPU-Sim's non_rf_operands: operands minus registers). */
static uint32_t nonreg_sources(const ws_inst *in)
{
    if (in->op == WS_OP_BAR || in->op == WS_OP_BARRIER) return 0;   /* the barrier id is not an operand read */
    /* a load's memory operand (GPGPU-Sim counts it among the operands, a
     * store's address and data are registers) */
    uint32_t n = in->unit == WS_UNIT_MEM && in->ndst > 0;
    for (uint32_t q = 0; q < in->nsrc && q < WS_MAX_SRC; q++) {
        const ws_operand *o = &in->src[q];
        if (o->kind == WS_OK_IMM || o->kind == WS_OK_SREG) n++;
    }
    return n;
}

/* An expansion (lowering.def's X column; docs/energy.md "Expansions"): its
 * `slots` SASS instructions through the front end, each class's lanes on its
 * unit, and the register traffic of the PTX instruction's own operands plus
 * two reads and one write per further lane instruction (the sequence's
 * intermediates: FFMA/IADD3/IMAD read three, ISETP/FMUL two, MOV/MUFU/I2F one;
 * ISETP/FSETP write a predicate). */
static void fold_expansion(ws_energy_events *ev, const ws_pipe_inst *pi, const ws_inst *in, const uint8_t *mix,
                           int slots, uint32_t ws)
{
    const uint64_t l = pi->n_lanes;
    ev->warp_insts += pi->n_warp * (uint64_t)slots;
    ev->lanes[WS_UNIT_INT] += l * (mix[WS_LMIX_I] + mix[WS_LMIX_IM]);
    ev->int_mul_lanes += l * mix[WS_LMIX_IM];
    ev->lanes[WS_UNIT_FP32] += l * (mix[WS_LMIX_F] + mix[WS_LMIX_FM]);
    ev->fp32_mul_lanes += l * mix[WS_LMIX_FM];
    ev->lanes[WS_UNIT_FP64] += l * mix[WS_LMIX_D];
    ev->lanes[WS_UNIT_SFU] += l * (mix[WS_LMIX_S] + mix[WS_LMIX_SQ]);
    ev->sfu_sqrt_lanes += l * mix[WS_LMIX_SQ];
    uint64_t n = 0;
    for (int c = 0; c < WS_LMIX_N; c++) n += mix[c];
    const uint64_t extra = n > 1 ? n - 1 : 0;
    ev->rf_reads += pi->n_warp * (pi->nrf + 2 * extra) * ws;
    ev->rf_writes += pi->n_warp * (in->n_wr + extra) * ws;
    ev->rf_nonreg += pi->n_warp * nonreg_sources(in) * ws;
}

void ws_energy_fold(ws_simrun *r)
{
    const uint32_t ws = r->ws;
    for (uint32_t pc = 0; pc < r->k->ninsts; pc++) {
        const ws_pipe_inst *pi = &r->pinst[pc];
        if (!pi->n_warp) continue;
        const ws_inst *in = &r->k->insts[pc];
        uint8_t mix[WS_LMIX_N];
        const int slots = ws_lower_form_mix(in, mix);
        if (slots) {
            fold_expansion(&r->ev, pi, in, mix, slots, ws);
            continue;
        }
        r->ev.warp_insts += pi->n_warp;
        if (in->unit < WS_NUNITS) r->ev.lanes[in->unit] += pi->n_lanes;
        if (in->unit == WS_UNIT_INT && is_int_mul(in->op)) r->ev.int_mul_lanes += pi->n_lanes;
        if (in->unit == WS_UNIT_FP32 && (in->op == WS_OP_MUL || in->op == WS_OP_FMA || in->op == WS_OP_MAD))
            r->ev.fp32_mul_lanes += pi->n_lanes;
        if (in->unit == WS_UNIT_SFU && (in->op == WS_OP_SQRT || in->op == WS_OP_RSQRT)) r->ev.sfu_sqrt_lanes += pi->n_lanes;
        r->ev.rf_reads += pi->n_warp * pi->nrf * ws;
        r->ev.rf_writes += pi->n_warp * in->n_wr * ws;
        r->ev.rf_nonreg += pi->n_warp * nonreg_sources(in) * ws;
    }
}

static double pj(const ws_config *cfg, ws_param_id id, double count) { return count * ws_cfg_f(cfg, id) * 1e-12; }

void ws_energy_metrics(const ws_simrun *r, const ws_config *cfg, ws_result *res)
{
    ws_value *m = res->metrics;
    const double cycles = (double)m[WS_M_cycles].i, ghz = ws_cfg_f(cfg, WS_P_clock_ghz);
    const ws_energy_events *e = &r->ev;
    m[WS_M_int_lane_ops].i = (int64_t)e->lanes[WS_UNIT_INT];
    m[WS_M_int_mul_lane_ops].i = (int64_t)e->int_mul_lanes;
    m[WS_M_fp32_mul_lane_ops].i = (int64_t)e->fp32_mul_lanes;
    m[WS_M_sfu_sqrt_lane_ops].i = (int64_t)e->sfu_sqrt_lanes;
    m[WS_M_fp32_lane_ops].i = (int64_t)e->lanes[WS_UNIT_FP32];
    m[WS_M_fp64_lane_ops].i = (int64_t)e->lanes[WS_UNIT_FP64];
    m[WS_M_sfu_lane_ops].i = (int64_t)e->lanes[WS_UNIT_SFU];
    m[WS_M_tensor_lane_ops].i = (int64_t)e->lanes[WS_UNIT_TENSOR];
    m[WS_M_rf_reads].i = (int64_t)e->rf_reads;
    m[WS_M_rf_writes].i = (int64_t)e->rf_writes;
    m[WS_M_rf_nonreg].i = (int64_t)e->rf_nonreg;
    m[WS_M_smem_wavefronts].i = (int64_t)(r->smem_accesses + r->smem_conflicts);
    if (cycles <= 0) return;

    /* a sampled run: its counts are the detailed CTAs' */
    const uint64_t detailed = r->thread_insts - r->smp_ff_insts;
    const double x = r->smp_ff_insts && detailed ? (double)r->thread_insts / (double)detailed : 1.0;
    const double s = ws_cfg_f(cfg, WS_P_voltage) / ws_cfg_f(cfg, WS_P_energy_v_nom), dyn = s * s * x;
    const double sectors_below = (double)m[WS_M_l2_bytes].i / 32.0;

    double front = pj(cfg, WS_P_energy_inst_pj, (double)e->warp_insts);
    double rf = pj(cfg, WS_P_energy_rf_read_pj, (double)e->rf_reads) + pj(cfg, WS_P_energy_rf_write_pj, (double)e->rf_writes)
              + pj(cfg, WS_P_energy_opnd_pj, (double)e->rf_nonreg);
    double exec = pj(cfg, WS_P_energy_int_lane_pj, (double)(e->lanes[WS_UNIT_INT] - e->int_mul_lanes))
                + pj(cfg, WS_P_energy_int_mul_lane_pj, (double)e->int_mul_lanes)
                + pj(cfg, WS_P_energy_fp32_lane_pj, (double)(e->lanes[WS_UNIT_FP32] - e->fp32_mul_lanes))
                + pj(cfg, WS_P_energy_fp32_mul_lane_pj, (double)e->fp32_mul_lanes)
                + pj(cfg, WS_P_energy_fp64_lane_pj, (double)e->lanes[WS_UNIT_FP64])
                + pj(cfg, WS_P_energy_sfu_lane_pj, (double)(e->lanes[WS_UNIT_SFU] - e->sfu_sqrt_lanes))
                + pj(cfg, WS_P_energy_sfu_sqrt_lane_pj, (double)e->sfu_sqrt_lanes)
                + pj(cfg, WS_P_energy_tensor_lane_pj, (double)e->lanes[WS_UNIT_TENSOR]);
    const double l1_hits = (double)m[WS_M_l1_hit_sectors].i, stores = (double)m[WS_M_store_sectors].i;
    const double store_hits = (double)m[WS_M_store_hit_sectors].i;
    /* loads through the L1 that missed: atomics execute at the L2, .cg/.cv loads skip the L1 */
    const double l1_misses = (double)(m[WS_M_gmem_sectors].i - m[WS_M_atom_sectors].i - m[WS_M_l1_bypass_sectors].i) -
                             stores - l1_hits;
    double l1 = pj(cfg, WS_P_energy_l1_hit_pj, l1_hits) + pj(cfg, WS_P_energy_l1_miss_pj, l1_misses)
              + pj(cfg, WS_P_energy_l1_store_hit_pj, store_hits) + pj(cfg, WS_P_energy_l1_store_miss_pj, stores - store_hits)
              + pj(cfg, WS_P_energy_smem_pj, (double)m[WS_M_smem_wavefronts].i);
    double l2 = pj(cfg, WS_P_energy_l2_read_hit_pj, (double)m[WS_M_l2_read_hit_sectors].i)
              + pj(cfg, WS_P_energy_l2_read_miss_pj, (double)m[WS_M_l2_read_miss_sectors].i)
              + pj(cfg, WS_P_energy_l2_write_pj, (double)m[WS_M_l2_write_sectors].i);
    double noc = pj(cfg, WS_P_energy_noc_sector_pj, sectors_below);
    double dram = pj(cfg, WS_P_energy_dram_32b_pj, (double)m[WS_M_dram_bytes].i / 32.0);
    /* the L2's dirty lines at the end reach DRAM after the run: their write-back is this run's energy too */
    double wback = pj(cfg, WS_P_energy_dram_32b_pj, (double)m[WS_M_l2_dirty_end_bytes].i / 32.0);

    const double seconds = cycles / (ghz * 1e9), ncores = (double)ws_cfg_i(cfg, WS_P_cores);
    const double span = r->smp_ff_insts ? (double)r->sim_cycles : cycles;
    double active = span > 0 ? (double)r->core_busy / (ncores * span) : 0.0;
    if (active > 1.0) active = 1.0;
    double stat = ws_cfg_f(cfg, WS_P_energy_leak_w_mm2) * m[WS_M_area_mm2].f * s * seconds * active;
    double idle = ws_cfg_f(cfg, WS_P_energy_idle_core_w) * s * ncores * seconds * (1.0 - active);
    double cons = ws_cfg_f(cfg, WS_P_energy_const_w_core) * ncores * seconds;

    m[WS_M_energy_front_j].f = front * dyn;
    m[WS_M_energy_rf_j].f = rf * dyn;
    m[WS_M_energy_exec_j].f = exec * dyn;
    m[WS_M_energy_l1_j].f = l1 * dyn;
    m[WS_M_energy_l2_j].f = l2 * dyn;
    m[WS_M_energy_noc_j].f = noc * dyn;
    m[WS_M_energy_dram_j].f = dram * dyn;
    m[WS_M_energy_writeback_j].f = wback * dyn;
    m[WS_M_energy_static_j].f = stat;
    m[WS_M_energy_idle_j].f = idle;
    m[WS_M_active_sm_fraction].f = active;
    m[WS_M_energy_const_j].f = cons;
    const double dynamic = (front + rf + exec + l1 + l2 + noc + dram + wback) * dyn;
    const double total = dynamic + stat + idle + cons;
    m[WS_M_energy_j].f = total;
    m[WS_M_power_w].f = total / seconds;
    m[WS_M_dynamic_power_w].f = dynamic / seconds;
    m[WS_M_edp].f = total * seconds;
    if (res->status == WS_ST_OK && total > 0) m[WS_M_work_per_joule].f = m[WS_M_work_units].f / total / 1e9;
}
