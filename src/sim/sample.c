/*
 * Sampled simulation of big grids (docs/sampling.md).
 *
 * With sample=ctas, a launch of more than sample_waves waves of CTAs (a wave
 * = cores x ctas_per_core CTAs, one per CTA slot of the chip) runs only its
 * first waves cycle by cycle. The remaining CTAs then run functionally, in
 * the lock-step mode of the MIMD reference (ws_reference_launch) on the run's
 * own memory image, after the detailed ones (a wave at a time), so that the
 * memory results, the expects and data-dependent host loops stay right.
 * Cycles are extrapolated from the detailed part's steady rate:
 *
 *     cycles = T_detail + W_ff / R
 *
 * W_ff: the thread instructions of the fast-forwarded CTAs (exact: the
 * functional run counts them). R: thread instructions issued per cycle in a
 * window of the detailed part in which every CTA slot is busy: between the
 * launches of the first CTAs of waves a and b, where b is the last detailed
 * wave and a = max(sample_warmup, b / 2) leaves out the warm-up (cold caches,
 * the launch ramp, an L2 not yet full of dirty lines). The detailed part
 * grows wave by wave, from sample_waves up to sample_max_waves, until the
 * rates of the window's two halves agree within sample_tolerance: a rate
 * that still drifts is not the steady state yet. The tail of the full run is
 * taken to be the tail of the detailed part (its last wave drains the same
 * way), hence T_detail in full.
 *
 * This is TBPoint's intra-launch sampling (Huang, Nai, Kim and Lee, IPDPS
 * 2014): the thread blocks of a homogeneous region share one steady IPC,
 * measured on a sample after warming and applied to the region's instruction
 * count; here the region is the whole launch. Photon (Liu et al., MICRO 2023)
 * samples GPU kernels in the same spirit at a finer grain, fast-forwarding
 * functionally between samples.
 *
 * The method assumes the CTAs are independent (no inter-CTA flags or locks):
 * the fast-forwarded CTAs run after the detailed ones have finished, a wave
 * at a time. A fast-forward that does not finish (a CTA waits for one that
 * is not resident) ends the run with the reference's status and a message
 * that says so.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "core_internal.h"

int ws_sample_plan(ws_simrun *r)
{
    ws_sample *sp = &r->smp;
    memset(sp, 0, sizeof *sp);
    sp->full_ctas = r->total_ctas;
    if (ws_cfg_i(r->cfg, WS_P_sample) == 0)
        return 0;
    uint64_t waves = (uint64_t)ws_cfg_i(r->cfg, WS_P_sample_waves);
    sp->warmup = (uint32_t)ws_cfg_i(r->cfg, WS_P_sample_warmup);
    sp->max_waves = (uint32_t)ws_cfg_i(r->cfg, WS_P_sample_max_waves);
    sp->tolerance = ws_cfg_f(r->cfg, WS_P_sample_tolerance);
    if (waves < (uint64_t)sp->warmup + 3 || sp->max_waves < waves) {
        snprintf(r->msg, sizeof r->msg, "sample_waves=%llu must be at least sample_warmup + 3 = %u and at most "
                 "sample_max_waves=%u: the rate window needs two waves after the warm-up before the last one",
                 (unsigned long long)waves, sp->warmup + 3, sp->max_waves);
        r->status = WS_ST_INVALID;
        return -1;
    }
    sp->wave = (uint64_t)r->ncores * r->ctas_per_core;
    sp->l2_bytes = (uint64_t)ws_cfg_i(r->cfg, WS_P_l2_kb) * 1024 * (ws_cfg_i(r->cfg, WS_P_mem_per_core) ? r->ncores : 1);
    if (r->total_ctas <= waves * sp->wave)
        return 0;   /* too few waves: the full run is as cheap */
    sp->on = 1;
    sp->detail_ctas = waves * sp->wave;
    r->total_ctas = sp->detail_ctas;
    return 0;
}

static double rate(const ws_sample *sp, uint32_t from, uint32_t to)
{
    uint64_t dt = sp->mark[to].t - sp->mark[from].t;
    return dt ? (double)(sp->mark[to].insts - sp->mark[from].insts) / (double)dt : 0.0;
}

/* Mark j's DRAM traffic, and whether the L2 is warm from mark j on: it has
 * been filled once (DRAM traffic of its capacity: write-backs of dirty lines
 * start only then), or the traffic has stopped (the footprint fits: the
 * last wave moved at most the tolerance of the mean per wave). */
static void note_l2(ws_simrun *r, ws_sample *sp, uint32_t j)
{
    ws_value mt[WS_NMETRICS];
    memset(mt, 0, sizeof mt);
    mt[WS_M_cycles].i = (int64_t)r->now + 1;
    mt[WS_M_warp_insts].i = (int64_t)r->warp_insts;
    ws_mem_stats(&r->memsys, mt);
    sp->mark[j].dram = (uint64_t)mt[WS_M_dram_bytes].i;
    if (sp->l2_warm || j == 0)
        return;
    uint64_t last = sp->mark[j].dram - sp->mark[j - 1].dram, moved = sp->mark[j].dram - sp->mark[0].dram;
    if (moved >= sp->l2_bytes || (double)last <= sp->tolerance * (double)moved / j)
        sp->l2_warm = j;
}

/* The window ending at mark `last` (the last detailed wave's start); 1 if
 * the L2 is warm and the rates of the window's halves agree within the
 * tolerance. */
static int steady(ws_sample *sp, uint32_t last)
{
    uint32_t a = last / 2 > sp->warmup ? last / 2 : sp->warmup;
    if (sp->l2_warm > a && sp->l2_warm + 2 <= last)
        a = sp->l2_warm;
    if (last < a + 2)
        return 0;
    uint32_t mid = (a + last) / 2;
    sp->win_from = a;
    sp->win_to = last;
    double r1 = rate(sp, a, mid), r2 = rate(sp, mid, last), r = rate(sp, a, last);
    return sp->l2_warm && a >= sp->l2_warm && r > 0 && (r1 > r2 ? r1 - r2 : r2 - r1) <= sp->tolerance * r;
}

void ws_sample_cta_launched(ws_simrun *r, uint64_t id)
{
    ws_sample *sp = &r->smp;
    if (!sp->on || id % sp->wave)
        return;
    /* launched at the end of cycle now (fill_core): its warps issue from now + 1;
     * the initial dispatch is at the launch's start */
    uint32_t j = (uint32_t)(id / sp->wave);
    sp->mark[j] = (ws_sample_mark){.t = sp->running ? r->now + 1 : sp->start, .insts = r->thread_insts};
    sp->nmarks = j + 1;
    note_l2(r, sp, j);
    if (id + sp->wave < sp->detail_ctas)
        return;
    /* the first CTA of the last planned wave: steady yet? else one more wave */
    if (steady(sp, j) || j + 1 >= sp->max_waves)
        return;
    sp->detail_ctas += sp->wave;
    if (sp->detail_ctas >= sp->full_ctas) {   /* the whole grid in detail after all */
        sp->detail_ctas = sp->full_ctas;
        sp->on = 0;
    }
    r->total_ctas = sp->detail_ctas;
}

void ws_sample_begin(ws_simrun *r, uint64_t start)
{
    ws_sample *sp = &r->smp;
    sp->running = 0;
    sp->start = start;
    sp->nmarks = 0;
    sp->l2_warm = sp->win_from = sp->win_to = 0;
    sp->ff_insts = 0;
    sp->thread0 = r->thread_insts;
    sp->warp0 = r->warp_insts;
    sp->div0 = r->div_insts;
    sp->low0 = r->lowered_insts;
    sp->smem0 = r->smem_conflicts;
    memcpy(sp->idle0, r->idle, sizeof sp->idle0);
}

/* CTAs [detail_ctas, full_ctas) functionally on r->mem, one wave (the
 * CTAs the chip holds at once) after the other: a kernel that needs more
 * CTAs resident together would not run on the modelled chip either, and
 * the memory held stays that of one wave however big the grid. */
static int fast_forward(ws_simrun *r, const ws_launch_spec *spec, const uint8_t *param_buf, uint64_t max_steps)
{
    ws_sample *sp = &r->smp;
    ws_ref_launch l = {.kernel = spec->kernel, .param_buf = param_buf,
                       .param_bytes = spec->kernel ? spec->kernel->param_bytes : 0,
                       .dyn_shared_bytes = spec->dyn_shared_bytes, .lockstep = 1};
    memcpy(l.grid, spec->grid, sizeof l.grid);
    memcpy(l.block, spec->block, sizeof l.block);
    for (uint64_t first = sp->detail_ctas; first < sp->full_ctas; first += sp->wave) {
        l.cta_first = first;
        l.cta_end = first + sp->wave < sp->full_ctas ? first + sp->wave : sp->full_ctas;
        ws_result fr;
        ws_reference_launch(&l, r->ws, max_steps > sp->ff_insts ? max_steps - sp->ff_insts : 1, &r->mem, &fr);
        sp->ff_insts += (uint64_t)fr.metrics[WS_M_thread_insts].i;
        if (fr.status != WS_ST_OK) {
            snprintf(r->msg, sizeof r->msg, "sampled run: the functional run of CTAs %llu..%llu did not finish (%s: "
                     "%.300s); sampling assumes independent CTAs (docs/sampling.md)", (unsigned long long)l.cta_first,
                     (unsigned long long)l.cta_end - 1, ws_status_name(fr.status), fr.message);
            r->status = fr.status;
            return -1;
        }
    }
    return 0;
}

/* How far the fast-forwarded cycles may be off (docs/sampling.md): the rates
 * r1, r2 of the window's two halves each extrapolate W_ff / r; half their
 * difference, in cycles. NaN without a window (a degenerate schedule). */
static double extrapolation_error(const ws_sample *sp)
{
    if (sp->win_to < sp->win_from + 2)
        return NAN;
    uint32_t mid = (sp->win_from + sp->win_to) / 2;   /* steady()'s halves */
    double r1 = rate(sp, sp->win_from, mid), r2 = rate(sp, mid, sp->win_to);
    if (r1 <= 0 || r2 <= 0)
        return NAN;
    double d = (double)sp->ff_insts / r1 - (double)sp->ff_insts / r2;
    return (d < 0 ? -d : d) / 2;
}

static uint64_t scaled(uint64_t base, uint64_t now, double f)
{
    return base + (uint64_t)((double)(now - base) * f + 0.5);
}

uint64_t ws_sample_end(ws_simrun *r, const ws_launch_spec *spec, const uint8_t *param_buf, uint64_t start,
                       uint64_t end, double *sampled)
{
    ws_sample *sp = &r->smp;
    *sampled = 1.0;
    if (!sp->on)
        return end;
    uint64_t max_steps = (uint64_t)ws_cfg_i(r->cfg, WS_P_max_cycles) * 64 + 1000000;   /* the expect check's */
    if (fast_forward(r, spec, param_buf, max_steps) < 0)
        return end;
    /* cycles = T_detail + W_ff / R (the header) */
    uint64_t t_detail = end - start, detail = r->thread_insts - sp->thread0;
    double rt = rate(sp, sp->win_from, sp->win_to);
    if (rt <= 0)   /* no window (a degenerate schedule): the detailed part's mean rate */
        rt = t_detail ? (double)detail / (double)t_detail : 0.0;
    uint64_t ff_cycles = rt > 0 ? (uint64_t)((double)sp->ff_insts / rt + 0.5) : 0;
    r->smp_err_cycles += extrapolation_error(sp);
    /* counts grow with the work, idle slots with the time */
    double f = detail ? (double)(detail + sp->ff_insts) / (double)detail : 1.0;
    double ft = t_detail ? (double)(t_detail + ff_cycles) / (double)t_detail : 1.0;
    r->warp_insts = scaled(sp->warp0, r->warp_insts, f);
    r->div_insts = scaled(sp->div0, r->div_insts, f);
    r->lowered_insts = scaled(sp->low0, r->lowered_insts, f);
    r->smem_conflicts = scaled(sp->smem0, r->smem_conflicts, f);
    for (int k = 0; k < WS_NSTALLS; k++)
        r->idle[k] = scaled(sp->idle0[k], r->idle[k], ft);
    r->thread_insts += sp->ff_insts;
    /* the fast-forwarded CTAs ran, by the method's assumption, in the steady state */
    r->steady_cycles += ff_cycles;
    r->steady_thread_insts += sp->ff_insts;
    r->steady_ctas += sp->full_ctas - sp->detail_ctas;
    r->done_ctas = sp->full_ctas;
    r->smp_ff_insts += sp->ff_insts;
    r->smp_ff_cycles += ff_cycles;
    *sampled = (double)detail / (double)(detail + sp->ff_insts);
    return end + ff_cycles;
}
