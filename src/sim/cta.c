/*
 * CTAs on a core: launch into a CTA slot, CTA barriers (bar.sync, bar.arrive,
 * bar.red; docs/model.md "CTA barriers") and the end of warps and CTAs.
 */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <stdarg.h>
#include "core_internal.h"

static inline uint64_t lane_value(const ws_simrun *r, const ws_cwarp *w, uint32_t reg, uint64_t mask)
{
    uint32_t l = mask ? (uint32_t)__builtin_ctzll(mask) : 0;
    return ws_reg_lanes(&w->fw, reg, r->ws)[l];
}

static inline uint64_t opnd_value(const ws_simrun *r, const ws_cwarp *w, const ws_operand *o, uint64_t mask,
                                  int *ok)
{
    *ok = 1;
    if (o->kind == WS_OK_IMM) return (uint64_t)o->imm;
    if (o->kind == WS_OK_REG) return lane_value(r, w, o->reg, mask);
    *ok = 0;
    return 0;
}

/* bar.red: the lanes of `lanes` whose predicate (the last source, '!'
 * applied) is true. */
static uint64_t bar_red_preds(const ws_simrun *r, const ws_cwarp *w, const ws_inst *in, uint64_t lanes)
{
    const ws_operand *p = &in->src[in->nsrc - 1];
    uint64_t yes = 0;
    for (uint64_t m = lanes; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(m);
        uint64_t v = p->kind == WS_OK_IMM ? (uint64_t)p->imm
                     : p->kind == WS_OK_REG ? ws_reg_lanes(&w->fw, p->reg, r->ws)[l] : 0;
        if (((v & 1) != 0) != (p->neg != 0)) yes |= 1ull << l;
    }
    return yes;
}

int ws_core_waiting_long(const ws_core *c, uint32_t slot, uint64_t now)
{
    const ws_cwarp *w = &c->warps[slot];
    return w->wake > now && w->wake != WS_NEVER && w->wake_reason == WS_STALL_MEM;
}

uint64_t ws_core_wake(const ws_core *c, uint32_t slot) { return c->warps[slot].wake; }
void *ws_core_policy_state(const ws_core *c) { return c->scheds[0].pstate; }
const ws_kernel *ws_core_kernel(const ws_core *c) { return c->run->k; }

/* Every live lane waits at a CTA barrier, or is parked behind lanes that do
 * (ws_div_ops.parked: they count as arrived, see parked_at), or the warp is
 * suspended in mbarrier.try_wait (issue.c mbarrier_timing). */
int ws_core_parked_at_barrier(const ws_core *c, uint32_t slot)
{
    const ws_cwarp *w = &c->warps[slot];
    if (w->live && w->mbar_parked) return 1;   /* suspended in try_wait: it waits for CTA-mates as at a barrier */
    uint64_t live = w->fw.valid & ~w->exited;
    const ws_simrun *r = c->run;   /* NULL in the scheduler unit tests (tests/unit/test_sched.c) */
    if (w->live && r && r->div->parts) {
        /* tbc: a slot hosting no running dynamic warp, or only ones with threads
         * held at a CTA barrier, waits for its CTA (the CTA-wide wait at a
         * branch, threads parked in the block-wide stack, the barrier) as at a
         * CTA barrier: windowed policies (swl, two_level) must not keep it in
         * their window while its CTA-mates wait outside */
        const ws_split *sps;
        uint32_t start, ns = r->div->splits(w->div, &sps, &start);
        const ws_ccta *ct = &c->ctas[w->cta_slot];
        for (uint32_t k = 0; k < ns; k++) {
            r->div->parts(w->div, &sps[k], r->part_lanes);
            uint64_t held = 0;
            for (uint32_t i = 0; i < ct->nwarps; i++) held |= c->warps[ct->first_warp + i].held & r->part_lanes[i];
            if (!held) return 0;
        }
        return 1;
    }
    if (!w->live || !live || !w->held) return 0;
    uint64_t waiting = w->held;
    if ((waiting & live) != live && r->div->parked) waiting |= r->div->parked(&r->divctx, w->div, w->held);
    return (waiting & live) == live;
}

void ws_launch_cta(ws_simrun *r, ws_core *c, uint32_t slot)
{
    ws_ccta *ct = &c->ctas[slot];
    uint64_t id = r->next_cta++;
    const uint32_t *g = r->launch.grid;
    ct->live = 1;
    ct->fc.linear_id = (uint32_t)id;
    ct->fc.ctaid[0] = (uint32_t)(id % g[0]);
    ct->fc.ctaid[1] = (uint32_t)((id / g[0]) % g[1]);
    ct->fc.ctaid[2] = (uint32_t)(id / ((uint64_t)g[0] * g[1]));
    if (r->launch.shared_bytes) memset(ct->fc.smem, 0, r->launch.shared_bytes);
    ct->warps_done = 0;
    ct->live_threads = r->launch.threads_per_cta;
    memset(ct->bar_arrived, 0, sizeof ct->bar_arrived);
    memset(ct->bar_expect, 0, sizeof ct->bar_expect);
    memset(ct->bar_red_n, 0, sizeof ct->bar_red_n);
    memset(ct->bar_red_true, 0, sizeof ct->bar_red_true);
    memset(ct->bar_plain_n, 0, sizeof ct->bar_plain_n);
    const uint32_t *b = r->launch.block;
    /* cta_launch_interval: the core takes a CTA no sooner than interval cycles after its last
     * (docs/model.md "Launch start, dispatch and drain"); 0: at once */
    uint64_t start = 0;
    if (r->cta_interval) {
        start = c->cta_next > r->cta_from ? c->cta_next : r->cta_from;
        c->cta_next = start + r->cta_interval;
    }
    for (uint32_t i = 0; i < r->warps_per_cta; i++) {
        uint32_t hw = ct->first_warp + i;
        ws_cwarp *w = &c->warps[hw];
        w->fw.cta = &ct->fc;
        w->fw.warp_in_cta = i;
        w->fw.hw_warp = hw;
        w->fw.smid = c->id;
        uint32_t t0 = i * r->ws;
        uint32_t n = r->launch.threads_per_cta - t0;
        if (n > r->ws) n = r->ws;
        w->fw.nlanes = n;
        w->fw.valid = n >= 64 ? ~0ull : ((1ull << n) - 1);
        for (uint32_t l = 0; l < n; l++) {
            uint32_t t = t0 + l;
            w->fw.tid[0][l] = t % b[0];
            w->fw.tid[1][l] = (t / b[0]) % b[1];
            w->fw.tid[2][l] = t / (b[0] * b[1]);
        }
        ws_warp_reset_regs(&w->fw, r->nslots, r->ws);
        if (r->launch.local_bytes) memset(w->fw.local, 0, (size_t)r->launch.local_bytes * r->ws);
        w->live = 1;
        w->last_issue = 0;
        memset(w->lane_issue, 0, sizeof(uint64_t) * r->ws);
        w->cta_slot = slot;
        w->age = c->next_age++;
        w->exited = 0;
        w->held = 0;
        w->wake = start;                 /* cta_launch_interval: not before its dispatch */
        w->wake_reason = start ? WS_STALL_EMPTY : 0;
        w->busy_until = 0;
        w->ib_ready = 0;
        w->ib_pc = UINT32_MAX;
        w->ib_left = 0;
        w->next_pc = UINT32_MAX;
        w->last_unit = WS_NUNITS;
        w->stall_res = WS_RES_NONE;
        w->deps_pc = UINT32_MAX;
        c->walk[hw] = WS_WALK_TRY;
        w->cpa.open = w->bulk.open = 0;   /* the groups past n are never read */
        w->cpa.n = w->bulk.n = 0;
        w->cpa_hold = 0;
        w->mbar_parked = 0;
        c->pipes[w->sched].n_live++;
        c->pipes[w->sched].live_bits |= w->walk_bit;
        w->lanes_flat = 1;   /* every lane ready at 0: the arrays need no clearing */
        w->flat_ready = 0;
        w->flat_mem = 0;
        memset(w->sb_mask, 0, sizeof(uint64_t) * r->nregs);
        memset(w->sb_ready, 0, sizeof(uint64_t) * r->nregs);
        memset(w->sb_mem, 0, r->nregs);
        r->div->init(&r->divctx, w->div, w->fw.valid);
        ws_sched *s = &c->scheds[w->sched];
        s->ops->add(s, hw);
        pipe_changed(&c->pipes[w->sched]);
    }
    ws_sample_cta_launched(r, id);
    if (r->div->cta_init) {                   /* CTA scope (tbc): one state for the CTA's warps */
        for (uint32_t i = 0; i < r->warps_per_cta; i++) {
            r->cta_warp_st[i] = c->warps[ct->first_warp + i].div;
            r->part_lanes[i] = c->warps[ct->first_warp + i].fw.valid;
        }
        r->div->cta_init(&r->divctx, ct->div, r->cta_warp_st, r->part_lanes);
    }
    if (!c->live_ctas) c->busy_from = r->cta_from;
    if (++c->live_ctas == r->ctas_per_core) r->cores_short--;
}

uint32_t ws_fill_core(ws_simrun *r, ws_core *c)
{
    uint32_t n = 0;
    for (uint32_t s = 0; s < r->ctas_per_core && r->next_cta < r->total_ctas; s++)
        if (!c->ctas[s].live) {
            ws_launch_cta(r, c, s);
            n++;
        }
    return n;
}

void ws_track_residency(ws_simrun *r, ws_core *c, uint64_t *max_ctas)
{
    if (c->live_ctas > *max_ctas) *max_ctas = c->live_ctas;
    (void)r;
}

/* bar.red's result for one waiting lane (PTX ISA, bar.red): .popc the number
 * of participating threads whose predicate is true, .and / .or whether all /
 * any of them are. */
static uint64_t bar_red_value(const ws_inst *in, uint32_t n, uint32_t ntrue)
{
    switch (in->subop) {
    case WS_BAR_RED_POPC: return ntrue;
    case WS_BAR_RED_AND: return ntrue == n;
    default: return ntrue != 0;
    }
}

/* Writes bar.red's result to the destination of each released lane `rel` of
 * w; under scoreboard issue the register becomes ready at `done`. */
static void write_bar_red(ws_simrun *r, ws_ccta *ct, ws_cwarp *w, uint32_t bar, uint64_t rel, uint64_t done)
{
    for (uint64_t m = rel; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(m);
        const ws_inst *in = w->held_red[l];
        w->held_red[l] = NULL;
        if (!in || in->ndst < 1 || in->dst[0].kind != WS_OK_REG || in->dst[0].reg == WS_NO_REG) continue;
        uint32_t reg = in->dst[0].reg;
        ws_reg_lanes(&w->fw, reg, r->ws)[l] = bar_red_value(in, ct->bar_red_n[bar], ct->bar_red_true[bar]);
        if (!r->blocking && reg < r->nregs) {
            if (w->sb_ready[reg] <= r->now) w->sb_mask[reg] = 0;
            w->sb_mask[reg] |= 1ull << l;
            if (done > w->sb_ready[reg]) { w->sb_ready[reg] = done; w->sb_mem[reg] = 0; }
        }
    }
}

static void cta_release(ws_simrun *r, ws_core *c, ws_ccta *ct, uint32_t bar, uint64_t now)
{
    uint64_t done = now + r->lat_alu;
    if (ct->bar_red_n[bar] && ct->bar_plain_n[bar])
        ws_run_fail(r, WS_ST_ERROR, "%s: CTA %u: barrier %u was reached by %u threads with bar.red and %u with bar.sync/"
             "bar.arrive at once (the PTX ISA: bar.red must not be intermixed with bar.sync or bar.arrive on the "
             "same active barrier)", r->k->path ? r->k->path : "kernel", ct->fc.linear_id, bar,
             ct->bar_red_n[bar], ct->bar_plain_n[bar]);
    for (uint32_t i = 0; i < ct->nwarps; i++) {
        ws_cwarp *w = &c->warps[ct->first_warp + i];
        uint64_t rel = 0;
        for (uint64_t m = w->held; m; m &= m - 1) {
            uint32_t l = (uint32_t)__builtin_ctzll(m);
            if (w->held_bar[l] == bar) rel |= 1ull << l;
        }
        if (!rel) continue;
        w->held &= ~rel;
        note_parking(c, w, ct->first_warp + i);
        write_bar_red(r, ct, w, bar, rel, done);
        lanes_unflatten(w, w->fw.nlanes);
        for (uint64_t m = rel; m; m &= m - 1) {
            uint32_t l = (uint32_t)__builtin_ctzll(m);
            w->lane_ready[l] = done;
            w->lane_mem[l] = 0;
        }
        if (!r->div->per_lane_blocking || done > w->busy_until)
            if (done > w->busy_until) w->busy_until = done;
        w->wake = 0;
        w->deps_pc = UINT32_MAX;
        forget_stall(c, w);
    }
    if (done > r->last_complete) r->last_complete = done;
    if (r->div->parts) ws_wake_cta(c, ct);   /* tbc: the released threads' dynamic warps live on other slots */
    ct->bar_arrived[bar] = 0;
    ct->bar_expect[bar] = 0;
    ct->bar_red_n[bar] = 0;
    ct->bar_red_true[bar] = 0;
    ct->bar_plain_n[bar] = 0;
}

/* Threads of the CTA that count as arrived at CTA barrier b without having
 * executed it: lanes the divergence scheme parks behind lanes held at b
 * (ws_div_ops.parked). The PTX ISA marks a *warp's* arrival at a barrier,
 * and bar.sync is barrier.sync.aligned, which the hardware executes for the
 * warp as a whole (GPGPU-Sim counts the warp when its active lanes execute
 * it). nvcc relies on that: for `if (odd) { out = ..; return; } ...
 * __syncthreads();` it merges the returning threads' store into the common
 * tail, so in the PTX they are still alive, parked at the reconvergence
 * point, when the others reach bar.sync. Lanes that can still run (another
 * split under convergence barriers) are not counted: they arrive themselves,
 * as on Volta. */
static uint32_t parked_at(ws_simrun *r, ws_core *c, ws_ccta *ct, uint32_t b)
{
    if (!r->div->parked) return 0;
    uint32_t n = 0;
    for (uint32_t i = 0; i < ct->nwarps; i++) {
        ws_cwarp *w = &c->warps[ct->first_warp + i];
        if (!w->live || !w->held) continue;
        uint64_t at = 0;
        for (uint64_t m = w->held; m; m &= m - 1)
            if (w->held_bar[__builtin_ctzll(m)] == b) at |= m & -m;
        if (!at) continue;
        uint64_t p = r->div->parked(&r->divctx, w->div, at) & w->fw.valid & ~w->exited & ~w->held;
        n += (uint32_t)__builtin_popcountll(p);
    }
    return n;
}

void ws_cta_check_bars(ws_simrun *r, ws_core *c, ws_ccta *ct, uint64_t now)
{
    for (uint32_t b = 0; b < WS_CTA_BARS; b++) {
        if (!ct->bar_arrived[b]) continue;
        uint32_t need = ct->bar_expect[b] ? ct->bar_expect[b] : ct->live_threads;
        if (ct->bar_arrived[b] >= need || ct->bar_arrived[b] + parked_at(r, c, ct, b) >= need)
            cta_release(r, c, ct, b, now);
    }
}

void ws_warp_finished(ws_simrun *r, ws_core *c, uint32_t slot)
{
    ws_cwarp *w = &c->warps[slot];
    w->live = 0;
    ws_sched *s = &c->scheds[w->sched];
    s->ops->remove(s, slot);
    forget_stall(c, w);
    c->walk[slot] = WS_WALK_DEAD;
    pipe_changed(&c->pipes[w->sched]);
    c->pipes[w->sched].n_live--;
    c->pipes[w->sched].live_bits &= ~w->walk_bit;
    uint32_t d, sp;
    r->div->stats(w->div, &d, &sp);
    if (d > r->max_depth) r->max_depth = d;
    if (sp > r->max_splits) r->max_splits = sp;
    ws_ccta *ct = &c->ctas[w->cta_slot];
    if (++ct->warps_done == ct->nwarps) {
        ct->live = 0;
        if (c->live_ctas-- == r->ctas_per_core) r->cores_short++;
        if (!c->live_ctas) r->core_busy += r->now + 1 - c->busy_from;   /* resident through this cycle */
        r->done_ctas++;
    }
}

void ws_mbar_wake(ws_core *c, const ws_ccta *ct, uint64_t t)
{
    for (uint32_t i = 0; i < ct->nwarps; i++) {
        ws_cwarp *q = &c->warps[ct->first_warp + i];
        if (!q->live || !q->mbar_parked) continue;
        q->mbar_parked = 0;
        note_parking(c, q, ct->first_warp + i);   /* its scheduler looks again; windowed policies take it back */
        q->wake = t;
        q->wake_reason = WS_STALL_SYNC;
        q->deps_pc = UINT32_MAX;
        forget_stall(c, q);
    }
}

/* A CTA-scope scheme changed the CTA's dynamic warps: its warps look again. */
void ws_wake_cta(ws_core *c, const ws_ccta *ct)
{
    for (uint32_t i = 0; i < ct->nwarps; i++) {
        ws_cwarp *q = &c->warps[ct->first_warp + i];
        if (!q->live) continue;
        q->wake = 0;
        q->deps_pc = UINT32_MAX;
        forget_stall(c, q);
        note_parking(c, q, ct->first_warp + i);   /* it may have become (un)parked */
    }
}

/* Lanes `executed` of warp `slot` arrive at CTA barrier instruction `in`. */
void ws_bar_arrive(ws_simrun *r, ws_core *c, ws_ccta *ct, uint32_t slot, const ws_inst *in, uint64_t executed)
{
    ws_cwarp *w = &c->warps[slot];
    int ok = 1, ok2 = 0;
    uint32_t bar = 0, cnt = 0;
    if (in->nsrc >= 1) bar = (uint32_t)opnd_value(r, w, &in->src[0], executed, &ok);
    bar &= WS_CTA_BARS - 1;
    int is_red = in->subop == WS_BAR_RED_POPC || in->subop == WS_BAR_RED_AND || in->subop == WS_BAR_RED_OR;
    uint32_t cidx = is_red ? (in->nsrc >= 3 ? 1 : 99) : 1;
    if (cidx < in->nsrc) cnt = (uint32_t)opnd_value(r, w, &in->src[cidx], executed, &ok2);
    uint32_t n = (uint32_t)__builtin_popcountll(executed);
    ct->bar_arrived[bar] += n;
    if (ok2 && cnt) ct->bar_expect[bar] = cnt;
    if (is_red) {
        ct->bar_red_n[bar] += n;
        ct->bar_red_true[bar] += (uint32_t)__builtin_popcountll(bar_red_preds(r, w, in, executed));
    } else {
        ct->bar_plain_n[bar] += n;
    }
    if (in->subop != WS_BAR_ARRIVE) {
        w->held |= executed;
        for (uint64_t m = executed; m; m &= m - 1) {
            uint32_t l = (uint32_t)__builtin_ctzll(m);
            w->held_bar[l] = (uint8_t)bar;
            w->held_red[l] = is_red ? in : NULL;
        }
        note_parking(c, w, slot);
    }
}
