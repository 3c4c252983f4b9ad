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

static void *sched_alloc(void *sim, size_t n) { return arena_alloc(sim, n); }

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
    r->clock_ghz = ws_cfg_f(cfg, WS_P_clock_ghz);
    r->lat_pipe = (uint64_t)ws_cfg_i(cfg, WS_P_pipe_latency);
    r->lat_sfu = (uint64_t)ws_cfg_i(cfg, WS_P_sfu_latency);
    r->lat_smem = (uint64_t)ws_cfg_i(cfg, WS_P_smem_latency);
    r->lat_const = (uint64_t)ws_cfg_i(cfg, WS_P_const_latency);
    r->lat_tex = (uint64_t)ws_cfg_i(cfg, WS_P_tex_latency);
    r->fence_stores = ws_cfg_i(cfg, WS_P_fence) == 1;
    r->smem_banks = (uint32_t)ws_cfg_i(cfg, WS_P_smem_banks);
    r->smem_atomic_serial = (int)ws_cfg_i(cfg, WS_P_smem_atomic_serial);
    ws_pipe_setup(r, cfg);
    r->div = ws_div_scheme(ws_cfg_i(cfg, WS_P_divergence));
    r->sched = ws_sched_policy(ws_cfg_i(cfg, WS_P_scheduler));   /* NULL: refused in ws_sim_run's setup */
    if (r->nsched > r->nwarps) r->nsched = r->nwarps;
    r->walk_bits = r->nwarps <= 64u * r->nsched;
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
            ws_run_fail(r, WS_ST_INVALID, "%s", err.msg);
            return -1;
        }
    }
    r->k = k;
    r->nregs = k->nregs ? k->nregs : 1;
    r->nslots = k->nslots ? k->nslots : 1;
    r->pinst = arena_alloc(sim, sizeof *r->pinst * (k->ninsts ? k->ninsts : 1));
    if (!r->pinst) { ws_run_fail(r, WS_ST_ERROR, "out of memory"); return -1; }
    if (ws_pipe_decode(r) < 0) { ws_run_fail(r, WS_ST_ERROR, "out of memory"); return -1; }
    r->ll_relevant = arena_alloc(sim, ((size_t)r->nregs + 63) / 64 * 8);   /* deadlock.c */
    if (!r->ll_relevant) { ws_run_fail(r, WS_ST_ERROR, "out of memory"); return -1; }

    r->total_ctas = ws_launch_ctas(wl);
    r->next_cta = r->done_ctas = 0;
    /* Occupancy (docs/model.md, src/sim/occupancy.c): CTAs per core and the
     * resource that limits them; one CTA that does not fit is invalid. */
    ws_occupancy occ;
    ws_occupancy_launch(wl, k, cfg, &occ);
    r->warps_per_cta = occ.warps_per_cta;
    if (!r->nrun) r->res->metrics[WS_M_occupancy_limit].i = occ.limit;   /* the first launch's */
    if (!occ.fits) {
        ws_run_fail(r, WS_ST_INVALID, "%s", occ.why);
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
    r->divctx.uniform_skip = ws_cfg_i(cfg, WS_P_tbc_wait) == 1;
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
            ws_run_fail(r, WS_ST_INVALID, "simulator state: kernel %s needs %u register rows per thread after compaction "
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
/* A buffer a host program would copy to the device before the launch: any
 * initial data but a constant zero (cudaMemset or nothing), file inputs too. */
static int is_input(const ws_buffer_spec *b)
{
    return b->init.kind != WS_INIT_CONST || b->init.start != 0.0;
}

/* l2_warm=inputs: the input buffers through the L2, in address order. */
static void warm_l2(ws_simrun *r)
{
    if (ws_cfg_i(r->cfg, WS_P_l2_warm) == 0 || !r->memsys.ops->warm) return;
    for (uint32_t i = 0; i < r->wl->nbuffers; i++) {
        if (!is_input(&r->wl->buffers[i])) continue;
        const ws_region *g = ws_memimage_buffer(&r->mem, i);
        r->memsys.ops->warm(&r->memsys, g->addr, g->size);
    }
}

static int setup_memsys(ws_simrun *r)
{
    ws_error err = {{0}};
    if (ws_config_check_carveout(r->cfg, &err) < 0) {
        ws_run_fail(r, WS_ST_INVALID, "%s", err.msg);
        return -1;
    }
    r->memsys.ops = &ws_mem_hier;   /* l1_kb=0, dram_bw=0: exactly ws_mem_fixed */
    if (r->memsys.ops->init(&r->memsys, r->cfg, r->ncores, &err) < 0) {
        r->memsys.ops = NULL;
        ws_run_fail(r, WS_ST_INVALID, "%s", err.msg);
        return -1;
    }
    warm_l2(r);
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
    r->env.defer_bulk = 1;   /* a bulk copy's mbarrier bytes land when it is done (bulk.c); the reference's env: at once */
    r->env.nsm = r->ncores;
    r->env.nwarps_hw = r->nwarps;
    r->cta_interval = (uint64_t)ws_cfg_i(cfg, WS_P_cta_launch_interval);

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
    int bulk = 0;   /* a cp.async.bulk into shared memory (bulk.c) */
    for (uint32_t pc = 0; pc < r->k->ninsts && !bulk; pc++)
        bulk = r->k->insts[pc].op == WS_OP_CP_ASYNC &&
               (r->k->insts[pc].subop == WS_CPA_BULK_G2S || r->k->insts[pc].subop == WS_CPA_BULK_S2S);
    r->bulk_bw = (uint32_t)ws_cfg_i(r->cfg, WS_P_bulk_bytes_per_cycle);
    r->bulk_next = WS_NEVER;
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
        c->bulk_ev = NULL;   /* bulk.c: room for copies into shared memory only if the kernel has them */
        c->bulk_n = c->bulk_cap = 0;
        c->bulk_next = WS_NEVER;
        c->bulk_free = 0;
        if (bulk) {
            c->bulk_cap = 16 * (r->nwarps ? r->nwarps : 1);
            c->bulk_ev = arena_alloc(sim, sizeof(ws_bulk_ev) * c->bulk_cap);
            if (!c->bulk_ev) goto oom;
        }
        memset(c->walk, WS_WALK_DEAD, r->nwarps);
        uint32_t used = r->ctas_per_core * r->warps_per_cta;
        for (uint32_t w = 0; w < used; w++) {
            ws_cwarp *cw = &c->warps[w];
            cw->sched = (uint8_t)(w % r->nsched);
            cw->walk_bit = w / r->nsched < 64 ? 1ull << (w / r->nsched) : 0;
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
            sc->limit = 0;   /* a policy with a bounded set sets it in its setup hook */
            sc->stride = r->nsched;
            sc->dirty = 1;
            if (r->sched->setup && r->sched->setup(sc, cfg, sched_alloc, sim) < 0) goto oom;
        }
    }
    return 0;
oom:
    ws_run_fail(r, WS_ST_ERROR, "out of memory");
    return -1;
}

static void finish_metrics(ws_simrun *r, uint64_t cycles, uint64_t max_ctas)
{
    ws_value *m = r->res->metrics;
    uint64_t slots_per_cycle = (uint64_t)r->ncores * r->nsched * r->width;
    m[WS_M_cycles].i = (int64_t)cycles;
    m[WS_M_warp_insts].i = (int64_t)r->warp_insts;
    m[WS_M_lowered_insts].i = (int64_t)r->lowered_insts;
    m[WS_M_thread_insts].i = (int64_t)r->thread_insts;
    m[WS_M_ipc].f = cycles ? (double)r->thread_insts / (double)cycles : 0.0;
    m[WS_M_warp_ipc].f = cycles ? (double)r->warp_insts / (double)cycles : 0.0;
    m[WS_M_simd_efficiency].f = r->warp_insts ? (double)r->thread_insts / ((double)r->warp_insts * r->ws) : 0.0;
    m[WS_M_issue_utilization].f = cycles ? (double)r->lowered_insts / ((double)cycles * (double)slots_per_cycle) : 0.0;
    m[WS_M_div_insts].i = (int64_t)r->div_insts;
    m[WS_M_throttled_loads].i = (int64_t)r->throttled_loads;
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

/* work_units, work_per_s, work_per_area: the workload's declared work when it
 * has `work:`, else the reference's thread instructions (ref_insts). */
static void unit_metrics(const ws_simrun *r, const ws_workload *wl, const ws_config *cfg, ws_result *res,
                         double ref_insts)
{
    double cycles = (double)res->metrics[WS_M_cycles].i, ghz = ws_cfg_f(cfg, WS_P_clock_ghz);
    double units = wl->work_name ? r->declared_work : ref_insts;
    res->metrics[WS_M_work_units].f = units;
    res->metrics[WS_M_work_per_s].f = units * ghz / cycles;
    res->metrics[WS_M_work_per_area].f = ws_throughput_per_area(units / cycles, ghz, res->metrics[WS_M_area_mm2].f);
}

static void work_metrics(ws_sim *sim, const ws_workload *wl, const ws_config *cfg, ws_result *res)
{
    int64_t cycles = res->metrics[WS_M_cycles].i;
    if (res->status != WS_ST_OK || cycles <= 0)
        return;
    double insts;
    if (sim->run.smp_ff_insts) {
        /* sampled (docs/sampling.md): the work is the detailed CTAs' thread
         * instructions plus the fast-forward's, counted as the reference
         * counts them; running the whole reference would cost more than the
         * sampled run saves */
        insts = (double)res->metrics[WS_M_thread_insts].i;
    } else {
        uint64_t max_cycles = (uint64_t)ws_cfg_i(cfg, WS_P_max_cycles);
        const struct ws_work *ref = reference_work(sim, wl, (uint64_t)ws_cfg_i(cfg, WS_P_seed), sim->run.ws,
                                                   max_cycles * 64 + 1000000);   /* the expect check's step limit */
        if (ref->status != WS_ST_OK)
            return;
        insts = (double)ref->thread_insts;
    }
    double work_ipc = insts / (double)cycles;
    res->metrics[WS_M_work_ipc].f = work_ipc;
    res->metrics[WS_M_ref_inst_per_area].f =
        ws_throughput_per_area(work_ipc, ws_cfg_f(cfg, WS_P_clock_ghz), res->metrics[WS_M_area_mm2].f);
    unit_metrics(&sim->run, wl, cfg, res, insts);
}

/* Launch: the first CTAs round-robin over the cores, as many as fit. */
static void dispatch_grid(ws_simrun *r, uint64_t *max_ctas)
{
    for (uint32_t round = 0; round < r->ctas_per_core; round++)
        for (uint32_t ci = 0; ci < r->ncores && r->next_cta < r->total_ctas; ci++)
            ws_launch_cta(r, &r->cores[ci], round);
    for (uint32_t ci = 0; ci < r->ncores; ci++) ws_track_residency(r, &r->cores[ci], max_ctas);
    r->smp.running = 1;             /* sample.c: later launches at the end of a cycle */
}

/* Every issue slot of the chip idle (idle_empty, nothing resident) for `cycles` cycles: a
 * launch's tail, start and drain, the gap between launches. */
static void idle_all(ws_simrun *r, uint64_t cycles)
{
    r->idle[WS_STALL_EMPTY] += cycles * (uint64_t)r->ncores * r->nsched * r->width;
}

/* The cycle a launch that stopped at `now` ends: when its last operation
 * completes (a timeout: now); the slots of its tail are idle (empty). */
static uint64_t launch_end(ws_simrun *r, uint64_t now)
{
    uint64_t end = r->last_complete > now ? r->last_complete : now;
    if (r->status < 0 && r->last_complete > now) idle_all(r, r->last_complete - now);
    if (r->status == WS_ST_TIMEOUT) end = now;
    collect_div_stats(r);
    return end;
}

/* The cycle a launch starting at `start` dispatches its first CTAs: launch_start later (at most
 * max_cycles, never before start), every slot idle meanwhile. */
static uint64_t launch_start_cycle(ws_simrun *r, uint64_t start)
{
    uint64_t first = start + (uint64_t)ws_cfg_i(r->cfg, WS_P_launch_start), lim = watchdog_limit(r);
    if (first > lim) first = lim > start ? lim : start;
    idle_all(r, first - start);
    return first;
}

/* The end of a launch whose last operation completes at `end`: launch_drain later (the grid's
 * flush and completion report), every slot idle meanwhile. */
static uint64_t launch_drain_end(ws_simrun *r, uint64_t end)
{
    uint64_t d = (uint64_t)ws_cfg_i(r->cfg, WS_P_launch_drain);
    idle_all(r, d);
    return end + d;
}

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
    idle_all(r, start - end);
    if (start >= max_cycles) {
        ws_run_fail(r, WS_ST_TIMEOUT, "max_cycles=%llu reached between launches (%u launches finished)",
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
        ws_run_fail(r, WS_ST_ERROR, "out of memory");
        return 1;
    }
    uint64_t wi = r->warp_insts, ti = r->thread_insts, sc = r->steady_cycles, sti = r->steady_thread_insts;
    uint64_t max_ctas = 0;
    ws_sample_begin(r, start);
    /* launch_start: the grid's first CTAs are dispatched that many cycles into the launch, every
     * slot idle meanwhile (docs/model.md "Launch start, dispatch and drain") */
    uint64_t first = launch_start_cycle(r, start);
    r->cta_from = first;
    dispatch_grid(r, &max_ctas);
    uint64_t now = ws_run_cycles(r, first, &max_ctas);
    for (uint32_t ci = 0; ci < r->ncores; ci++)   /* a launch that stopped early: its resident CTAs */
        if (r->cores[ci].live_ctas && now > r->cores[ci].busy_from) r->core_busy += now - r->cores[ci].busy_from;
    r->sim_cycles += now - start;
    ws_energy_fold(r);
    uint64_t end = launch_end(r, now);
    double sampled = 1.0;
    if (r->status < 0)              /* sample.c: the rest of the grid functionally, end extrapolated */
        end = ws_sample_end(r, spec, ws_memimage_params(&r->mem, li), start, end, &sampled);
    if (r->status < 0) end = launch_drain_end(r, end);
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
    r->declared_work += r->wl->work_per_launch +
                        r->wl->work_per_thread * (double)ws_launch_threads_per_cta(spec) *
                            ((double)spec->grid[0] * spec->grid[1] * spec->grid[2]);
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
    if (!r->sched || !r->div) {   /* a choice index without a registered policy: never silently another */
        ws_run_fail(r, WS_ST_ERROR, "no %s registered for choice %lld", !r->sched ? "scheduler" : "divergence scheme",
                    (long long)ws_cfg_i(cfg, !r->sched ? WS_P_scheduler : WS_P_divergence));
        goto out;
    }
    if (check_launches(sim, r) < 0) goto out;
    /* one memory image for the whole sequence, initialised once */
    ws_error err = {{0}};
    if (ws_memimage_init(&r->mem, wl, (uint64_t)ws_cfg_i(cfg, WS_P_seed), &err) < 0) {
        ws_run_fail(r, WS_ST_ERROR, "%s", err.msg);
        goto out;
    }
    core_seq q = {.sim = sim};
    ws_sequence_run(wl, &r->mem, run_launch, &q);
    if (!r->nrun) goto out;            /* the first launch could not start: no metrics, as before */
    finish_metrics(r, q.now, q.max_ctas);
    res->metrics[WS_M_resident_warps].i = (int64_t)q.max_warps;
    res->metrics[WS_M_launches].i = (int64_t)r->nrun;
    res->metrics[WS_M_sampled].f = r->thread_insts ? 1.0 - (double)r->smp_ff_insts / (double)r->thread_insts : 1.0;
    res->metrics[WS_M_sample_error].f = r->smp_ff_insts && res->metrics[WS_M_cycles].i > 0
                                            ? r->smp_err_cycles / (double)res->metrics[WS_M_cycles].i : 0.0;
    if (r->status < 0) {
        /* finished: check the expectations */
        ws_memimage *refp = NULL;
        int ref_ok = 1;
        if (wl->needs_reference) {
            const ws_result *rres = reference_for(sim, wl, (uint64_t)ws_cfg_i(cfg, WS_P_seed), r->ws,
                                                  max_cycles * 64 + 1000000, r->smp_ff_insts > 0);
            if (rres->status != WS_ST_OK) {
                ref_ok = 0;
                ws_run_fail(r, WS_ST_MISMATCH, "reference run did not finish (%s): %s", ws_status_name(rres->status),
                     rres->message);
            } else {
                refp = (ws_memimage *)sim->ref_img;   /* pinned until the run ends; ws_expect_check only reads it */
            }
        }
        if (ref_ok) {
            char msg[WS_ERROR_LEN];
            if (ws_expect_check(wl, &r->mem, refp, msg, sizeof msg) < 0) ws_run_fail(r, WS_ST_MISMATCH, "%s", msg);
            else r->status = WS_ST_OK;
        }
    }
    if (opts && opts->timeline) ws_timeline_print(r, opts->timeline, sim->ls, sim->nls);
    if (opts && opts->dump_buffer >= 0 && (uint32_t)opts->dump_buffer < wl->nbuffers) {
        ws_error derr;
        if (!opts->dump_path)
            ws_buffer_dump(wl, &r->mem, (uint32_t)opts->dump_buffer, opts->dump_out ? opts->dump_out : stdout);
        else if (ws_buffer_save(wl, &r->mem, (uint32_t)opts->dump_buffer, opts->dump_path, &derr) < 0)
            fprintf(stderr, "warpsweep sim: %s\n", derr.msg);
    }
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
    ws_area_metrics(cfg, &area, res->metrics);
    res->metrics[WS_M_throughput_per_area].f =
        ws_throughput_per_area(res->metrics[WS_M_ipc].f, ws_cfg_f(cfg, WS_P_clock_ghz), area.chip_mm2);
    res->metrics[WS_M_regs_per_thread].i = wl->regs_per_thread ? wl->regs_per_thread : wl->kernel->est_regs_per_thread;
    res->metrics[WS_M_regs_source].i = wl->regs_source;
    work_metrics(sim, wl, cfg, res);
    ws_energy_metrics(r, cfg, res);
    ws_kcache_release(sim->kc, &sim->kc_pins);   /* the run's kernels and reference may be evicted now */
}
