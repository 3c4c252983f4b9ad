/*
 * Sampled simulation of big grids (docs/sampling.md).
 *
 * With sample=ctas, a launch of more than sample_waves waves of CTAs (a wave
 * = cores x ctas_per_core CTAs, one per CTA slot of the chip) runs only its
 * first sample_waves waves cycle by cycle. The remaining CTAs then run
 * functionally, in the lock-step mode of the MIMD reference
 * (ws_reference_launch) on the run's own memory image, after the detailed
 * ones (a wave at a time), so that the memory results, the expects and data-dependent host
 * loops stay right. Cycles are extrapolated from the detailed part's steady
 * rate:
 *
 *     cycles = T_detail + W_ff / R
 *     R      = thread instructions issued in [t_a, t_b) / (t_b - t_a)
 *
 * where t_a is the cycle the first CTA after sample_warmup waves is
 * launched, t_b the cycle the last detailed CTA is launched (every CTA slot
 * is refilled at once in between: the chip is fully occupied), and W_ff the
 * thread instructions of the fast-forwarded CTAs. The idea is TBPoint's
 * intra-launch sampling (Huang, Nai, Kim and Lee, IPDPS 2014): the thread
 * blocks of a homogeneous region have one steady IPC, measured on a sample
 * after warm-up and applied to the region's instruction count; here the
 * region is the whole launch, and the tail of the full run is taken to be
 * the tail of the detailed part (the last wave drains the same way). Photon
 * (Liu et al., MICRO 2023) samples GPU kernels the same way at a finer grain
 * and fast-forwards functionally between samples.
 *
 * The method assumes the CTAs are independent (no inter-CTA flags or locks):
 * the fast-forwarded CTAs run after the detailed ones have finished, on their
 * own. A fast-forward that does not finish (a CTA waits for one that will not
 * run again) ends the run with the reference's status and a message that
 * says so.
 */
#include <stdio.h>
#include <string.h>
#include "core_internal.h"

int ws_sample_plan(ws_simrun *r)
{
    ws_sample *sp = &r->smp;
    memset(sp, 0, sizeof *sp);
    sp->full_ctas = r->total_ctas;
    sp->work_scale = 1.0;
    if (ws_cfg_i(r->cfg, WS_P_sample) == 0)
        return 0;
    uint64_t waves = (uint64_t)ws_cfg_i(r->cfg, WS_P_sample_waves);
    uint64_t warm = (uint64_t)ws_cfg_i(r->cfg, WS_P_sample_warmup);
    if (waves < warm + 2) {
        snprintf(r->msg, sizeof r->msg, "sample_waves=%llu must exceed sample_warmup=%llu by at least 2: the rate is "
                 "measured from the first CTA after the warm-up to the last detailed CTA",
                 (unsigned long long)waves, (unsigned long long)warm);
        r->status = WS_ST_INVALID;
        return -1;
    }
    uint64_t wave = (uint64_t)r->ncores * r->ctas_per_core;
    if (r->total_ctas <= waves * wave)
        return 0;   /* too few waves: the full run is as cheap */
    sp->on = 1;
    sp->detail_ctas = waves * wave;
    sp->first_measured = warm * wave;
    r->total_ctas = sp->detail_ctas;
    return 0;
}

void ws_sample_cta_launched(ws_simrun *r, uint64_t id)
{
    ws_sample *sp = &r->smp;
    if (!sp->on)
        return;
    /* launched at the end of cycle now (fill_core): its warps issue from now + 1;
     * the initial launch is at cycle 0 */
    uint64_t t = sp->running ? r->now + 1 : 0;
    if (id == sp->first_measured) {
        sp->t_a = t;
        sp->ti_a = r->thread_insts;
    }
    if (id == sp->detail_ctas - 1) {
        sp->t_b = t;
        sp->ti_b = r->thread_insts;
    }
}

/* CTAs [detail_ctas, full_ctas) functionally on r->mem, one wave (the
 * CTAs the chip holds at once) after the other: a kernel that needs more
 * CTAs resident together would not run on the modelled chip either, and
 * the memory held stays that of one wave however big the grid. */
static int fast_forward(ws_simrun *r, uint64_t max_steps)
{
    ws_sample *sp = &r->smp;
    const ws_workload *wl = r->wl;
    ws_ref_launch l = {.kernel = wl->kernel, .param_buf = r->mem.param_buf,
                       .param_bytes = wl->kernel->param_bytes, .dyn_shared_bytes = wl->dyn_shared_bytes,
                       .lockstep = 1};
    memcpy(l.grid, r->launch.grid, sizeof l.grid);
    memcpy(l.block, r->launch.block, sizeof l.block);
    uint64_t wave = (uint64_t)r->ncores * r->ctas_per_core;
    for (uint64_t first = sp->detail_ctas; first < sp->full_ctas; first += wave) {
        l.cta_first = first;
        l.cta_end = first + wave < sp->full_ctas ? first + wave : sp->full_ctas;
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

static int64_t scaled(int64_t v, double f)
{
    return (int64_t)((double)v * f + 0.5);
}

/* The metrics of the whole launch from the detailed part's (docs/sampling.md,
 * the metric descriptions say which are extrapolated). */
static void extrapolate(ws_simrun *r)
{
    ws_sample *sp = &r->smp;
    ws_value *m = r->res->metrics;
    uint64_t t_detail = (uint64_t)m[WS_M_cycles].i;
    uint64_t window = sp->t_b > sp->t_a ? sp->t_b - sp->t_a : 0;
    uint64_t win_insts = sp->ti_b - sp->ti_a;
    /* no window (a degenerate schedule): the detailed part's mean rate */
    double rate = window && win_insts ? (double)win_insts / (double)window
                                      : t_detail ? (double)r->thread_insts / (double)t_detail : 0.0;
    uint64_t ff_cycles = rate > 0 ? (uint64_t)((double)sp->ff_insts / rate + 0.5) : 0;
    uint64_t cycles = t_detail + ff_cycles;
    uint64_t thread = r->thread_insts + sp->ff_insts;
    sp->work_scale = r->thread_insts ? (double)thread / (double)r->thread_insts : 1.0;
    double f = sp->work_scale, ft = t_detail ? (double)cycles / (double)t_detail : 1.0;
    uint64_t slots_per_cycle = (uint64_t)r->ncores * r->nsched * r->width;
    m[WS_M_cycles].i = (int64_t)cycles;
    m[WS_M_thread_insts].i = (int64_t)thread;
    m[WS_M_warp_insts].i = scaled(m[WS_M_warp_insts].i, f);
    m[WS_M_div_insts].i = scaled(m[WS_M_div_insts].i, f);
    m[WS_M_smem_bank_conflicts].i = scaled(m[WS_M_smem_bank_conflicts].i, f);
    static const int idle[] = {WS_M_idle_mem, WS_M_idle_dep, WS_M_idle_sync, WS_M_idle_empty,
                               WS_M_idle_mshr, WS_M_idle_unit, WS_M_idle_fetch};
    for (size_t i = 0; i < sizeof idle / sizeof idle[0]; i++)
        m[idle[i]].i = scaled(m[idle[i]].i, ft);
    double wi = (double)m[WS_M_warp_insts].i;
    m[WS_M_ipc].f = cycles ? (double)thread / (double)cycles : 0.0;
    m[WS_M_warp_ipc].f = cycles ? wi / (double)cycles : 0.0;
    m[WS_M_issue_utilization].f =
        cycles ? (wi + (double)m[WS_M_div_insts].i) / ((double)cycles * (double)slots_per_cycle) : 0.0;
    m[WS_M_sampled].f = thread ? (double)r->thread_insts / (double)thread : 1.0;
}

void ws_sample_finish(ws_simrun *r, uint64_t max_steps)
{
    r->res->metrics[WS_M_sampled].f = 1.0;
    if (!r->smp.on || r->status >= 0)
        return;
    if (fast_forward(r, max_steps) < 0)
        return;
    extrapolate(r);
}
