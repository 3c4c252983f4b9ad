/*
 * The cycle-level SIMT core: ws_sim_run.
 *
 * One run = one kernel launch on `cores` identical cores. Each core has
 * `warps` hardware warp slots split among `schedulers` warp schedulers (slot w
 * belongs to scheduler w % schedulers) and holds up to ctas_per_core CTAs
 * (occupancy: warp slots, register file, max_ctas). CTAs are handed out in
 * order, round-robin over the cores at launch, then to whichever core frees a
 * CTA slot (lowest core index first within a cycle).
 *
 * Every cycle each scheduler walks its policy's priority list (sched_*.c) and
 * issues at most issue_width instructions, one per warp; a warp offers the
 * splits its divergence scheme (div_*.c) reports, the first one that can issue
 * wins. Timing conventions (docs/model.md):
 *  - an instruction issued at cycle t with latency L has its results available
 *    at t + L (a dependent instruction may issue at t + L);
 *  - blocking issue: the warp (stack) / the split's lanes (barrier) may not
 *    issue again before t + L; scoreboard issue: a split stalls only while a
 *    register it reads or writes has a pending write on one of its lanes;
 *  - latency by unit: ALU/CTRL alu_latency, SFU sfu_latency, global/local/
 *    generic memory through the ws_mem hook (fixed: mem_latency), shared
 *    smem_latency, .param/.const alu_latency, synchronisation alu_latency
 *    once released;
 *  - ADD/WAIT/YIELD: free under sbi (the scheme applies them as a split
 *    reaches them); under barrier issued like instructions, counted in
 *    div_insts (ws_div_ops.issues_div_ops);
 *  - when nothing can issue anywhere, time jumps straight to the earliest
 *    cycle at which a pending operation completes; the skipped slots are
 *    charged to the idle class of what each scheduler waits for.
 * `cycles` is the cycle at which the last issued operation completes.
 */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <stdarg.h>
#include "core_internal.h"
#include "warpsweep/passes.h"
#include "warpsweep/area.h"
#include "kcache.h"

/* Largest per-run simulator state (cores, warps, registers, ...) allocated. */
#define WS_MAX_SIM_STATE (4ull << 30)

/* ---------------------------------------------------------------- arena -- */
typedef struct ws_chunk {
    struct ws_chunk *next;
    size_t cap, used;
    _Alignas(64) unsigned char data[];
} ws_chunk;

struct ws_sim {
    ws_chunk *chunks, *cur;
    /* Transformed kernels and reference runs (kcache.c): the sweep's shared
     * cache, or a private one (kc_own); the entries this run uses stay
     * pinned in kc_pins until it ends. */
    ws_kcache *kc;
    int kc_own;
    ws_kc_pins kc_pins;
    const ws_memimage *ref_img;      /* the final memory of the last reference_for */
    struct ws_work {                 /* the last reference_work */
        int status;
        uint64_t thread_insts;
    } work;
    ws_simrun run;
    /* per launch of the last run (ws_sim_launches); grows by doubling and is
     * kept across runs, so a sweep's runs stop allocating after the first */
    ws_launch_stats *ls;
    uint32_t nls, capls;
};

static void arena_reset(ws_sim *s)
{
    for (ws_chunk *c = s->chunks; c; c = c->next) c->used = 0;
    s->cur = s->chunks;
}

static void *arena_alloc(ws_sim *s, size_t n)
{
    n = (n + 63) & ~(size_t)63;
    if (n == 0) n = 64;
    ws_chunk *c = s->cur;
    while (c && c->used + n > c->cap) c = c->next;
    if (!c) {
        size_t cap = n > ((size_t)4 << 20) ? n : ((size_t)4 << 20);
        c = malloc(sizeof(ws_chunk) + cap);
        if (!c) return NULL;
        c->cap = cap;
        c->used = 0;
        c->next = NULL;
        ws_chunk **pp = &s->chunks;
        while (*pp) pp = &(*pp)->next;
        *pp = c;
    }
    s->cur = c;
    void *p = c->data + c->used;
    c->used += n;
    memset(p, 0, n);
    return p;
}

ws_sim *ws_sim_new_shared(ws_kcache *kc)
{
    ws_sim *s = calloc(1, sizeof(ws_sim));
    if (!s) return NULL;
    s->kc = kc;
    if (!kc) {
        s->kc = ws_kcache_new();
        s->kc_own = 1;
        if (!s->kc) { free(s); return NULL; }
    }
    return s;
}

ws_sim *ws_sim_new(void) { return ws_sim_new_shared(NULL); }

void ws_sim_free(ws_sim *s)
{
    if (!s) return;
    for (ws_chunk *c = s->chunks, *n; c; c = n) {
        n = c->next;
        free(c);
    }
    ws_kcache_release(s->kc, &s->kc_pins);
    free(s->kc_pins.e);
    if (s->kc_own) ws_kcache_free(s->kc);
    free(s->run.tl);
    free(s->ls);
    free(s);
}

/* The reference run for (wl, seed, warp size), from the cache (kcache.c:
 * once per sweep) with its final memory in s->ref_img; in lock-step mode for
 * a sampled run (docs/sampling.md), whose fast-forward already assumes a
 * race-free kernel. */
static const ws_result *reference_for(ws_sim *s, const ws_workload *wl, uint64_t seed, uint32_t ws,
                                      uint64_t max_steps, int lockstep)
{
    return ws_kcache_reference(s->kc, &s->kc_pins, wl, seed, ws, max_steps, lockstep, &s->ref_img);
}

/* Barrier slots of a warp: the barrier_regs B registers, or more when the
 * pass spilled some (passes.h: a spilled barrier keeps its own slot, standing
 * for the general register BMOV moves it to). */
static unsigned barrier_slots(const ws_kernel *k, unsigned nbar)
{
    for (uint32_t i = 0; i < k->ninsts; i++) {
        const ws_inst *in = &k->insts[i];
        if ((in->op == WS_OP_BADD || in->op == WS_OP_BWAIT || in->op == WS_OP_BMOV) && in->barrier >= nbar)
            nbar = in->barrier + 1u;
    }
    return nbar;
}

/* The kernel a run executes: k list-scheduled (scheduled: inst_order = ptxas,
 * passes.h ws_list_schedule), then through the convergence-barrier pass
 * (barrier; 2: then ws_barrier_sink_release), from the cache (kcache.c: once
 * per sweep); k itself when neither. */
static const ws_kernel *run_kernel(ws_sim *s, const ws_kernel *k, int scheduled, unsigned budget, int barrier,
                                   unsigned nregs, int yield, ws_error *err)
{
    return ws_kcache_kernel(s->kc, &s->kc_pins, k, scheduled, budget, barrier, nregs, yield, err);
}

/* ------------------------------------------------------------- helpers -- */
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

static inline int is_cta_barrier(const ws_inst *in)
{
    return in->op == WS_OP_BAR || in->op == WS_OP_BARRIER;
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

/* Every live lane waits at a CTA barrier, or is parked behind lanes that do
 * (ws_div_ops.parked: they count as arrived, see parked_at). */
int ws_core_parked_at_barrier(const ws_core *c, uint32_t slot)
{
    const ws_cwarp *w = &c->warps[slot];
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

/* ------------------------------------------------------------ launching -- */
/* An event (a warp added, finished, parked or released) may let a warp of
 * scheduler p issue earlier than p's cached bounds say. */
static void pipe_changed(ws_pipe *p)
{
    p->idle_until = 0;
    p->hard_min = 0;
}

static void launch_cta(ws_simrun *r, ws_core *c, uint32_t slot)
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
        w->wake = 0;
        w->wake_reason = 0;
        w->busy_until = 0;
        w->ib_ready = 0;
        w->ib_pc = UINT32_MAX;
        w->ib_left = 0;
        w->next_pc = UINT32_MAX;
        w->last_unit = WS_NUNITS;
        w->stall_res = WS_RES_NONE;
        w->deps_pc = UINT32_MAX;
        c->walk[hw] = WS_WALK_TRY;
        w->cpa_open = 0;
        w->cpa_ngroups = 0;
        w->cpa_hold = 0;
        c->pipes[w->sched].n_live++;
        memset(w->lane_ready, 0, sizeof(uint64_t) * r->ws);
        memset(w->lane_mem, 0, r->ws);
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
    if (++c->live_ctas == r->ctas_per_core) r->cores_short--;
}

static uint32_t fill_core(ws_simrun *r, ws_core *c)
{
    uint32_t n = 0;
    for (uint32_t s = 0; s < r->ctas_per_core && r->next_cta < r->total_ctas; s++)
        if (!c->ctas[s].live) {
            launch_cta(r, c, s);
            n++;
        }
    return n;
}

static void track_residency(ws_simrun *r, ws_core *c, uint64_t *max_ctas)
{
    if (c->live_ctas > *max_ctas) *max_ctas = c->live_ctas;
    (void)r;
}

/* w no longer waits only for a resource (it issued, was released, finished). */
static void forget_stall(ws_core *c, ws_cwarp *w)
{
    if (w->stall_res == WS_RES_NONE) return;
    ws_pipe *p = &c->pipes[w->sched];
    if (!--p->n_res[w->stall_res]) p->res_mask &= ~(1u << w->stall_res);
    p->n_waiting--;
    w->stall_res = WS_RES_NONE;
    c->walk[w - c->warps] = WS_WALK_TRY;
}

/* w waits for resource res until `until` and for nothing else. */
static void note_stall(ws_core *c, ws_cwarp *w, uint8_t res, uint64_t until)
{
    forget_stall(c, w);
    w->stall_wake = until;
    if (res == WS_RES_NONE) return;
    ws_pipe *p = &c->pipes[w->sched];
    if (!p->n_res[res]++) p->res_mask |= 1u << res;
    p->n_waiting++;
    w->stall_res = res;
    c->walk[w - c->warps] = res;
}

/* No warp of scheduler p can issue at `now`: every live warp waits either
 * for a resource busy at `now` or (hard_min) for something that ends later.
 * Returns the first cycle one of them may issue (> now) and sets *why, else
 * 0 (walk the warps). */
static uint64_t none_can_issue(const ws_simrun *r, const ws_core *c, const ws_pipe *p, uint64_t now, uint8_t *why)
{
    if (!p->n_live) return 0;
    uint64_t first = WS_NEVER;
    *why = WS_STALL_UNIT;
    if (p->n_waiting != p->n_live) {
        if (p->hard_min <= now) return 0;
        first = p->hard_min;
        *why = p->hard_reason;
    }
    for (uint32_t m = p->res_mask; m; m &= m - 1) {
        uint8_t res = (uint8_t)__builtin_ctz(m);
        uint64_t t = ws_pipe_resource_free(r, c, p, res);
        if (t <= now) return 0;
        if (t <= first) { first = t; *why = WS_STALL_UNIT; }
    }
    return first;
}

/* ------------------------------------------------------ CTA barriers -- */
/* Tells the warp's scheduler that its CTA-barrier or exit state changed. */
static void note_parking(ws_core *c, ws_cwarp *w, uint32_t slot)
{
    pipe_changed(&c->pipes[w->sched]);
    ws_sched *s = &c->scheds[w->sched];
    if (s->ops->parking) s->ops->parking(s, slot);
}

static void fail(ws_simrun *r, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void wake_cta(ws_core *c, const ws_ccta *ct);

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
        fail(r, WS_ST_ERROR, "%s: CTA %u: barrier %u was reached by %u threads with bar.red and %u with bar.sync/"
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
    if (r->div->parts) wake_cta(c, ct);   /* tbc: the released threads' dynamic warps live on other slots */
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

static void cta_check_bars(ws_simrun *r, ws_core *c, ws_ccta *ct, uint64_t now)
{
    for (uint32_t b = 0; b < WS_CTA_BARS; b++) {
        if (!ct->bar_arrived[b]) continue;
        uint32_t need = ct->bar_expect[b] ? ct->bar_expect[b] : ct->live_threads;
        if (ct->bar_arrived[b] >= need || ct->bar_arrived[b] + parked_at(r, c, ct, b) >= need)
            cta_release(r, c, ct, b, now);
    }
}

/* ------------------------------------------------------------- issuing -- */
static void fail(ws_simrun *r, int status, const char *fmt, ...)
{
    if (r->status >= 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->msg, sizeof r->msg, fmt, ap);
    va_end(ap);
    r->status = status;
}

static void warp_finished(ws_simrun *r, ws_core *c, uint32_t slot)
{
    ws_cwarp *w = &c->warps[slot];
    w->live = 0;
    ws_sched *s = &c->scheds[w->sched];
    s->ops->remove(s, slot);
    forget_stall(c, w);
    c->walk[slot] = WS_WALK_DEAD;
    pipe_changed(&c->pipes[w->sched]);
    c->pipes[w->sched].n_live--;
    uint32_t d, sp;
    r->div->stats(w->div, &d, &sp);
    if (d > r->max_depth) r->max_depth = d;
    if (sp > r->max_splits) r->max_splits = sp;
    ws_ccta *ct = &c->ctas[w->cta_slot];
    if (++ct->warps_done == ct->nwarps) {
        ct->live = 0;
        if (c->live_ctas-- == r->ctas_per_core) r->cores_short++;
        r->done_ctas++;
    }
}

/* Timing state after lanes `mask` of w issued `in`, complete at `done`:
 * blocking issue holds the lanes (barrier) or the warp (stack); scoreboard
 * issue marks the registers `in` writes as pending on those lanes. */
static void note_pending(ws_simrun *r, ws_cwarp *w, const ws_inst *in, uint64_t mask, uint64_t done, int is_mem,
                         uint64_t now)
{
    if (r->blocking) {
        uint64_t lanes = r->div->per_lane_blocking ? mask : w->fw.valid;
        for (uint64_t m = lanes; m; m &= m - 1) {
            uint32_t l = (uint32_t)__builtin_ctzll(m);
            w->lane_ready[l] = done;
            w->lane_mem[l] = (uint8_t)is_mem;
        }
        if (done > w->busy_until) w->busy_until = done;
    } else {
        for (uint32_t i = 0; i < in->n_wr; i++) {
            uint32_t reg = in->wr[i];
            if (reg >= r->nregs) continue;
            if (w->sb_ready[reg] <= now) {
                w->sb_mask[reg] = mask;
                w->sb_ready[reg] = done;
                w->sb_mem[reg] = (uint8_t)is_mem;
            } else {
                w->sb_mask[reg] |= mask;
                if (done >= w->sb_ready[reg]) {
                    w->sb_ready[reg] = done;
                    w->sb_mem[reg] = (uint8_t)is_mem;
                }
            }
        }
    }
}

/* cp.async timing (docs/model.md, "Asynchronous copies"): a copy's global read goes through
 * the memory hierarchy as a load does (and its line requests through the LD/ST pipe); it
 * writes no register, so the warp goes on at once and the copy only counts for its group;
 * commit_group closes the group, wait_group N holds the warp (cpa_hold) until every group
 * but the newest N has completed (wait_all: commit, then N = 0). Returns the instruction's
 * completion. */
static uint64_t cp_async_timing(ws_simrun *r, ws_core *c, ws_cwarp *w, uint32_t slot, const ws_inst *in,
                                ws_effect *eff, uint64_t t0, uint64_t now)
{
    if (in->subop == WS_CPA_COPY) {
        if (eff->mem_kind) {
            uint32_t lines = 1;
            ws_mem_req req = {.cycle = t0, .core = c->id, .warp = slot, .inst = in, .eff = eff, .lines_out = &lines};
            uint64_t done = r->memsys.ops->access(&r->memsys, &req);
            uint64_t cycles = ws_lsu_occupy(r, c, (uint64_t)lines * r->l1_line, now);
            if (cycles > 1) done += cycles - 1;
            if (done > w->cpa_open) w->cpa_open = done;
            if (done > r->last_complete) r->last_complete = done;   /* the kernel ends after its copies */
        }
        return t0 + 1;
    }
    if (in->subop == WS_CPA_COMMIT || in->subop == WS_CPA_WAIT_ALL) {
        if (w->cpa_ngroups == WS_CPA_GROUPS) {   /* merge the two oldest groups */
            if (w->cpa_group[1] < w->cpa_group[0]) w->cpa_group[1] = w->cpa_group[0];
            memmove(w->cpa_group, w->cpa_group + 1, sizeof w->cpa_group[0] * (WS_CPA_GROUPS - 1));
            w->cpa_ngroups--;
        }
        w->cpa_group[w->cpa_ngroups++] = w->cpa_open;
        w->cpa_open = 0;
        if (in->subop == WS_CPA_COMMIT) return t0 + 1;
    }
    uint32_t keep = in->subop == WS_CPA_WAIT ? (uint32_t)in->src[0].imm : 0;
    uint64_t ready = t0 + 1;
    while (w->cpa_ngroups > keep) {
        if (w->cpa_group[0] > ready) ready = w->cpa_group[0];
        memmove(w->cpa_group, w->cpa_group + 1, sizeof w->cpa_group[0] * (w->cpa_ngroups - 1));
        w->cpa_ngroups--;
    }
    if (ready > w->cpa_hold) w->cpa_hold = ready;
    return ready;
}

/* Issues split sp of warp `slot`. Returns 0 or -1 (status set). */
/* Hands the L1 events of the load just issued (mem.h ws_mem_events) to the
 * schedulers of the warps they concern (an eviction may concern a warp of
 * another scheduler), which may change their order. */
static void sched_mem_events(ws_simrun *r, ws_core *c, uint64_t now)
{
    for (uint32_t i = 0; i < r->mev.n; i++) {
        const ws_mem_event *ev = &r->mev.ev[i];
        if (ev->warp >= r->nwarps) continue;
        uint32_t si = c->warps[ev->warp].sched;
        c->scheds[si].ops->mem_event(&c->scheds[si], ev, now);
        c->pipes[si].idle_until = 0;
    }
    r->mev.n = 0;
}

/* Lanes in a mask, without the libgcc call __builtin_popcountll becomes on a
 * baseline x86-64 build (no POPCNT): once per issued instruction. */
static inline uint64_t lanes_in(uint64_t m)
{
    m = m - ((m >> 1) & 0x5555555555555555ull);
    m = (m & 0x3333333333333333ull) + ((m >> 2) & 0x3333333333333333ull);
    m = (m + (m >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (m * 0x0101010101010101ull) >> 56;
}

/* The physical warps a split runs on, and its lanes in each: the split's own
 * warp, or under a CTA-scope scheme (tbc) each warp contributing threads to
 * the dynamic warp (ws_div_ops.parts). Lane positions are disjoint. */
typedef struct ws_part {
    uint32_t slot;
    uint64_t mask, executed, exited;
} ws_part;

/* The lanes that issue at cycle now (deadlock.c: a split the policy starves).
 * Only a policy that can hold loads (ccws, daws) starves a split, so the
 * other schedulers skip the per-lane loop. */
static void stamp_lanes(const ws_core *c, ws_cwarp *w, uint64_t lanes, uint64_t now)
{
    if (!c->scheds[w->sched].ops->may_issue_load) return;
    for (uint64_t m = lanes; m; m &= m - 1) w->lane_issue[__builtin_ctzll(m)] = now + 1;
}

static uint32_t split_parts(ws_simrun *r, ws_core *c, uint32_t slot, const ws_split *sp, ws_part *pt)
{
    if (!r->div->parts) {
        pt[0] = (ws_part){.slot = slot, .mask = sp->mask};
        return 1;
    }
    const ws_cwarp *w = &c->warps[slot];
    const ws_ccta *ct = &c->ctas[w->cta_slot];
    r->div->parts(w->div, sp, r->part_lanes);
    uint32_t n = 0;
    for (uint32_t i = 0; i < ct->nwarps; i++)
        if (r->part_lanes[i]) pt[n++] = (ws_part){.slot = ct->first_warp + i, .mask = r->part_lanes[i]};
    return n;
}

/* Executes `in` on every part, each on its own warp's registers, and merges
 * the effects by lane position (one dynamic warp's access to the memory
 * system, one outcome for the scheme). */
static int exec_parts(ws_simrun *r, ws_core *c, const ws_inst *in, uint32_t pc, ws_part *pt, uint32_t np,
                      ws_effect *eff)
{
    if (np == 1) {
        int rc = ws_exec_inst(&r->env, &c->warps[pt[0].slot].fw, in, pc, pt[0].mask, eff);
        pt[0].executed = eff->executed;
        pt[0].exited = eff->exited;
        return rc;
    }
    ws_effect e;
    eff->executed = eff->taken = eff->exited = eff->mem_mask = 0;
    eff->mem_space = WS_SP_NONE;
    eff->mem_kind = 0;
    eff->mem_bytes = 0;
    for (uint32_t q = 0; q < np; q++) {
        if (ws_exec_inst(&r->env, &c->warps[pt[q].slot].fw, in, pc, pt[q].mask, &e) != WS_EXEC_OK) return WS_EXEC_FAULT;
        pt[q].executed = e.executed;
        pt[q].exited = e.exited;
        eff->executed |= e.executed;
        eff->taken |= e.taken;
        eff->exited |= e.exited;
        for (uint64_t m = pt[q].mask; m; m &= m - 1) {
            uint32_t l = (uint32_t)__builtin_ctzll(m);
            eff->lane_target[l] = e.lane_target[l];
        }
        if (!e.mem_kind) continue;
        if (!eff->mem_kind || e.mem_space == WS_SP_GLOBAL) eff->mem_space = e.mem_space;
        eff->mem_kind = e.mem_kind;
        eff->mem_bytes = e.mem_bytes;
        eff->mem_mask |= e.mem_mask;
        for (uint64_t m = e.mem_mask; m; m &= m - 1) {
            uint32_t l = (uint32_t)__builtin_ctzll(m);
            eff->mem_addr[l] = e.mem_addr[l];
            eff->mem_lane_space[l] = e.mem_lane_space[l];
        }
    }
    return WS_EXEC_OK;
}

/* A CTA-scope scheme changed the CTA's dynamic warps: its warps look again. */
static void wake_cta(ws_core *c, const ws_ccta *ct)
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
static void bar_arrive(ws_simrun *r, ws_core *c, ws_ccta *ct, uint32_t slot, const ws_inst *in, uint64_t executed)
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

/* Some lane of the parts' warps waits at a CTA barrier. */
static int parts_held(const ws_core *c, const ws_part *pt, uint32_t np)
{
    for (uint32_t q = 0; q < np; q++)
        if (c->warps[pt[q].slot].held) return 1;
    return 0;
}

/* The divergence scheme's view of an issue: each split of a gathered
 * .aligned instruction (parts, n > 1; see aligned_members) moves on its own,
 * with the effect restricted to its lanes. */
static int update_splits(ws_simrun *r, ws_cwarp *w, const ws_split *sp, const ws_split *parts, uint32_t n,
                         const ws_inst *in, const ws_effect *eff, char *err, size_t len)
{
    if (n <= 1) return r->div->update(&r->divctx, w->div, sp, in, eff, err, len);
    int moved = 0;
    for (uint32_t i = 0; i < n; i++) {
        ws_effect e = *eff;
        e.executed &= parts[i].mask;
        e.mem_mask &= parts[i].mask;
        e.taken &= parts[i].mask;
        e.exited &= parts[i].mask;
        int m = r->div->update(&r->divctx, w->div, &parts[i], in, &e, err, len);
        if (m < 0) return m;
        if (m > 0) moved = m;
    }
    return moved;
}

static int issue(ws_simrun *r, ws_core *c, uint32_t slot, const ws_split *spp, uint32_t level, uint64_t now,
                 const ws_split *gathered, uint32_t ngathered)
{
    ws_cwarp *w = &c->warps[slot];
    const ws_split sp = *spp;
    const ws_inst *in = &r->k->insts[sp.pc];
    ws_effect eff;
    ws_part pt[WS_MAX_WARP_SIZE];
    uint32_t np = split_parts(r, c, slot, &sp, pt);
    r->env.clock = now;
    if (exec_parts(r, c, in, sp.pc, pt, np, &eff) != WS_EXEC_OK) {
        fail(r, WS_ST_ERROR, "%s", r->env.fault);
        return -1;
    }
    if (r->ll_watching && eff.mem_kind) ws_livelock_watch(r, in, sp.pc, &eff);
    for (uint32_t q = 0; q < np; q++) stamp_lanes(c, &c->warps[pt[q].slot], pt[q].mask, now);
    /* latency: the unit's (or the LD/ST path's), after the operand reads */
    uint64_t done;
    int is_mem = 0;
    uint64_t t0 = now + ws_pipe_issue(r, c, w, slot, in, now);
    switch (in->op) {
    case WS_OP_LD: case WS_OP_LDU: case WS_OP_ST: case WS_OP_ATOM: case WS_OP_RED: case WS_OP_LDMATRIX: case WS_OP_WMMA_LOAD: case WS_OP_WMMA_STORE: case WS_OP_STMATRIX:
    case WS_OP_MBARRIER: case WS_OP_TEX: case WS_OP_TLD4: case WS_OP_TXQ: case WS_OP_SULD: case WS_OP_SUST:
        if (eff.mem_kind == 0) done = t0 + r->lat_alu;
        else if (eff.mem_space == WS_SP_SHARED) {
            /* a bank conflict of degree d is replayed d - 1 times (broadcasts
             * are free); each of the d wavefronts takes the LD/ST pipe */
            uint32_t deg = ws_smem_conflict_degree(&eff, r->smem_banks);
            uint64_t extra = deg > 1 ? deg - 1 : 0;
            r->smem_conflicts += extra;
            ws_lsu_occupy(r, c, (uint64_t)(deg ? deg : 1) * r->smem_banks * 4, now);
            done = t0 + r->lat_smem + extra;
        }
        else if (eff.mem_space == WS_SP_CONST && r->lat_const)
            done = ws_mem_const_done(&eff, t0, r->lat_const);   /* constant cache (docs/memory.md) */
        else if (eff.mem_space == WS_SP_PARAM || eff.mem_space == WS_SP_CONST) done = t0 + r->lat_alu;
        else {
            uint32_t lines = 1;
            ws_mem_req req = {.cycle = t0, .core = c->id, .warp = slot, .inst = in, .eff = &eff, .lines_out = &lines};
            if (r->mev.cap) { r->mev.n = 0; req.events = &r->mev; }
            done = r->memsys.ops->access(&r->memsys, &req);
            if (r->sched->load_access && (in->op == WS_OP_LD || in->op == WS_OP_LDU))
                r->sched->load_access(&c->scheds[w->sched], slot, sp.pc, lines, (uint32_t)lanes_in(eff.mem_mask), now);
            if (r->mev.n) sched_mem_events(r, c, now);
            if (done <= t0) done = t0 + 1;
            /* the line requests leave the LD/ST pipe one after another */
            uint64_t cycles = ws_lsu_occupy(r, c, (uint64_t)lines * r->l1_line, now);
            if (cycles > 1) done += cycles - 1;
            if (in->op == WS_OP_TEX || in->op == WS_OP_TLD4 || in->op == WS_OP_SULD || in->op == WS_OP_SUST)
                done += r->lat_tex;   /* texture pipeline */
            is_mem = 1;
        }
        break;
    case WS_OP_CP_ASYNC:
        done = cp_async_timing(r, c, w, slot, in, &eff, t0, now);
        break;
    default:
        done = t0 + r->pinst[sp.pc].lat;
        break;
    }
    if (done > r->last_complete) r->last_complete = done;
    for (uint32_t q = 0; q < np; q++) note_pending(r, &c->warps[pt[q].slot], in, pt[q].mask, done, is_mem, now);
    if ((r->div->issues_div_ops && ws_is_div_op(in->op)) || in->op == WS_OP_BMOV) {
        r->div_insts++;                  /* own metric: warp_insts stays comparable */
    } else {
        r->warp_insts++;
        r->thread_insts += lanes_in(sp.mask);
    }
    if (r->opts && (r->opts->trace || r->opts->timeline)) ws_trace_issue(r, c->id, slot, level, &sp, in);
    /* control */
    char err[WS_ERROR_LEN];
    int moved = update_splits(r, w, &sp, gathered, ngathered, in, &eff, err, sizeof err);
    if (moved < 0) {
        fail(r, WS_ST_ERROR, "%s: warp %u: %s", r->k->path ? r->k->path : "kernel", slot, err);
        return -1;
    }
    ws_ccta *ct = &c->ctas[w->cta_slot];
    if (moved > 0) wake_cta(c, ct);
    else if (r->div->parts) note_parking(c, w, slot);   /* its dynamic warp may wait now */
    w->wake = 0;
    w->deps_pc = UINT32_MAX;
    forget_stall(c, w);
    if (r->fence_stores && (in->op == WS_OP_MEMBAR || in->op == WS_OP_FENCE) && in->subop != 1 /* WS_SCOPE_CTA, src/ptx/ptx_internal.h */) {
        /* membar.gl/.sys, fence.gpu/.sys: the warp waits until its stores are
         * done (docs/memory.md); .cta is ordered at the L1 and costs alu_latency */
        uint64_t f = ws_mem_fence(&r->memsys, c->id, slot, done);
        if (f > done) { w->wake = f; w->wake_reason = WS_STALL_MEM; }
    }
    if (is_cta_barrier(in) && eff.executed) {
        for (uint32_t q = 0; q < np; q++)
            if (pt[q].executed) bar_arrive(r, c, ct, pt[q].slot, in, pt[q].executed);
        if (r->div->parts) note_parking(c, w, slot);   /* the host's dynamic warp waits at the barrier */
        cta_check_bars(r, c, ct, now);
    } else if (r->div->parked && parts_held(c, pt, np)) {
        for (uint32_t q = 0; q < np; q++) note_parking(c, &c->warps[pt[q].slot], pt[q].slot);
        cta_check_bars(r, c, ct, now);   /* lanes may now be parked behind held ones */
    }
    if (eff.exited) {
        for (uint32_t q = 0; q < np; q++) {
            if (!pt[q].exited) continue;
            ws_cwarp *wq = &c->warps[pt[q].slot];
            wq->exited |= pt[q].exited;
            note_parking(c, wq, pt[q].slot);
            uint32_t n = (uint32_t)__builtin_popcountll(pt[q].exited);
            ct->live_threads -= n;
            r->exits_total += n;
        }
        cta_check_bars(r, c, ct, now);
        for (uint32_t q = 0; q < np; q++) {
            ws_cwarp *wq = &c->warps[pt[q].slot];
            if (pt[q].exited && (wq->exited & wq->fw.valid) == wq->fw.valid) warp_finished(r, c, pt[q].slot);
        }
    }
    ws_front_end_issued(r, c, w, sp.pc, now);
    ws_sched *s = &c->scheds[w->sched];
    s->ops->issued(s, slot, now);
    if (in->is_backedge && ws_livelock_backedge(r, c, slot, sp.pc, sp.mask)) return -1;
    return 0;
}

/* ------------------------------------------------- warp-level .sync ops -- */
/* The lanes named by the membermasks of the lanes `lanes` of w at `in` (each
 * lane reads its own; a 32-bit mask per 32-lane group, exec.h), restricted to
 * lanes that hold a thread and have not exited. */
static uint64_t sync_members(const ws_simrun *r, const ws_cwarp *w, const ws_operand *mo, uint64_t lanes)
{
    uint64_t need = 0;
    for (uint64_t m = lanes; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(m);
        uint64_t mm = mo->kind == WS_OK_IMM ? (uint64_t)mo->imm
                      : mo->kind == WS_OK_REG ? ws_reg_lanes(&w->fw, mo->reg, r->ws)[l] : 0xffffffffull;
        need |= (mm & 0xffffffffull) << (l & ~31u);
    }
    return need & w->fw.valid & ~w->exited;
}

/* The lanes of `lanes` (one split, at one .sync op) that may go: a lane
 * whose membermask names a lane of the split passing another membermask
 * value waits for it (the PTX ISA: all threads of the membermask execute the
 * op "with the same membermask value"), e.g. lanes an iteration ahead of the
 * others that meet them at the same PC with another mask. Lanes in tiles
 * (each its own mask) all go. */
static uint64_t consistent_members(const ws_simrun *r, const ws_cwarp *w, const ws_operand *mo, uint64_t lanes)
{
    uint64_t val[WS_MAX_WARP_SIZE], with[WS_MAX_WARP_SIZE];
    uint32_t nv = 0;
    for (uint64_t m = lanes; m; m &= m - 1) {        /* the distinct mask values, and their lanes */
        uint64_t v = sync_members(r, w, mo, m & -m), i = 0;
        while (i < nv && val[i] != v) i++;
        if (i == nv) { val[nv] = v; with[nv] = 0; nv++; }
        with[i] |= m & -m;
    }
    if (nv == 1) return lanes;
    uint64_t go = 0;
    for (uint32_t i = 0; i < nv; i++)
        if (!(val[i] & lanes & ~with[i])) go |= with[i];
    return go;
}

/* A split without its lanes held at a CTA barrier (barrier scheme: the
 * others may go on); 0 if none is left or the scheme holds the whole split. */
static int split_free_part(const ws_simrun *r, const ws_cwarp *w, const ws_split *sp, ws_split *out)
{
    *out = *sp;
    if (sp->mask & w->held) {
        if (!r->div->per_lane_blocking || !(sp->mask & ~w->held)) return 0;
        out->mask &= ~w->held;
    }
    return 1;
}

/* Parts at different PCs meet only with one membermask value per 32-lane
 * group (the PTX ISA: threads that "executed <op>.sync with the same
 * qualifiers and same membermask value"): a lane waiting at another .sync op
 * of the same kind for another set of lanes is not part of this one. */
static int same_membermask(const ws_simrun *r, const ws_cwarp *w, const ws_split *parts, uint32_t n)
{
    uint64_t value[2] = {0, 0};
    uint8_t have[2] = {0, 0};
    for (uint32_t i = 0; i < n; i++) {
        const ws_operand *mo = ws_warp_membermask(&r->k->insts[parts[i].pc]);
        for (uint64_t m = parts[i].mask; m; m &= m - 1) {
            uint32_t l = (uint32_t)__builtin_ctzll(m), g = l >> 5;
            uint64_t v = sync_members(r, w, mo, m & -m);
            if (!have[g]) { have[g] = 1; value[g] = v; }
            else if (value[g] != v) return 0;
        }
    }
    return 1;
}

/* The lanes an .aligned instruction (mma, ldmatrix, stmatrix, the wmma
 * parts) needs with the lanes `lanes`: every live lane of their 32-lane
 * groups (the PTX ISA: "all threads in the warp must execute the same
 * instruction"). Schemes with independent thread scheduling gather the
 * splits waiting there into one issue, as the hardware's convergence before
 * such an instruction does, instead of faulting on a partial warp when a
 * convergence barrier let some lanes through early. */
static uint64_t aligned_members(const ws_cwarp *w, uint64_t lanes)
{
    uint64_t groups = 0;
    for (uint32_t g = 0; g < WS_MAX_WARP_SIZE / 32; g++)
        if ((lanes >> (32 * g)) & 0xffffffffull) groups |= 0xffffffffull << (32 * g);
    return groups & w->fw.valid & ~w->exited;
}

/* Member lanes of w that count as arrived at the .sync operation at pc
 * without executing it (ws_div_ops.sync_parked): lanes blocked at a WAIT after
 * it that cannot move before the lanes waiting at operations of its kind do,
 * closed over lanes parked behind parked ones. The PTX ISA has the op wait for "all non-exited
 * threads" of its membermask, and CUDA lets a lane `return` before a
 * full-mask __shfl_sync; nvcc then merges the returning lanes' store into the
 * common tail and ptxas puts the BSYNC there, so in the PTX those lanes are
 * alive, blocked at the tail's WAIT for the lanes at the op, when the op
 * runs (the CTA-barrier rule of parked_at, for warp-level ops). They
 * contribute nothing, like a member whose guard is false. */
static uint64_t sync_parked_lanes(const ws_simrun *r, const ws_cwarp *w, uint32_t pc, const ws_split *sps,
                                  uint32_t ns)
{
    if (!r->div->sync_parked) return 0;
    const ws_inst *in = &r->k->insts[pc];
    uint64_t waiting = 0, parked = 0;
    for (uint32_t k = 0; k < ns; k++) {
        ws_split t;
        if (split_free_part(r, w, &sps[k], &t) && t.pc < r->k->ninsts && ws_warp_same_kind(in, &r->k->insts[t.pc]))
            waiting |= t.mask;
    }
    for (;;) {
        uint64_t p = r->div->sync_parked(&r->divctx, w->div, waiting | parked, pc) & ~waiting;
        if (!(p & ~parked)) break;
        parked |= p;
    }
    return parked & w->fw.valid & ~w->exited;
}

/* Collects the rendezvous of the .sync operation `in` that split parts[0]
 * waits at (docs/model.md, "Warp-level operations and member masks"): the
 * other ready splits holding member lanes must wait at an instruction of the
 * same kind (ws_warp_same_kind); their lanes' own membermasks join the set,
 * until every member lane is covered. Returns the number of parts, or 0 if a
 * member lane is elsewhere (not there yet, at another kind of operation, held
 * at a CTA barrier or blocked): the split keeps waiting. */
static uint32_t collect_rendezvous(const ws_simrun *r, const ws_cwarp *w, const ws_split *sps, uint32_t ns,
                                   uint32_t first, uint64_t need, uint64_t parked, ws_split *parts)
{
    const ws_inst *in = &r->k->insts[parts[0].pc];
    uint64_t covered = parts[0].mask, used = 1ull << first;
    uint32_t n = 1;
    while (need & ~covered) {
        uint32_t k = 0;
        ws_split t;
        for (; k < ns; k++) {
            if ((used >> k) & 1 || !split_free_part(r, w, &sps[k], &t)) continue;
            if (t.mask & need & ~covered) break;
        }
        if (k == ns || t.pc >= r->k->ninsts) return 0;
        const ws_inst *tin = &r->k->insts[t.pc];
        if (!ws_warp_same_kind(in, tin)) return 0;
        used |= 1ull << k;
        parts[n++] = t;
        covered |= t.mask;
        const ws_operand *tmo = ws_warp_membermask(tin);
        if (tmo) need |= sync_members(r, w, tmo, t.mask) & ~parked;
    }
    return n > 1 && ws_warp_membermask(in) && !same_membermask(r, w, parts, n) ? 0 : n;
}

/* Issues a rendezvous of n splits as ONE warp instruction over their union
 * (one issue slot, alu latency): the combine step runs once across the
 * instructions, then each split advances with its own instruction. */
static int issue_rendezvous(ws_simrun *r, ws_core *c, uint32_t slot, const ws_split *parts, uint32_t n,
                            uint64_t now)
{
    ws_cwarp *w = &c->warps[slot];
    ws_warp_part wp[WS_MAX_WARP_SIZE];
    uint64_t all = 0;
    for (uint32_t i = 0; i < n; i++) {
        wp[i] = (ws_warp_part){.in = &r->k->insts[parts[i].pc], .pc = parts[i].pc, .active = parts[i].mask};
        all |= parts[i].mask;
    }
    r->env.clock = now;
    if (ws_exec_warp_rendezvous(&r->env, &w->fw, wp, n) != WS_EXEC_OK) {
        fail(r, WS_ST_ERROR, "%s", r->env.fault);
        return -1;
    }
    stamp_lanes(c, w, all, now);
    uint64_t done = now + ws_pipe_issue(r, c, w, slot, wp[0].in, now) + ws_unit_latency(r, wp[0].in);
    if (done > r->last_complete) r->last_complete = done;
    r->warp_insts++;
    r->thread_insts += (uint64_t)__builtin_popcountll(all);
    for (uint32_t i = 0; i < n; i++) {
        note_pending(r, w, wp[i].in, parts[i].mask, done, 0, now);
        if (r->opts && (r->opts->trace || r->opts->timeline)) ws_trace_issue(r, c->id, slot, 0, &parts[i], wp[i].in);
        ws_effect eff;   /* a warp-level operation: no control flow, no memory access */
        eff.executed = wp[i].executed;
        eff.taken = eff.exited = eff.mem_mask = 0;
        eff.mem_space = WS_SP_NONE;
        eff.mem_kind = 0;
        eff.mem_bytes = 0;
        char err[WS_ERROR_LEN];
        if (r->div->update(&r->divctx, w->div, &parts[i], wp[i].in, &eff, err, sizeof err) < 0) {
            fail(r, WS_ST_ERROR, "%s: warp %u: %s", r->k->path ? r->k->path : "kernel", slot, err);
            return -1;
        }
    }
    w->wake = 0;
    w->deps_pc = UINT32_MAX;
    forget_stall(c, w);
    if (w->held && r->div->parked) {
        note_parking(c, w, slot);
        cta_check_bars(r, c, &c->ctas[w->cta_slot], now);
    }
    ws_front_end_issued(r, c, w, parts[0].pc, now);
    ws_sched *s = &c->scheds[w->sched];
    s->ops->issued(s, slot, now);
    return 0;
}

/* Under the stack only the TOS runs: a .sync operation whose member lanes
 * are on another path of the stack can never complete (pre-Volta, every
 * member must execute the same .sync instruction converged: undefined in the
 * PTX ISA for sm_6x). Reported at once as a SIMT deadlock. */
static void stack_sync_deadlock(ws_simrun *r, uint32_t slot, const ws_split *sp, const ws_inst *in, uint64_t missing)
{
    fail(r, WS_ST_DEADLOCK,
         "%s: warp %u: SIMT deadlock: %s at pc %u (PTX line %u) with lanes 0x%llx waits for member lanes 0x%llx "
         "that are on another path of the reconvergence stack (divergence=%s runs only the top entry%s; a .sync "
         "warp operation reached from different branches needs independent thread scheduling, divergence=barrier)",
         r->k->path ? r->k->path : "kernel", slot, ws_opcode_name(in->op), sp->pc, in->line,
         (unsigned long long)sp->mask, (unsigned long long)missing, r->div->name,
         r->div->parts ? ", each home warp's members within one dynamic warp" : "");
}

/* The cycle at which split sp (at `in`) may issue as far as timing goes
 * (<= now: it may issue now), with the stall class in *reason. */
static inline __attribute__((always_inline)) uint64_t split_ready_at(const ws_simrun *r, const ws_cwarp *w,
                                                                      const ws_split *sp, const ws_inst *in,
                                                                      uint64_t now, uint8_t *reason)
{
    uint64_t t = 0;
    uint8_t memr = 0;
    if (w->cpa_hold > now) { t = w->cpa_hold; memr = 1; }   /* a cp.async.wait_group (cp_async_timing) */
    if (r->blocking) {
        if (w->busy_until <= now) { *reason = memr ? WS_STALL_MEM : WS_STALL_DEP; return t; }
        if (r->div->per_lane_blocking) {
            for (uint64_t m = sp->mask; m; m &= m - 1) {
                uint32_t l = (uint32_t)__builtin_ctzll(m);
                if (w->lane_ready[l] > t) { t = w->lane_ready[l]; memr = w->lane_mem[l]; }
            }
        } else {
            t = w->busy_until;
            for (uint64_t m = sp->mask; m; m &= m - 1) {
                uint32_t l = (uint32_t)__builtin_ctzll(m);
                if (w->lane_ready[l] == t) { memr = w->lane_mem[l]; break; }
            }
        }
    } else {
        for (uint32_t q = 0; q < in->n_rd; q++) {
            uint32_t reg = in->rd[q];
            if (reg < r->nregs && w->sb_ready[reg] > now && (w->sb_mask[reg] & sp->mask) &&
                w->sb_ready[reg] > t) { t = w->sb_ready[reg]; memr = w->sb_mem[reg]; }
        }
        for (uint32_t q = 0; q < in->n_wr; q++) {
            uint32_t reg = in->wr[q];
            if (reg < r->nregs && w->sb_ready[reg] > now && (w->sb_mask[reg] & sp->mask) &&
                w->sb_ready[reg] > t) { t = w->sb_ready[reg]; memr = w->sb_mem[reg]; }
        }
    }
    *reason = memr ? WS_STALL_MEM : WS_STALL_DEP;
    return t;
}

/* The first index in [from, to) of list whose warp the skip mask does not
 * pass over, else to: the walk's inner loop, without a wrap test per warp. */
static inline uint32_t skip_run(const uint32_t *list, uint32_t from, uint32_t to, const uint8_t *walk,
                                uint64_t skip)
{
    while (from < to && (skip >> walk[list[from]] & 1)) from++;
    return from;
}

/* The walk's skip mask (ws_core.walk): dead warps and the resources some
 * warp of p waits for that are busy at `now`; *first: the first cycle one
 * of them frees. */
static uint64_t busy_resources(const ws_simrun *r, const ws_core *c, const ws_pipe *p, uint64_t now,
                               uint64_t *first, uint32_t *blocked)
{
    uint64_t mask = 1ull << WS_WALK_DEAD;
    *blocked = 0;
    for (uint32_t m = p->res_mask; m; m &= m - 1) {
        uint8_t res = (uint8_t)__builtin_ctz(m);
        uint64_t t = ws_pipe_resource_free(r, c, p, res);
        if (t <= now) continue;
        mask |= 1ull << res;
        *blocked += p->n_res[res];
        if (t < *first) *first = t;
    }
    return mask;
}

/* The warp a walk of `walked` warps from list[start] ended at. */
static ws_cwarp *last_issuer(ws_core *c, const uint32_t *list, uint32_t start, uint32_t walked, uint32_t n)
{
    return &c->warps[list[(start + walked - 1) % n]];
}

/* After a walk: the walk saw hm (reason hr) as the least wake of the warps
 * it passed that do not wait for a resource. A walk over every warp knows
 * the bound exactly; a walk that stopped at `issuer` lowers the old bound by
 * what it saw and by the issuer's new wake (the warps after it did not
 * change). */
static void note_hard_min(ws_pipe *p, const ws_cwarp *issuer, int all, uint64_t hm, uint8_t hr)
{
    if (issuer && issuer->stall_res == WS_RES_NONE && issuer->wake < hm) {
        hm = issuer->wake;
        hr = issuer->wake_reason;
    }
    if (all && !issuer) {
        p->hard_min = hm;
        p->hard_reason = hr;
    } else if (hm < p->hard_min) {
        p->hard_min = hm;
        p->hard_reason = hr;
    }
}

/* ws_front_end_ready_at with its common case (the buffer holds pc) inline. */
static inline uint64_t front_end_ready_at(const ws_simrun *r, ws_core *c, ws_cwarp *w, uint32_t pc, uint64_t now)
{
    if (!r->ibuf) return 0;
    if (pc == w->ib_pc && w->ib_left) return w->ib_ready;
    return ws_front_end_ready_at(r, c, w, pc, now);
}

/* After w issued at `now`: record when the try at now + 1 would find its
 * next instruction (one split) stalled, exactly as try_warp would: waiting
 * for an operand (a wake time), or with its operands but a busy unit, LD/ST
 * pipe or collector (a resource stall). The scheduler can then skip cycles
 * in which no warp can issue (none_can_issue) without trying each warp. */
static void prestall(ws_simrun *r, ws_core *c, ws_cwarp *w, uint64_t now)
{
    const ws_split *sps;
    uint32_t start;
    if (w->wake > now + 1) return;        /* issue() already holds the warp longer (a fence) */
    if (r->div->parts) return;            /* dynamic warps: their parts' timing is looked up per try */
    if (!w->live || r->div->splits(w->div, &sps, &start) != 1) return;
    ws_split sp;
    if (!split_free_part(r, w, &sps[0], &sp) || sp.pc >= r->k->ninsts) return;
    const ws_inst *in = &r->k->insts[sp.pc];
    if (r->pinst[sp.pc].membermask) return;
    uint8_t why, res = WS_RES_NONE;
    uint64_t t = split_ready_at(r, w, &sp, in, now + 1, &why);
    if (t > now + 1) {
        w->wake = t;
        w->wake_reason = why;
        return;
    }
    w->deps_pc = sp.pc;
    w->deps_mask = sp.mask;
    t = ws_pipe_ready_at(r, c, w, in, now + 1, &why, &res);
    if (t <= now + 1 || res == WS_RES_NONE) return;
    w->wake = t;
    w->wake_reason = WS_STALL_UNIT;
    note_stall(c, w, res, t);
}

/* Can scheduler s's policy hold instruction `in`: a global/local (or
 * generic) load, e.g. ccws for throttled warps? */
int ws_core_load_gated(const ws_sched *s, const ws_inst *in)
{
    return s->ops->may_issue_load && (in->op == WS_OP_LD || in->op == WS_OP_LDU) && in->space != WS_SP_SHARED &&
           in->space != WS_SP_CONST && in->space != WS_SP_PARAM;
}

/* May warp `slot` issue load `in` now? */
static int load_allowed(ws_core *c, uint32_t slot, const ws_inst *in, uint64_t now)
{
    ws_sched *s = &c->scheds[c->warps[slot].sched];
    if (!ws_core_load_gated(s, in)) return 1;
    return s->ops->may_issue_load(s, slot, now);
}

/* Tries to issue from warp `slot`. Returns 1 if it issued, 0 if stalled
 * (w->wake / wake_reason set), -1 on a terminal error. `dual`: a second
 * instruction in the same cycle (issue_width > 1, GPGPU-Sim's dual issue):
 * only the instruction after the one just issued, on another unit, not a
 * warp-level rendezvous; a stall leaves w->wake alone and says why in
 * *dual_why. */
static int try_splits(ws_simrun *r, ws_core *c, uint32_t slot, uint64_t now, int dual, uint8_t *dual_why);

/* try_splits, and when the warp has nothing it could ever issue, the
 * scheme's clock (ws_div_ops.tick: aware's timeout): what it releases is
 * tried at once, else the warp wakes when the next timeout runs out. */
static int try_warp(ws_simrun *r, ws_core *c, uint32_t slot, uint64_t now, int dual, uint8_t *dual_why)
{
    ws_cwarp *w = &c->warps[slot];
    for (;;) {
        int rc = try_splits(r, c, slot, now, dual, dual_why);
        if (rc || dual || !r->div->tick || w->wake != WS_NEVER) return rc;
        char err[WS_ERROR_LEN];
        uint64_t next = WS_NEVER;
        int t = r->div->tick(&r->divctx, w->div, now, &next, err, sizeof err);
        if (t < 0) {
            fail(r, WS_ST_ERROR, "%s: warp %u: %s", r->k->path ? r->k->path : "kernel", slot, err);
            return -1;
        }
        if (t) continue;
        w->wake = next;
        note_stall(c, w, WS_RES_NONE, next);
        return 0;
    }
}

static int try_splits(ws_simrun *r, ws_core *c, uint32_t slot, uint64_t now, int dual, uint8_t *dual_why)
{
    ws_cwarp *w = &c->warps[slot];
    const ws_split *sps;
    uint32_t start;
    uint32_t ns = r->div->splits(w->div, &sps, &start);
    uint64_t best = WS_NEVER;
    uint8_t reason = WS_STALL_SYNC, best_res = WS_RES_NONE;
    const ws_inst *insts = r->k->insts;
    ws_split parts[WS_MAX_WARP_SIZE];
    ws_part pt[WS_MAX_WARP_SIZE];
    uint32_t j = start;
    if (dual && r->div->parts) { *dual_why = WS_STALL_UNIT; return 0; }   /* no dual issue of dynamic warps */
    for (uint32_t i = 0; i < ns; i++, j = (j + 1 == ns ? 0 : j + 1)) {
        ws_split part;
        uint32_t np = 0;
        if (r->div->parts) {                                   /* a dynamic warp (tbc) */
            part = sps[j];
            np = split_parts(r, c, slot, &part, pt);
            if (parts_held(c, pt, np)) {
                uint64_t held = 0;
                for (uint32_t q = 0; q < np; q++) held |= c->warps[pt[q].slot].held & pt[q].mask;
                if (held) continue;                            /* its threads wait at a CTA barrier */
            }
        } else if (!split_free_part(r, w, &sps[j], &part)) {
            continue;                                          /* lanes at a CTA barrier */
        }
        const ws_split *sp = &part;
        if (sp->pc >= r->k->ninsts) {
            fail(r, WS_ST_ERROR, "%s: warp %u ran off the end of the kernel (pc %u)",
                 r->k->path ? r->k->path : "kernel", slot, sp->pc);
            return -1;
        }
        const ws_inst *in = &insts[sp->pc];
        uint32_t nparts = 1;
        const ws_operand *mo = r->pinst[sp->pc].membermask;
        if (dual && (sp->pc != w->next_pc || in->unit == w->last_unit || mo)) {
            reason = WS_STALL_UNIT;
            continue;
        }
        if (mo && r->div->warp_sync_waits) {
            part.mask = consistent_members(r, w, mo, part.mask);
            if (!part.mask) continue;                         /* all wait for other masks */
        }
        if (mo && np) {                                        /* each warp's members in the dynamic warp */
            for (uint32_t q = 0; q < np; q++) {
                const ws_cwarp *wq = &c->warps[pt[q].slot];
                uint64_t need = sync_members(r, wq, mo, pt[q].mask);
                if (need & ~pt[q].mask) {
                    stack_sync_deadlock(r, pt[q].slot, &(ws_split){.mask = pt[q].mask, .pc = sp->pc}, in,
                                        need & ~pt[q].mask);
                    return -1;
                }
            }
        } else if (mo) {
            uint64_t need = sync_members(r, w, mo, sp->mask), parked = 0;
            if (need & ~sp->mask) {
                if (!r->div->warp_sync_waits) {
                    stack_sync_deadlock(r, slot, sp, in, need & ~sp->mask);
                    return -1;
                }
                parked = sync_parked_lanes(r, w, sp->pc, sps, ns);
                need &= ~parked;
            }
            if (need & ~sp->mask) {
                parts[0] = part;
                nparts = collect_rendezvous(r, w, sps, ns, j, need, parked, parts);
                if (!nparts) continue;                        /* members not there yet */
            }
        } else if (r->pinst[sp->pc].aligned && r->div->warp_sync_waits && !np) {
            uint64_t need = aligned_members(w, sp->mask);
            if (need & ~sp->mask) {
                if (dual) { reason = WS_STALL_UNIT; continue; }
                parts[0] = part;
                nparts = collect_rendezvous(r, w, sps, ns, j, need, 0, parts);
                if (!nparts) continue;                        /* the rest of the group not there yet */
            }
        }
        uint64_t t = 0;
        uint8_t why = WS_STALL_DEP;
        int known = nparts == 1 && sp->pc == w->deps_pc && sp->mask == w->deps_mask;
        for (uint32_t q = 0; q < nparts && !known && !np; q++) {
            const ws_split *pq = nparts > 1 ? &parts[q] : sp;
            uint8_t wq;
            uint64_t tq = split_ready_at(r, w, pq, &insts[pq->pc], now, &wq);
            if (tq > t) { t = tq; why = wq; }
        }
        for (uint32_t q = 0; q < np; q++) {                    /* each thread's own scoreboard / lanes */
            ws_split pq = {.mask = pt[q].mask, .pc = sp->pc};
            uint8_t wq;
            uint64_t tq = split_ready_at(r, &c->warps[pt[q].slot], &pq, in, now, &wq);
            if (tq > t) { t = tq; why = wq; }
        }
        if (t > now) {
            if (t < best) { best = t; reason = why; best_res = WS_RES_NONE; }
            if (r->div->owner_keeps_warp) break;                  /* no switch on a stall */
            continue;
        }
        uint8_t res = WS_RES_NONE;
        t = ws_pipe_ready_at(r, c, w, in, now, &why, &res);
        if (t <= now) {
            /* one instruction buffer per warp: a warp running several
             * splits (convergence barriers) is fetched ideally (docs/model.md) */
            t = ns == 1 || r->div->owner_keeps_warp ? front_end_ready_at(r, c, w, sp->pc, now) : 0;
            why = WS_STALL_FETCH;
            res = WS_RES_NONE;
        }
        if (t > now) {
            if (t < best) { best = t; reason = why; best_res = res; }
            if (r->div->owner_keeps_warp) break;
            continue;
        }
        if (in->op == WS_OP_LD || in->op == WS_OP_LDU) {   /* memory unit: a free L1 MSHR? */
            if (!load_allowed(c, slot, in, now)) {               /* the policy holds it (ccws) */
                if (now + 1 < best) { best = now + 1; reason = WS_STALL_MSHR; best_res = WS_RES_NONE; }
                if (r->div->owner_keeps_warp) break;
                continue;
            }
            ws_mem_req q = {.cycle = now, .core = c->id, .warp = slot, .inst = in, .eff = NULL};
            uint64_t tm = ws_mem_accept(&r->memsys, &q);
            if (tm > now) {
                if (tm < best) { best = tm; reason = WS_STALL_MSHR; best_res = WS_RES_NONE; }
                if (r->div->owner_keeps_warp) break;
                continue;
            }
        }
        uint32_t level = r->div->level(w->div, j);
        if (nparts > 1 && !mo) {                               /* a gathered .aligned instruction */
            ws_split all = *sp;
            for (uint32_t q = 1; q < nparts; q++) all.mask |= parts[q].mask;
            return issue(r, c, slot, &all, level, now, parts, nparts) < 0 ? -1 : 1;
        }
        if (nparts > 1) return issue_rendezvous(r, c, slot, parts, nparts, now) < 0 ? -1 : 1;
        if (issue(r, c, slot, sp, level, now, NULL, 0) < 0) return -1;
        if (!dual && r->width == 1) prestall(r, c, w, now);
        return 1;
    }
    if (dual) { *dual_why = reason; return 0; }
    w->wake = best;
    w->wake_reason = reason;
    note_stall(c, w, ns == 1 ? best_res : WS_RES_NONE, best);
    return 0;
}

/* ---------------------------------------------------------------- setup -- */
static void *sched_alloc(void *sim, size_t n) { return arena_alloc(sim, n); }

static const ws_sched_ops *sched_ops(int64_t idx)
{
    switch (idx) {
    case 0: return &ws_sched_lrr;
    case 1: return &ws_sched_gto;
    case 2: return &ws_sched_two_level;
    case 3: return &ws_sched_oldest;
    case 4: return &ws_sched_swl;
    case 5: return &ws_sched_fetch_group;
    case 6: return &ws_sched_ccws;
    case 7: return &ws_sched_daws;
    default: return &ws_sched_lrr;
    }
}

/* Run-level state from the configuration: the hardware every launch of the
 * run uses. */
static void setup_hw(ws_simrun *r)
{
    const ws_config *cfg = r->cfg;
    r->ncores = (uint32_t)ws_cfg_i(cfg, WS_P_cores);
    r->nwarps = (uint32_t)ws_cfg_i(cfg, WS_P_warps);
    r->nsched = (uint32_t)ws_cfg_i(cfg, WS_P_schedulers);
    r->width = (uint32_t)ws_cfg_i(cfg, WS_P_issue_width);
    r->ws = (uint32_t)ws_cfg_i(cfg, WS_P_warp_size);
    r->blocking = ws_cfg_i(cfg, WS_P_issue) == 1;
    r->lat_alu = (uint64_t)ws_cfg_i(cfg, WS_P_alu_latency);
    r->lat_sfu = (uint64_t)ws_cfg_i(cfg, WS_P_sfu_latency);
    r->lat_smem = (uint64_t)ws_cfg_i(cfg, WS_P_smem_latency);
    r->lat_const = (uint64_t)ws_cfg_i(cfg, WS_P_const_latency);
    r->lat_tex = (uint64_t)ws_cfg_i(cfg, WS_P_tex_latency);
    r->fence_stores = ws_cfg_i(cfg, WS_P_fence) == 1;
    r->smem_banks = (uint32_t)ws_cfg_i(cfg, WS_P_smem_banks);
    ws_pipe_setup(r, cfg);
    r->div = ws_div_scheme(ws_cfg_i(cfg, WS_P_divergence));
    r->sched = sched_ops(ws_cfg_i(cfg, WS_P_scheduler));
    if (r->nsched > r->nwarps) r->nsched = r->nwarps;
}

/* Per launch: the kernel as this configuration runs it (run_kernel), its
 * decoded instructions, the occupancy and the divergence context; checks
 * that the per-core state fits. Allocates from the arena only. */
static int setup_kernel(ws_sim *sim, ws_simrun *r)
{
    const ws_config *cfg = r->cfg;
    const ws_launch_spec *wl = r->spec;
    int barrier = r->div->barrier_pass ? 1 + r->div->sink_release : 0;
    const ws_kernel *k = wl->kernel;
    unsigned nbar = (unsigned)ws_cfg_i(cfg, WS_P_barrier_regs);
    int scheduled = ws_cfg_i(cfg, WS_P_inst_order) == 0;   /* ptxas: list-scheduled blocks */
    if (barrier || scheduled) {
        ws_error err = {{0}};
        unsigned budget = wl->regs_per_thread ? wl->regs_per_thread : wl->kernel->est_regs_per_thread;
        k = run_kernel(sim, wl->kernel, scheduled, budget, barrier, nbar, (int)ws_cfg_i(cfg, WS_P_barrier_yield),
                       &err);
        if (!k) {
            fail(r, WS_ST_INVALID, "%s", err.msg);
            return -1;
        }
    }
    r->k = k;
    r->nregs = k->nregs ? k->nregs : 1;
    r->nslots = k->nslots ? k->nslots : 1;
    r->pinst = arena_alloc(sim, sizeof *r->pinst * (k->ninsts ? k->ninsts : 1));
    if (!r->pinst) { fail(r, WS_ST_ERROR, "out of memory"); return -1; }
    ws_pipe_decode(r);
    r->ll_relevant = arena_alloc(sim, ((size_t)r->nregs + 63) / 64 * 8);   /* deadlock.c */
    if (!r->ll_relevant) { fail(r, WS_ST_ERROR, "out of memory"); return -1; }

    r->total_ctas = ws_launch_ctas(wl);
    r->next_cta = r->done_ctas = 0;
    /* Occupancy (docs/model.md, src/sim/occupancy.c): CTAs per core and the
     * resource that limits them; one CTA that does not fit is invalid. */
    ws_occupancy occ;
    ws_occupancy_launch(wl, k, cfg, &occ);
    r->warps_per_cta = occ.warps_per_cta;
    if (!r->nrun) r->res->metrics[WS_M_occupancy_limit].i = occ.limit;   /* the first launch's */
    if (!occ.fits) {
        fail(r, WS_ST_INVALID, "%s", occ.why);
        return -1;
    }
    r->ctas_per_core = occ.ctas_per_core;
    r->cores_short = r->ncores;     /* no core holds a CTA yet */
    if (ws_sample_plan(r) < 0)      /* sample.c: may keep the detailed CTAs only */
        return -1;

    r->divctx.k = k;
    r->divctx.warp_size = r->ws;
    r->divctx.nbar = barrier_slots(k, nbar);
    r->divctx.max_depth = 4 * r->ws + 8;
    r->divctx.now = &r->env.clock;
    r->divctx.timeout = r->div->needs_timeout ? (uint64_t)ws_cfg_i(cfg, WS_P_aware_timeout) : 0;
    r->divctx.cta_warps = r->warps_per_cta;
    size_t dsz = (r->div->state_size(&r->divctx) + 63) & ~(size_t)63;

    /* The per-core state below grows with cores x resident warps x registers
     * x lanes: a kernel declaring 10^6 registers, or cores=1024 x warps=1024,
     * would need far more memory than the machine has (and be killed while
     * touching it). Such a point is invalid, not an out-of-memory kill. */
    {
        uint64_t a64 = 64, used = (uint64_t)r->ctas_per_core * r->warps_per_cta;
        uint64_t per_warp = (8ull * r->nslots * r->ws + a64) + ((uint64_t)k->local_bytes * r->ws + a64) +
                            (9ull * r->ws + 2 * a64) + (17ull * r->nregs + 3 * a64) + (dsz + a64);
        uint64_t per_core = (uint64_t)sizeof(ws_cwarp) * r->nwarps + used * per_warp +
                            (uint64_t)r->ctas_per_core * ((uint64_t)k->shared_bytes + wl->dyn_shared_bytes + sizeof(ws_ccta) + a64);
        double total = (double)r->ncores * (double)per_core;
        if (total > (double)WS_MAX_SIM_STATE) {
            fail(r, WS_ST_INVALID, "simulator state: kernel %s needs %u register rows per thread after compaction "
                 "(declared %u, each with a scoreboard entry); %u cores x %llu resident warps x %u lanes need "
                 "%.1f GiB, more than the limit of %.0f GiB", k->name, r->nslots, r->nregs, r->ncores,
                 (unsigned long long)used, r->ws, total / (1u << 30), (double)WS_MAX_SIM_STATE / (1u << 30));
            return -1;
        }
    }
    return 0;
}

/* Once per run, before the first launch's cores: the memory system (its
 * caches and DRAM state persist over the run). */
static int setup_memsys(ws_simrun *r)
{
    ws_error err = {{0}};
    r->memsys.ops = &ws_mem_hier;   /* l1_kb=0, dram_bw=0: exactly ws_mem_fixed */
    if (r->memsys.ops->init(&r->memsys, r->cfg, r->ncores, &err) < 0) {
        r->memsys.ops = NULL;
        fail(r, WS_ST_INVALID, "%s", err.msg);
        return -1;
    }
    return 0;
}

/* Per launch, after setup_kernel: the launch description the executor reads
 * and the cores (warps, CTA slots, schedulers) sized for this kernel, from
 * the arena. */
static int setup_cores(ws_sim *sim, ws_simrun *r, uint8_t *param_buf)
{
    const ws_config *cfg = r->cfg;
    const ws_launch_spec *wl = r->spec;
    const ws_kernel *k = r->k;
    size_t dsz = (r->div->state_size(&r->divctx) + 63) & ~(size_t)63;
    size_t csz = r->div->cta_state_size ? r->div->cta_state_size(&r->divctx) : 0;
    r->launch.kernel = k;
    memcpy(r->launch.grid, wl->grid, sizeof r->launch.grid);
    memcpy(r->launch.block, wl->block, sizeof r->launch.block);
    r->launch.threads_per_cta = ws_launch_threads_per_cta(wl);
    r->launch.warps_per_cta = r->warps_per_cta;
    r->launch.warp_size = r->ws;
    r->launch.param_buf = param_buf;
    r->launch.shared_bytes = k->shared_bytes + wl->dyn_shared_bytes;
    r->launch.local_bytes = k->local_bytes;
    r->env.launch = &r->launch;
    r->env.gmem = &r->mem.gmem;
    r->env.nsm = r->ncores;
    r->env.nwarps_hw = r->nwarps;

    r->mev = (ws_mem_events){0};
    if (r->sched->mem_event) {          /* L1 events for the policy (sched_mem_events) */
        r->mev.cap = 2 * WS_COALESCE_MAX;
        r->mev.ev = arena_alloc(sim, sizeof(ws_mem_event) * r->mev.cap);
        if (!r->mev.ev) goto oom;
    }
    r->part_lanes = NULL;
    r->cta_warp_st = NULL;
    if (csz) {
        r->part_lanes = arena_alloc(sim, sizeof(uint64_t) * r->warps_per_cta);
        r->cta_warp_st = arena_alloc(sim, sizeof(void *) * r->warps_per_cta);
        if (!r->part_lanes || !r->cta_warp_st) goto oom;
    }
    r->cores = arena_alloc(sim, sizeof(ws_core) * r->ncores);
    r->reasons = arena_alloc(sim, (size_t)r->ncores * r->nsched);
    if (!r->cores || !r->reasons) goto oom;
    for (uint32_t ci = 0; ci < r->ncores; ci++) {
        ws_core *c = &r->cores[ci];
        c->run = r;
        c->id = ci;
        c->ll = arena_alloc(sim, sizeof *c->ll);   /* deadlock.c */
        c->warps = arena_alloc(sim, sizeof(ws_cwarp) * r->nwarps);
        c->ctas = arena_alloc(sim, sizeof(ws_ccta) * (r->ctas_per_core ? r->ctas_per_core : 1));
        c->scheds = arena_alloc(sim, sizeof(ws_sched) * r->nsched);
        c->pipes = arena_alloc(sim, sizeof(ws_pipe) * r->nsched);
        c->walk = arena_alloc(sim, r->nwarps ? r->nwarps : 1);
        if (!c->ll || !c->warps || !c->ctas || !c->scheds || !c->pipes || !c->walk) goto oom;
        memset(c->walk, WS_WALK_DEAD, r->nwarps);
        uint32_t used = r->ctas_per_core * r->warps_per_cta;
        for (uint32_t w = 0; w < used; w++) {
            ws_cwarp *cw = &c->warps[w];
            cw->sched = (uint8_t)(w % r->nsched);
            cw->fw.regs = arena_alloc(sim, sizeof(uint64_t) * r->nslots * r->ws);
            cw->fw.slot = k->reg_slot;
            cw->fw.local = r->launch.local_bytes ? arena_alloc(sim, (size_t)r->launch.local_bytes * r->ws) : NULL;
            cw->lane_ready = arena_alloc(sim, sizeof(uint64_t) * r->ws);
            cw->lane_mem = arena_alloc(sim, r->ws);
            cw->lane_issue = arena_alloc(sim, sizeof(uint64_t) * r->ws);
            cw->sb_mask = arena_alloc(sim, sizeof(uint64_t) * r->nregs);
            cw->sb_ready = arena_alloc(sim, sizeof(uint64_t) * r->nregs);
            cw->sb_mem = arena_alloc(sim, r->nregs);
            cw->div = arena_alloc(sim, dsz);
            if (!cw->fw.regs || !cw->lane_ready || !cw->lane_mem || !cw->lane_issue || !cw->sb_mask || !cw->sb_ready ||
                !cw->sb_mem || !cw->div || (r->launch.local_bytes && !cw->fw.local))
                goto oom;
        }
        for (uint32_t s = 0; s < r->ctas_per_core; s++) {
            c->ctas[s].first_warp = s * r->warps_per_cta;
            c->ctas[s].nwarps = r->warps_per_cta;
            c->ctas[s].fc.smem = r->launch.shared_bytes ? arena_alloc(sim, r->launch.shared_bytes) : NULL;
            if (r->launch.shared_bytes && !c->ctas[s].fc.smem) goto oom;
            c->ctas[s].div = csz ? arena_alloc(sim, csz) : NULL;
            if (csz && !c->ctas[s].div) goto oom;
        }
        for (uint32_t s = 0; s < r->nsched; s++) {
            ws_sched *sc = &c->scheds[s];
            sc->ops = r->sched;
            sc->core = c;
            sc->id = s;
            sc->cap = (r->nwarps + r->nsched - 1) / r->nsched + 1;
            sc->res = arena_alloc(sim, sizeof(uint32_t) * sc->cap);
            sc->age = arena_alloc(sim, sizeof(uint32_t) * sc->cap);
            sc->prio = arena_alloc(sim, sizeof(uint32_t) * sc->cap);
            sc->fifo = arena_alloc(sim, sizeof(uint32_t) * sc->cap);
            if (!sc->res || !sc->age || !sc->prio || !sc->fifo) goto oom;
            sc->limit = (uint32_t)(r->sched == &ws_sched_two_level ? ws_cfg_i(cfg, WS_P_two_level_active)
                                                                   : ws_cfg_i(cfg, WS_P_swl_limit));
            sc->stride = r->nsched;
            sc->dirty = 1;
            if (r->sched->setup && r->sched->setup(sc, cfg, sched_alloc, sim) < 0) goto oom;
        }
    }
    return 0;
oom:
    fail(r, WS_ST_ERROR, "out of memory");
    return -1;
}

/* ----------------------------------------------------------------- run --- */
/* The steady state (docs/model.md "Steady state and tail") opens or closes
 * at the start of cycle now: a cycle belongs to it when every core is full at
 * its start (a CTA that finishes in it is replaced at its end). Between two
 * toggles the state cannot change, so the window's cycles, thread
 * instructions and finished CTAs are differences taken at the toggles, skipped
 * cycles included, and the loop pays one comparison per iteration. */
static void steady_toggle(ws_simrun *r, uint64_t now)
{
    if (!r->steady_open) {
        r->steady_from = now;
        r->steady_ti0 = r->thread_insts;
        r->steady_done0 = r->done_ctas;
    } else {
        r->steady_cycles += now - r->steady_from;
        r->steady_thread_insts += r->thread_insts - r->steady_ti0;
        r->steady_ctas += r->done_ctas - r->steady_done0;
    }
    r->steady_open = !r->steady_open;
}

static void finish_metrics(ws_simrun *r, uint64_t cycles, uint64_t max_ctas)
{
    ws_value *m = r->res->metrics;
    uint64_t slots_per_cycle = (uint64_t)r->ncores * r->nsched * r->width;
    m[WS_M_cycles].i = (int64_t)cycles;
    m[WS_M_warp_insts].i = (int64_t)r->warp_insts;
    m[WS_M_thread_insts].i = (int64_t)r->thread_insts;
    m[WS_M_ipc].f = cycles ? (double)r->thread_insts / (double)cycles : 0.0;
    m[WS_M_warp_ipc].f = cycles ? (double)r->warp_insts / (double)cycles : 0.0;
    m[WS_M_simd_efficiency].f = r->warp_insts ? (double)r->thread_insts / ((double)r->warp_insts * r->ws) : 0.0;
    m[WS_M_issue_utilization].f = cycles ? (double)(r->warp_insts + r->div_insts) / ((double)cycles * (double)slots_per_cycle) : 0.0;
    m[WS_M_div_insts].i = (int64_t)r->div_insts;
    m[WS_M_idle_mem].i = (int64_t)r->idle[WS_STALL_MEM];
    m[WS_M_idle_dep].i = (int64_t)r->idle[WS_STALL_DEP];
    m[WS_M_idle_sync].i = (int64_t)r->idle[WS_STALL_SYNC];
    m[WS_M_idle_empty].i = (int64_t)r->idle[WS_STALL_EMPTY];
    m[WS_M_idle_mshr].i = (int64_t)r->idle[WS_STALL_MSHR];
    m[WS_M_idle_unit].i = (int64_t)r->idle[WS_STALL_UNIT];
    m[WS_M_idle_fetch].i = (int64_t)r->idle[WS_STALL_FETCH];
    m[WS_M_smem_bank_conflicts].i = (int64_t)r->smem_conflicts;
    ws_mem_stats(&r->memsys, m);             /* after cycles and warp_insts */
    m[WS_M_max_stack_depth].i = (int64_t)r->max_depth;
    m[WS_M_max_warp_splits].i = (int64_t)r->max_splits;
    m[WS_M_resident_ctas].i = (int64_t)max_ctas;
    m[WS_M_resident_warps].i = (int64_t)(max_ctas * r->warps_per_cta);
    m[WS_M_steady_cycles].i = (int64_t)r->steady_cycles;
    m[WS_M_steady_ipc].f = r->steady_cycles ? (double)r->steady_thread_insts / (double)r->steady_cycles : 0.0;
    m[WS_M_steady_cta_rate].f = r->steady_cycles ? 1000.0 * (double)r->steady_ctas / (double)r->steady_cycles : 0.0;
    m[WS_M_tail_fraction].f = cycles ? 1.0 - (double)r->steady_cycles / (double)cycles : 0.0;
}

static void collect_div_stats(ws_simrun *r)
{
    for (uint32_t ci = 0; ci < r->ncores; ci++) {
        ws_core *c = &r->cores[ci];
        uint32_t used = r->ctas_per_core * r->warps_per_cta;
        for (uint32_t w = 0; w < used; w++) {
            if (!c->warps[w].live) continue;
            uint32_t d, sp;
            r->div->stats(c->warps[w].div, &d, &sp);
            if (d > r->max_depth) r->max_depth = d;
            if (sp > r->max_splits) r->max_splits = sp;
        }
    }
}

/* work_ipc and work_per_area (docs/model.md "Work throughput"): ipc counts
 * every executed thread instruction, spin iterations and replays included,
 * so a configuration that spins longer on a lock looks almost as busy. The
 * launch's fixed work is instead the thread instruction count of the MIMD
 * reference run, which depends only on the workload, the seed and the warp
 * size (run once per sweep, kcache.c): work_ipc = that / cycles, so
 * for one workload it is exactly inversely proportional to cycles. Only an
 * ok run did the work; any other status, or a reference that does not
 * finish, leaves both at 0. */
static const struct ws_work *reference_work(ws_sim *s, const ws_workload *wl, uint64_t seed, uint32_t ws,
                                            uint64_t max_steps)
{
    ws_kcache_work(s->kc, wl, seed, ws, max_steps, &s->work.status, &s->work.thread_insts);
    return &s->work;
}

static void work_metrics(ws_sim *sim, const ws_workload *wl, const ws_config *cfg, ws_result *res)
{
    int64_t cycles = res->metrics[WS_M_cycles].i;
    if (res->status != WS_ST_OK || cycles <= 0)
        return;
    if (sim->run.smp_ff_insts) {
        /* sampled (docs/sampling.md): the work is the detailed CTAs' thread
         * instructions plus the fast-forward's, counted as the reference
         * counts them; running the whole reference would cost more than the
         * sampled run saves */
        double work_ipc = (double)res->metrics[WS_M_thread_insts].i / (double)cycles;
        res->metrics[WS_M_work_ipc].f = work_ipc;
        res->metrics[WS_M_work_per_area].f =
            ws_throughput_per_area(work_ipc, ws_cfg_f(cfg, WS_P_clock_ghz), res->metrics[WS_M_area_mm2].f);
        return;
    }
    uint64_t max_cycles = (uint64_t)ws_cfg_i(cfg, WS_P_max_cycles);
    const struct ws_work *ref = reference_work(sim, wl, (uint64_t)ws_cfg_i(cfg, WS_P_seed), sim->run.ws,
                                               max_cycles * 64 + 1000000);   /* the expect check's step limit */
    if (ref->status != WS_ST_OK)
        return;
    double work_ipc = (double)ref->thread_insts / (double)cycles;
    res->metrics[WS_M_work_ipc].f = work_ipc;
    res->metrics[WS_M_work_per_area].f =
        ws_throughput_per_area(work_ipc, ws_cfg_f(cfg, WS_P_clock_ghz), res->metrics[WS_M_area_mm2].f);
}

/* Launch: the first CTAs round-robin over the cores, as many as fit. */
static void dispatch_grid(ws_simrun *r, uint64_t *max_ctas)
{
    for (uint32_t round = 0; round < r->ctas_per_core; round++)
        for (uint32_t ci = 0; ci < r->ncores && r->next_cta < r->total_ctas; ci++)
            launch_cta(r, &r->cores[ci], round);
    for (uint32_t ci = 0; ci < r->ncores; ci++) track_residency(r, &r->cores[ci], max_ctas);
    r->smp.running = 1;             /* sample.c: later launches at the end of a cycle */
}

/* The watchdog limits the cycles simulated (docs/sampling.md): the run's
 * clock also holds the cycles sample.c extrapolated for the fast-forwarded
 * CTAs of earlier launches, which cost no simulation, so the limit on the
 * clock is max_cycles plus them (max_cycles itself without sampling). */
static uint64_t watchdog_limit(const ws_simrun *r)
{
    uint64_t max_cycles = (uint64_t)ws_cfg_i(r->cfg, WS_P_max_cycles);
    return max_cycles + (r->smp_ff_cycles < UINT64_MAX - max_cycles ? r->smp_ff_cycles : UINT64_MAX - max_cycles);
}

/* The cycle loop of one launch from cycle `now` until its last CTA is done
 * or the run stops (r->status set); returns the cycle it stopped at. */
static uint64_t run_cycles(ws_simrun *r, uint64_t now, uint64_t *max_ctas)
{
    uint64_t max_cycles = watchdog_limit(r);
    uint32_t nslot = r->ncores * r->nsched;
    uint8_t *reasons = r->reasons;
    while (r->done_ctas < r->total_ctas) {
        if (now >= max_cycles) {
            char held[160];
            ws_starvation_hint(r, held, sizeof held);
            fail(r, WS_ST_TIMEOUT, "max_cycles=%llu reached with %llu of %llu CTAs finished (no deadlock proven%s%s)",
                 (unsigned long long)ws_cfg_i(r->cfg, WS_P_max_cycles), (unsigned long long)r->done_ctas,
                 (unsigned long long)r->total_ctas, ws_livelock_why(r), held);
            break;
        }
        r->now = now;
        if ((r->cores_short == 0) != r->steady_open) steady_toggle(r, now);
        int issued_any = 0;
        uint64_t next_wake = WS_NEVER;
        for (uint32_t ci = 0; ci < r->ncores; ci++) {
            ws_core *c = &r->cores[ci];
            for (uint32_t si = 0; si < r->nsched; si++) {
                ws_sched *s = &c->scheds[si];
                ws_pipe *pp = &c->pipes[si];
                if (pp->idle_until > now) {
                    r->idle[pp->idle_reason] += r->width;
                    reasons[ci * r->nsched + si] = pp->idle_reason;
                    if (pp->idle_until < next_wake) next_wake = pp->idle_until;
                    continue;
                }
                uint8_t busy_why;
                uint64_t busy = s->ops->next_event ? 0 : none_can_issue(r, c, pp, now, &busy_why);
                if (busy) {
                    r->idle[busy_why] += r->width;
                    reasons[ci * r->nsched + si] = busy_why;
                    if (busy < next_wake) next_wake = busy;
                    continue;
                }
                const uint32_t *list;
                uint32_t start;
                uint32_t n = s->ops->order(s, now, &list, &start);
                uint32_t issued = 0;
                uint64_t mw = WS_NEVER, hm = WS_NEVER, busy_first = WS_NEVER;
                uint8_t mr = n ? WS_STALL_SYNC : WS_STALL_EMPTY, hr = mr;
                uint32_t j = start, walked = 0;
                uint32_t blocked;
                uint64_t skip = busy_resources(r, c, pp, now, &busy_first, &blocked);
                /* live warps the skip mask does not pass over: once the walk has
                 * seen them all, the rest of the list is skipped warps */
                uint32_t left = pp->n_live - blocked;
                const uint8_t *walk = c->walk;
                /* one warp issues per scheduler and cycle: the first in the
                 * policy's order that can, then up to issue_width - 1 more of
                 * its instructions (dual issue) */
                while (walked < n && !issued && left) {
                    /* pass over the warps that are dead or wait only for a
                     * resource busy now (busy_first covers them) */
                    uint32_t end = n - walked < n - j ? j + (n - walked) : n;
                    uint32_t k = skip_run(list, j, end, walk, skip);
                    walked += k - j;
                    j = k;
                    if (j == n) { j = 0; continue; }
                    if (j == end) break;
                    uint32_t slot = list[j];
                    walked++;
                    if (++j == n) j = 0;
                    left--;
                    ws_cwarp *w = &c->warps[slot];
                    uint64_t wk = w->wake;
                    if (wk <= now && w->stall_res != WS_RES_NONE) {
                        /* still only waiting for a unit another warp took: no full try */
                        uint64_t f = ws_pipe_resource_free(r, c, pp, w->stall_res);
                        if (f > now) w->wake = w->stall_wake = wk = f;
                    }
                    if (wk > now) {
                        if (wk < mw) { mw = wk; mr = w->wake_reason; }
                        if (w->stall_res == WS_RES_NONE && wk < hm) { hm = wk; hr = w->wake_reason; }
                        continue;
                    }
                    int rc = try_warp(r, c, slot, now, 0, NULL);
                    if (rc < 0) goto done;
                    if (rc == 0 && w->stall_res == WS_RES_NONE && w->wake < hm) { hm = w->wake; hr = w->wake_reason; }
                    if (rc > 0) {
                        issued++;
                        s->issued_at = j ? j - 1 : n - 1;
                        w->last_issue = now + 1;   /* 0: never (deadlock.c: starvation) */
                        if (r->status >= 0) goto done;
                        while (issued < r->width && w->live) {
                            uint8_t why = WS_STALL_DEP;
                            rc = try_warp(r, c, slot, now, 1, &why);
                            if (rc < 0) goto done;
                            if (rc == 0) { mr = why; break; }
                            issued++;
                            if (r->status >= 0) goto done;
                        }
                    } else if (w->wake < mw) {
                        mw = w->wake;
                        mr = w->wake_reason;
                    }
                }
                if (busy_first <= mw) { mw = busy_first; mr = WS_STALL_UNIT; }
                if (issued) issued_any = 1;
                note_hard_min(pp, issued ? last_issuer(c, list, start, walked, n) : NULL, walked == n || !left, hm, hr);
                if (issued < r->width) r->idle[mr] += r->width - issued;
                reasons[ci * r->nsched + si] = mr;
                uint64_t until = mw;
                if (s->ops->next_event) {
                    uint64_t t = s->ops->next_event(s, now);
                    if (t < until) until = t;
                }
                if (until < next_wake) next_wake = until;
                if (!issued && until > now + 1) {
                    pp->idle_until = until;
                    pp->idle_reason = mr;
                }
            }
        }
        /* CTAs finished this cycle free their slots */
        if (r->next_cta < r->total_ctas)
            for (uint32_t ci = 0; ci < r->ncores; ci++) {
                if (fill_core(r, &r->cores[ci])) issued_any = 1;   /* new warps: re-evaluate next cycle */
                track_residency(r, &r->cores[ci], max_ctas);
            }
        if (r->done_ctas >= r->total_ctas) { now++; break; }
        if (issued_any) { now++; continue; }
        if (next_wake == WS_NEVER) {
            ws_deadlock_report(r);
            now++;
            break;
        }
        /* nothing can issue before next_wake: skip, charging the idle slots */
        uint64_t to = next_wake < max_cycles ? next_wake : max_cycles;
        if (to > now + 1) {
            uint64_t skipped = to - now - 1;
            for (uint32_t q = 0; q < nslot; q++) r->idle[reasons[q]] += skipped * r->width;
        }
        now = to > now ? to : now + 1;
    }
done:
    r->now = now;
    if (r->steady_open) steady_toggle(r, now);   /* the window closes with the launch */
    return now;
}

/* The cycle a launch that stopped at `now` ends: when its last operation
 * completes (a timeout: now); the slots of its tail are idle (empty). */
static uint64_t launch_end(ws_simrun *r, uint64_t now)
{
    uint64_t nslot = (uint64_t)r->ncores * r->nsched;
    uint64_t end = r->last_complete > now ? r->last_complete : now;
    if (r->status < 0 && r->last_complete > now)
        r->idle[WS_STALL_EMPTY] += (r->last_complete - now) * nslot * r->width;
    if (r->status == WS_ST_TIMEOUT) end = now;
    collect_div_stats(r);
    return end;
}

/* ------------------------------------------------------------ sequence -- */
/* Puts "launch ...: " before r->msg (a sequence's message says which launch). */
static void prefix_msg(ws_simrun *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void prefix_msg(ws_simrun *r, const char *fmt, ...)
{
    char msg[sizeof r->msg];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (k < 0 || (size_t)k >= sizeof msg) return;
    size_t len = strlen(r->msg), room = sizeof msg - (size_t)k - 1;
    memcpy(msg + k, r->msg, len < room ? len : room);
    msg[(size_t)k + (len < room ? len : room)] = 0;
    memcpy(r->msg, msg, sizeof msg);
}

/* The sequence driver's state while ws_sim_run runs one (ws_sequence_run
 * calls run_launch per launch statement). */
typedef struct core_seq {
    ws_sim *sim;
    uint64_t now;            /* end of the last launch (0 before the first) */
    uint64_t max_ctas;       /* most CTAs resident on a core, over the launches */
    uint64_t max_warps;      /* ... and warps */
} core_seq;

static ws_launch_stats *stats_push(ws_sim *sim)
{
    if (sim->nls == sim->capls) {
        uint32_t cap = sim->capls ? 2 * sim->capls : 16;
        ws_launch_stats *p = realloc(sim->ls, cap * sizeof *p);
        if (!p) return NULL;
        sim->ls = p;
        sim->capls = cap;
    }
    ws_launch_stats *st = &sim->ls[sim->nls++];
    memset(st, 0, sizeof *st);
    return st;
}

/* A kernel boundary before every launch but the first (docs/model.md
 * "Kernel boundaries"): the caches as flush_l1 / flush_l2 say, then
 * launch_overhead idle cycles (charged to idle_empty, as a tail is).
 * Returns the cycle the launch starts, or 0 with the run timed out. */
static uint64_t kernel_boundary(ws_simrun *r, uint64_t end)
{
    const ws_config *cfg = r->cfg;
    uint64_t max_cycles = watchdog_limit(r);
    if (r->memsys.ops->kernel_boundary)
        r->memsys.ops->kernel_boundary(&r->memsys, end, (int)ws_cfg_i(cfg, WS_P_flush_l1),
                                       (int)ws_cfg_i(cfg, WS_P_flush_l2));
    uint64_t start = end + (uint64_t)ws_cfg_i(cfg, WS_P_launch_overhead);
    if (start > max_cycles) start = max_cycles;
    r->idle[WS_STALL_EMPTY] += (start - end) * (uint64_t)r->ncores * r->nsched * r->width;
    if (start >= max_cycles) {
        fail(r, WS_ST_TIMEOUT, "max_cycles=%llu reached between launches (%u launches finished)",
             (unsigned long long)ws_cfg_i(cfg, WS_P_max_cycles), r->nrun);
        return 0;
    }
    return start;
}

/* One launch of the sequence (a ws_seq_launch_fn): per-launch setup on the
 * run's memory image and memory system, the CTAs dispatched, cycles run
 * until its last CTA is done. Nonzero stops the sequence (r->status set). */
static int run_launch(void *ctx, const ws_launch_spec *spec, uint32_t li, uint32_t stmt, uint64_t iteration)
{
    core_seq *q = ctx;
    ws_sim *sim = q->sim;
    ws_simrun *r = &sim->run;
    uint64_t start = 0;
    if (r->nrun && !(start = kernel_boundary(r, q->now))) {
        q->now = watchdog_limit(r);
        return 1;
    }
    if (r->nrun || r->spec != spec) {  /* check_launches left the first launch's kernel set up when it was its last */
        arena_reset(sim);              /* everything in the arena is per-launch state */
        r->spec = spec;
        if (setup_kernel(sim, r) < 0) return 1;
    }
    if (!r->memsys.ops && setup_memsys(r) < 0) return 1;
    if (setup_cores(sim, r, ws_memimage_params(&r->mem, li)) < 0) return 1;
    ws_livelock_reset(r);
    if (!r->nrun && r->opts && r->opts->trace) ws_trace_header(r);
    ws_launch_stats *st = stats_push(sim);
    if (!st) {
        fail(r, WS_ST_ERROR, "out of memory");
        return 1;
    }
    uint64_t wi = r->warp_insts, ti = r->thread_insts, sc = r->steady_cycles, sti = r->steady_thread_insts;
    uint64_t max_ctas = 0;
    ws_sample_begin(r, start);
    dispatch_grid(r, &max_ctas);
    uint64_t now = run_cycles(r, start, &max_ctas);
    uint64_t end = launch_end(r, now);
    double sampled = 1.0;
    if (r->status < 0)              /* sample.c: the rest of the grid functionally, end extrapolated */
        end = ws_sample_end(r, spec, ws_memimage_params(&r->mem, li), start, end, &sampled);
    *st = (ws_launch_stats){.stmt = stmt, .launch = li, .iteration = iteration, .name = spec->name,
                            .start = start, .cycles = end - start, .ctas = r->done_ctas,
                            .warp_insts = r->warp_insts - wi, .thread_insts = r->thread_insts - ti,
                            .steady_cycles = r->steady_cycles - sc, .sampled = sampled, .status = r->status};
    st->steady_ipc = st->steady_cycles ? (double)(r->steady_thread_insts - sti) / (double)st->steady_cycles : 0.0;
    st->tail_fraction = st->cycles ? 1.0 - (double)st->steady_cycles / (double)st->cycles : 0.0;
    if (max_ctas > q->max_ctas) q->max_ctas = max_ctas;
    if (max_ctas * r->warps_per_cta > q->max_warps) q->max_warps = max_ctas * r->warps_per_cta;
    if (r->status >= 0 && r->wl->nstmts > 1)   /* deadlock, timeout, fault: in which launch */
        prefix_msg(r, "launch %u (%.60s, iteration %llu): ", r->nrun, spec->name, (unsigned long long)iteration);
    r->nrun++;
    q->now = end;
    return r->status >= 0;
}

/* Before the memory image is built: every launch of the sequence gets its
 * kernel and fits the configuration, so that an invalid point costs no
 * memory initialisation and no simulation of the launches before the one
 * that cannot run. */
static int check_launches(ws_sim *sim, ws_simrun *r)
{
    const ws_workload *wl = r->wl;
    ws_launch_spec top;
    uint32_t n = wl->nlaunches;
    if (!n) ws_launch_of_top(wl, &top);
    for (uint32_t i = 0; i < (n ? n : 1); i++) {
        arena_reset(sim);
        r->spec = n ? &wl->launches[i] : &top;
        if (setup_kernel(sim, r) < 0) {
            if (wl->nstmts > 1) prefix_msg(r, "launch %.60s: ", r->spec->name);   /* say which launch */
            return -1;
        }
    }
    if (!n) r->spec = NULL;            /* top is gone: the run sets its launch up anew */
    return 0;
}

const ws_launch_stats *ws_sim_launches(const ws_sim *s, uint32_t *n)
{
    *n = s->nls;
    return s->ls;
}

void ws_sim_run(ws_sim *sim, const ws_workload *wl, const ws_config *cfg, const ws_run_opts *opts, ws_result *res)
{
    memset(res, 0, sizeof *res);
    arena_reset(sim);
    sim->nls = 0;
    ws_simrun *r = &sim->run;
    struct ws_tl_rec *tl = r->tl;
    size_t captl = r->captl;
    memset(r, 0, sizeof *r);
    r->tl = tl;
    r->captl = captl;
    r->ntl = 0;
    r->wl = wl;
    r->cfg = cfg;
    r->opts = opts;
    r->res = res;
    r->status = -1;
    uint64_t max_cycles = (uint64_t)ws_cfg_i(cfg, WS_P_max_cycles);

    setup_hw(r);
    if (check_launches(sim, r) < 0) goto out;
    /* one memory image for the whole sequence, initialised once */
    ws_error err = {{0}};
    if (ws_memimage_init(&r->mem, wl, (uint64_t)ws_cfg_i(cfg, WS_P_seed), &err) < 0) {
        fail(r, WS_ST_ERROR, "%s", err.msg);
        goto out;
    }
    core_seq q = {.sim = sim};
    ws_sequence_run(wl, &r->mem, run_launch, &q);
    if (!r->nrun) goto out;            /* the first launch could not start: no metrics, as before */
    finish_metrics(r, q.now, q.max_ctas);
    res->metrics[WS_M_resident_warps].i = (int64_t)q.max_warps;
    res->metrics[WS_M_launches].i = (int64_t)r->nrun;
    res->metrics[WS_M_sampled].f = r->thread_insts ? 1.0 - (double)r->smp_ff_insts / (double)r->thread_insts : 1.0;
    if (r->status < 0) {
        /* finished: check the expectations */
        ws_memimage *refp = NULL;
        int ref_ok = 1;
        if (wl->needs_reference) {
            const ws_result *rres = reference_for(sim, wl, (uint64_t)ws_cfg_i(cfg, WS_P_seed), r->ws,
                                                  max_cycles * 64 + 1000000, r->smp_ff_insts > 0);
            if (rres->status != WS_ST_OK) {
                ref_ok = 0;
                fail(r, WS_ST_MISMATCH, "reference run did not finish (%s): %s", ws_status_name(rres->status),
                     rres->message);
            } else {
                refp = (ws_memimage *)sim->ref_img;   /* pinned until the run ends; ws_expect_check only reads it */
            }
        }
        if (ref_ok) {
            char msg[WS_ERROR_LEN];
            if (ws_expect_check(wl, &r->mem, refp, msg, sizeof msg) < 0) fail(r, WS_ST_MISMATCH, "%s", msg);
            else r->status = WS_ST_OK;
        }
    }
    if (opts && opts->timeline) ws_timeline_print(r, opts->timeline, sim->ls, sim->nls);
    if (opts && opts->dump_buffer >= 0 && (uint32_t)opts->dump_buffer < wl->nbuffers)
        ws_buffer_dump(wl, &r->mem, (uint32_t)opts->dump_buffer, opts->dump_out ? opts->dump_out : stdout);
out:
    if (r->memsys.ops) r->memsys.ops->fini(&r->memsys);
    ws_memimage_free(&r->mem);
    res->status = r->status < 0 ? WS_ST_ERROR : r->status;
    snprintf(res->message, sizeof res->message, "%s", r->msg);
    /* Area depends only on the configuration: reported for every status, so
     * a sweep can still place an invalid point on the area axis. */
    ws_area area;
    ws_area_compute(cfg, &area);
    res->metrics[WS_M_core_area_mm2].f = area.core_mm2;
    res->metrics[WS_M_area_mm2].f = area.chip_mm2;
    res->metrics[WS_M_throughput_per_area].f =
        ws_throughput_per_area(res->metrics[WS_M_ipc].f, ws_cfg_f(cfg, WS_P_clock_ghz), area.chip_mm2);
    res->metrics[WS_M_regs_per_thread].i = wl->regs_per_thread ? wl->regs_per_thread : wl->kernel->est_regs_per_thread;
    res->metrics[WS_M_regs_source].i = wl->regs_source;
    work_metrics(sim, wl, cfg, res);
    ws_kcache_release(sim->kc, &sim->kc_pins);   /* the run's kernels and reference may be evicted now */
}
