/*
 * Issue: the cycle loop (ws_run_cycles), each scheduler's walk over its
 * policy's warps, the tries of a warp's splits (try_warp, try_splits) and
 * the issue of one instruction with its timing (issue). See core.c for the
 * timing conventions.
 */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <stdarg.h>
#include <math.h>
#include "core_internal.h"


/* Is `in` none of the opcodes issue() treats apart (ws_pipe_inst.plain)? */
int ws_inst_plain(const ws_inst *in)
{
    return !(ws_opcode_flags(in->op) & (WS_OPF_MEMT | WS_OPF_CPASYNC | WS_OPF_FENCE | WS_OPF_SPILL | WS_OPF_SLEEP |
                                         WS_OPF_CTABAR | WS_OPF_DIVOP));
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

/* cp.async timing (docs/model.md, "Asynchronous copies"): a copy's global read goes through
 * the memory hierarchy as a load does (and its line requests through the LD/ST pipe); it
 * writes no register, so the warp goes on at once and the copy only counts for its group;
 * commit_group closes the group, wait_group N holds the warp (cpa_hold) until every group
 * but the newest N has completed (wait_all: commit, then N = 0). Returns the instruction's
 * completion. */
static uint64_t cp_async_timing(ws_simrun *r, ws_core *c, ws_cwarp *w, uint32_t slot, const ws_inst *in,
                                ws_effect *eff, uint64_t t0, uint64_t now)
{
    if (ws_cpa_is_bulk(in->subop)) return ws_bulk_timing(r, c, w, slot, in, eff, t0);
    if (in->subop == WS_CPA_COPY) {
        if (eff->mem_kind) {
            uint32_t lines = 1;
            ws_mem_req req = {.cycle = t0, .core = c->id, .warp = slot, .inst = in, .eff = eff, .lines_out = &lines};
            uint64_t done = r->memsys.ops->access(&r->memsys, &req);
            uint64_t cycles = ws_lsu_occupy(r, c, (uint64_t)lines * r->l1_line, now);
            if (cycles > 1) done += cycles - 1;
            if (done > w->cpa.open) w->cpa.open = done;
            if (done > r->last_complete) r->last_complete = done;   /* the kernel ends after its copies */
        }
        return t0 + 1;
    }
    if (in->subop == WS_CPA_COMMIT || in->subop == WS_CPA_WAIT_ALL) {
        ws_async_commit(&w->cpa);
        if (in->subop == WS_CPA_COMMIT) return t0 + 1;
    }
    uint64_t ready = ws_async_wait(&w->cpa, in->subop == WS_CPA_WAIT ? (uint32_t)in->src[0].imm : 0, t0);
    if (ready > w->cpa_hold) w->cpa_hold = ready;
    return ready;
}

/* mbarrier phases and waiting warps (docs/model.md "sm_80/sm_90 instructions"): a try_wait
 * that finds its phase incomplete in every lane of a converged warp suspends the warp (PTX
 * ISA 9.7.13.15: try_wait "causes the executing thread to wait until the specified phase
 * completes" or a time limit passes; the limit here is unbounded): it issues nothing until a
 * phase of any mbarrier of its CTA completes, which wakes the CTA's suspended warps when that
 * arrival is done (`done`); they test again. A warp of several splits, or a dynamic one
 * (tbc), keeps polling: another of its splits may be the one to arrive. */
static void mbarrier_timing(ws_simrun *r, ws_core *c, const ws_ccta *ct, ws_cwarp *w, const ws_effect *eff,
                            uint32_t np, uint64_t done)
{
    if (eff->mbar & WS_MBAR_FX_FLIP) ws_mbar_wake(c, ct, done);
    const ws_split *sps;
    uint32_t start;
    if ((eff->mbar & WS_MBAR_FX_WAITING) && np == 1 && !r->div->parts && w->live &&
        r->div->splits(w->div, &sps, &start) == 1) {
        w->mbar_parked = 1;
        w->wake = WS_NEVER;
        w->wake_reason = WS_STALL_SYNC;
        note_parking(c, w, (uint32_t)(w - c->warps));   /* windowed policies (swl, two_level) let others in */
    }
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

static uint32_t dynamic_parts(ws_simrun *r, ws_core *c, uint32_t slot, const ws_split *sp, ws_part *pt)
{
    const ws_cwarp *w = &c->warps[slot];
    const ws_ccta *ct = &c->ctas[w->cta_slot];
    r->div->parts(w->div, sp, r->part_lanes);
    uint32_t n = 0;
    for (uint32_t i = 0; i < ct->nwarps; i++)
        if (r->part_lanes[i]) pt[n++] = (ws_part){.slot = ct->first_warp + i, .mask = r->part_lanes[i]};
    return n;
}

/* The split's own warp, or its parts under a CTA-scope scheme (inline:
 * issue asks it per instruction). */
static inline uint32_t split_parts(ws_simrun *r, ws_core *c, uint32_t slot, const ws_split *sp, ws_part *pt)
{
    if (r->div->parts) return dynamic_parts(r, c, slot, sp, pt);
    pt[0] = (ws_part){.slot = slot, .mask = sp->mask};
    return 1;
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
    eff->mem_extra = 0;
    eff->sleep_ns = 0;
    eff->mbar = 0;
    eff->bulk_mask = 0;
    const int bulk = in->op == WS_OP_CP_ASYNC && ws_cpa_is_bulk(in->subop);
    for (uint32_t q = 0; q < np; q++) {
        if (ws_exec_inst(&r->env, &c->warps[pt[q].slot].fw, in, pc, pt[q].mask, &e) != WS_EXEC_OK) return WS_EXEC_FAULT;
        if ((ws_opcode_flags(in->op) & WS_OPF_SLEEP) && e.sleep_ns > eff->sleep_ns) eff->sleep_ns = e.sleep_ns;   /* the longest */
        if (in->op == WS_OP_MBARRIER) eff->mbar |= e.mbar;   /* a flip wakes; dynamic warps never suspend (mbarrier_timing) */
        if (bulk) {   /* each lane's copy (bulk.c) */
            eff->bulk_mask |= e.bulk_mask;
            for (uint64_t m = e.bulk_mask; m; m &= m - 1) {
                uint32_t l = (uint32_t)__builtin_ctzll(m);
                eff->bulk_gaddr[l] = e.bulk_gaddr[l];
                eff->bulk_size[l] = e.bulk_size[l];
                eff->bulk_mbar[l] = e.bulk_mbar[l];
            }
        }
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
            for (uint32_t k = 0; k < e.mem_extra; k++) eff->mem_extra_addr[k][l] = e.mem_extra_addr[k][l];
        }
        if (e.mem_extra > eff->mem_extra) eff->mem_extra = e.mem_extra;   /* one tex instruction: the same count */
    }
    return WS_EXEC_OK;
}

/* Some lane of the parts' warps waits at a CTA barrier. */
static int parts_held(const ws_core *c, const ws_part *pt, uint32_t np)
{
    for (uint32_t q = 0; q < np; q++)
        if (c->warps[pt[q].slot].held) return 1;
    return 0;
}

/* The divergence scheme's view of an issue: each split of a gathered
 * .aligned instruction (parts, n > 1; see ws_aligned_members) moves on its own,
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
        ws_run_fail(r, WS_ST_ERROR, "%s", r->env.fault);
        return -1;
    }
    if (r->ll_watching && eff.mem_kind) ws_livelock_watch(r, in, sp.pc, &eff);
    for (uint32_t q = 0; q < np; q++) stamp_lanes(c, &c->warps[pt[q].slot], pt[q].mask, now);
    /* latency: the unit's (or the LD/ST path's), after the operand reads */
    uint64_t done;
    int is_mem = 0;
    uint64_t t0 = now + ws_pipe_issue(r, c, w, slot, sp.pc, now);
    ws_pipe_inst *pi = &r->pinst[sp.pc];
    const uint64_t lanes = lanes_in(sp.mask);
    pi->n_warp++;                        /* energy events (energy.c) */
    pi->n_lanes += lanes;
    uint32_t slots = pi->slots;
    if (pi->ifconv && eff.taken == sp.mask) slots += pi->ifconv;   /* the predicated body, issued all the same */
    r->issued_slots = slots;
    r->lowered_insts += slots;
    if (slots > 1)                       /* an expansion: the issue port issues its rest */
        c->pipes[w->sched].issue_free = now + (slots + r->width - 1) / r->width;
    if (!pi->slots) done = t0;           /* folded by ptxas: its consumers read its sources */
    else if (pi->plain) done = t0 + pi->lat;
    else switch (pi->timing) {
    case WS_TIME_MEM:
        if (eff.mem_kind == 0) done = t0 + r->lat_alu;
        else if (eff.mem_space == WS_SP_SHARED) {
            /* a bank conflict of degree d is replayed d - 1 times (broadcasts
             * are free); each of the d wavefronts takes the LD/ST pipe */
            uint32_t deg = ws_smem_conflict_degree(&eff, r->smem_banks, r->smem_atomic_serial);
            uint64_t extra = deg > 1 ? deg - 1 : 0;
            r->smem_conflicts += extra;
            r->smem_accesses++;
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
            if (r->sched->load_access && (pi->opf & WS_OPF_LOAD))
                r->sched->load_access(&c->scheds[w->sched], slot, sp.pc, lines, (uint32_t)lanes_in(eff.mem_mask), now);
            if (r->mev.n) sched_mem_events(r, c, now);
            if (done <= t0) done = t0 + 1;
            /* the line requests leave the LD/ST pipe one after another */
            uint64_t cycles = ws_lsu_occupy(r, c, (uint64_t)lines * r->l1_line, now);
            if (cycles > 1) done += cycles - 1;
            if (pi->opf & WS_OPF_TEXP) done += r->lat_tex;   /* texture pipeline */
            is_mem = 1;
        }
        break;
    case WS_TIME_CPASYNC:
        done = cp_async_timing(r, c, w, slot, in, &eff, t0, now);
        break;
    default:
        done = t0 + pi->lat;
        break;
    }
    if (pi->slots) done += r->lat_pipe;  /* collector, dispatch and writeback stages (pipe_latency) */
    if (done > r->last_complete) r->last_complete = done;
    for (uint32_t q = 0; q < np; q++) note_pending(r, &c->warps[pt[q].slot], in, pt[q].mask, done, is_mem, now);
    if (!pi->plain && ((r->div->issues_div_ops && (pi->opf & WS_OPF_DIVOP)) || (pi->opf & WS_OPF_SPILL))) {
        r->div_insts++;                  /* own metric: warp_insts stays comparable */
    } else {
        r->warp_insts++;
        r->thread_insts += lanes;
    }
    if (r->opts && (r->opts->trace || r->opts->timeline)) ws_trace_issue(r, c->id, slot, level, &sp, in);
    /* control */
    char err[WS_ERROR_LEN];
    int moved = update_splits(r, w, &sp, gathered, ngathered, in, &eff, err, sizeof err);
    if (moved < 0) {
        ws_run_fail(r, WS_ST_ERROR, "%s: warp %u: %s", r->k->path ? r->k->path : "kernel", slot, err);
        return -1;
    }
    ws_ccta *ct = &c->ctas[w->cta_slot];
    if (moved > 0) ws_wake_cta(c, ct);
    else if (r->div->parts) note_parking(c, w, slot);   /* its dynamic warp may wait now */
    w->wake = 0;
    w->deps_pc = UINT32_MAX;
    forget_stall(c, w);
    if (!pi->plain && r->fence_stores && (pi->opf & WS_OPF_FENCE) && in->subop != 1 /* WS_SCOPE_CTA, src/ptx/ptx_internal.h */) {
        /* membar.gl/.sys, fence.gpu/.sys: the warp waits until its stores are
         * done (docs/memory.md); .cta is ordered at the L1 and costs alu_latency */
        uint64_t f = ws_mem_fence(&r->memsys, c->id, slot, done);
        if (f > done) { w->wake = f; w->wake_reason = WS_STALL_MEM; }
    }
    if (!pi->plain && (pi->opf & WS_OPF_SLEEP) && eff.sleep_ns) {
        /* the warp issues nothing for t ns at clock_ghz (docs/model.md, "nanosleep") */
        uint64_t s = now + (uint64_t)ceil((double)eff.sleep_ns * r->clock_ghz);
        if (s > w->wake) { w->wake = s; w->wake_reason = WS_STALL_SYNC; }
    }
    if (in->op == WS_OP_MBARRIER) mbarrier_timing(r, c, ct, w, &eff, np, done);
    if (!pi->plain && (pi->opf & WS_OPF_CTABAR) && eff.executed) {
        for (uint32_t q = 0; q < np; q++)
            if (pt[q].executed) ws_bar_arrive(r, c, ct, pt[q].slot, in, pt[q].executed);
        if (r->div->parts) note_parking(c, w, slot);   /* the host's dynamic warp waits at the barrier */
        ws_cta_check_bars(r, c, ct, now);
    } else if (r->div->parked && parts_held(c, pt, np)) {
        for (uint32_t q = 0; q < np; q++) note_parking(c, &c->warps[pt[q].slot], pt[q].slot);
        ws_cta_check_bars(r, c, ct, now);   /* lanes may now be parked behind held ones */
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
        ws_cta_check_bars(r, c, ct, now);
        for (uint32_t q = 0; q < np; q++) {
            ws_cwarp *wq = &c->warps[pt[q].slot];
            if (pt[q].exited && (wq->exited & wq->fw.valid) == wq->fw.valid) ws_warp_finished(r, c, pt[q].slot);
        }
    }
    ws_front_end_issued(r, c, w, sp.pc, now);
    ws_sched *s = &c->scheds[w->sched];
    s->ops->issued(s, slot, now);
    if (in->is_backedge && ws_livelock_backedge(r, c, slot, sp.pc, sp.mask)) return -1;
    return 0;
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
        if (w->lanes_flat) {
            /* every live lane at flat_ready: what each walk below finds (the stack's
             * busy_until lane, or the split's latest lane) */
            if (r->div->per_lane_blocking) {
                if (w->flat_ready > t) { t = w->flat_ready; memr = w->flat_mem; }
            } else {
                t = w->busy_until;
                if (w->flat_ready == t) memr = w->flat_mem;
            }
        } else if (r->div->per_lane_blocking && (sp->mask & (sp->mask + 1)) == 0) {
            /* lanes 0..n-1: the latest lane without the bit walk; the reason
             * is the first lane's that has it, as the walk below finds */
            const uint32_t n = sp->mask == ~0ull ? 64u : (uint32_t)__builtin_ctzll(~sp->mask);
            uint64_t mx = 0;
            for (uint32_t l = 0; l < n; l++) mx = w->lane_ready[l] > mx ? w->lane_ready[l] : mx;
            if (mx > t) {
                uint32_t l = 0;
                while (w->lane_ready[l] != mx) l++;
                t = mx;
                memr = w->lane_mem[l];
            }
        } else if (r->div->per_lane_blocking) {
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

/* The walk's skip mask (ws_core.walk): dead warps and the resources some
 * warp of p waits for that are busy at `now`; *first: the first cycle one
 * of them frees. */
static uint64_t busy_resources(const ws_simrun *r, const ws_core *c, const ws_pipe *p, uint64_t now,
                               uint64_t *first, uint64_t *blocked_bits)
{
    uint64_t mask = 1ull << WS_WALK_DEAD;
    *blocked_bits = 0;
    for (uint32_t m = p->res_mask; m; m &= m - 1) {
        uint8_t res = (uint8_t)__builtin_ctz(m);
        uint64_t t = ws_pipe_resource_free(r, c, p, res);
        if (t <= now) continue;
        mask |= 1ull << res;
        *blocked_bits |= p->res_bits[res];
        if (t < *first) *first = t;
    }
    return mask;
}

/* After a walk: the walk saw hm (reason hr) as the least wake of the warps
 * it passed that do not wait for a resource. A walk that issued nothing saw
 * every warp and knows the bound exactly; a walk that stopped at `issuer`
 * lowers the old bound by what it saw and by the issuer's new wake (the
 * warps after it did not change). */
static void note_hard_min(ws_pipe *p, const ws_cwarp *issuer, uint64_t hm, uint8_t hr)
{
    if (issuer && issuer->stall_res == WS_RES_NONE && issuer->wake < hm) {
        hm = issuer->wake;
        hr = issuer->wake_reason;
    }
    if (!issuer || hm < p->hard_min) {
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
    t = ws_pipe_ready_at(r, c, w, sp.pc, &why, &res);
    if (t <= now + 1 || res == WS_RES_NONE) return;
    w->wake = t;
    w->wake_reason = WS_STALL_UNIT;
    note_stall(c, w, res, t);
}

/* Can scheduler s's policy hold instruction `in`: a global/local (or
 * generic) load, e.g. ccws for throttled warps? */
int ws_core_load_gated(const ws_sched *s, const ws_inst *in)
{
    return s->ops->may_issue_load && (ws_opcode_flags(in->op) & WS_OPF_LOAD) && in->space != WS_SP_SHARED &&
           in->space != WS_SP_CONST && in->space != WS_SP_PARAM;
}

/* May warp `slot` issue load `in` now? */
static int load_allowed(ws_simrun *r, ws_core *c, uint32_t slot, const ws_inst *in, uint64_t now)
{
    ws_sched *s = &c->scheds[c->warps[slot].sched];
    if (!ws_core_load_gated(s, in)) return 1;
    if (s->ops->may_issue_load(s, slot, now)) return 1;
    r->throttled_loads++;   /* metric throttled_loads: a warp-cycle held by the policy */
    return 0;
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
            ws_run_fail(r, WS_ST_ERROR, "%s: warp %u: %s", r->k->path ? r->k->path : "kernel", slot, err);
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
            ws_run_fail(r, WS_ST_ERROR, "%s: warp %u ran off the end of the kernel (pc %u)",
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
            part.mask = ws_consistent_members(r, w, mo, part.mask);
            if (!part.mask) continue;                         /* all wait for other masks */
        }
        if (mo && np) {                                        /* each warp's members in the dynamic warp */
            for (uint32_t q = 0; q < np; q++) {
                const ws_cwarp *wq = &c->warps[pt[q].slot];
                uint64_t need = ws_sync_members(r, wq, mo, pt[q].mask);
                if (need & ~pt[q].mask) {
                    ws_stack_sync_deadlock(r, pt[q].slot, &(ws_split){.mask = pt[q].mask, .pc = sp->pc}, in,
                                        need & ~pt[q].mask);
                    return -1;
                }
            }
        } else if (mo) {
            uint64_t need = ws_sync_members(r, w, mo, sp->mask), parked = 0;
            if (need & ~sp->mask) {
                if (!r->div->warp_sync_waits) {
                    ws_stack_sync_deadlock(r, slot, sp, in, need & ~sp->mask);
                    return -1;
                }
                parked = ws_sync_parked_lanes(r, w, sp->pc, sps, ns);
                need &= ~parked;
            }
            if (need & ~sp->mask) {
                parts[0] = part;
                nparts = ws_collect_rendezvous(r, w, sps, ns, j, need, parked, parts);
                if (!nparts) continue;                        /* members not there yet */
            }
        } else if (r->pinst[sp->pc].aligned && r->div->warp_sync_waits && !np) {
            uint64_t need = ws_aligned_members(w, sp->mask);
            if (need & ~sp->mask) {
                if (dual) { reason = WS_STALL_UNIT; continue; }
                parts[0] = part;
                nparts = ws_collect_rendezvous(r, w, sps, ns, j, need, 0, parts);
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
        t = ws_pipe_ready_at(r, c, w, sp->pc, &why, &res);
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
        if (!r->pinst[sp->pc].plain && (r->pinst[sp->pc].opf & WS_OPF_LOAD)) {   /* a free L1 MSHR? */
            if (!load_allowed(r, c, slot, in, now)) {               /* the policy holds it (ccws) */
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
        if (nparts > 1) return ws_issue_rendezvous(r, c, slot, parts, nparts, now) < 0 ? -1 : 1;
        if (issue(r, c, slot, sp, level, now, NULL, 0) < 0) return -1;
        if (!dual && r->width == 1 && r->issued_slots) prestall(r, c, w, now);   /* folded: tried again now */
        return 1;
    }
    if (dual) { *dual_why = reason; return 0; }
    w->wake = best;
    w->wake_reason = reason;
    note_stall(c, w, ns == 1 ? best_res : WS_RES_NONE, best);
    return 0;
}

/* What a scheduler's walk has seen: the least wake of the warps it passed
 * (mw, reason mr) and of those among them not waiting for a resource (hm,
 * hr: note_hard_min), and its issue. */
typedef struct walk_acc {
    uint64_t mw, hm;
    uint8_t mr, hr;
    uint32_t issued;
    ws_cwarp *issuer;
} walk_acc;

/* Is w asleep at `now` (its wake later; a warp that waited only for a unit
 * another warp took learns when it frees, without a full try)? A sleeping
 * warp counts into the walk's minima. */
static inline int sleeping(const ws_simrun *r, const ws_core *c, const ws_pipe *pp, ws_cwarp *w, uint64_t now,
                           walk_acc *a)
{
    uint64_t wk = w->wake;
    if (wk <= now && w->stall_res != WS_RES_NONE) {
        uint64_t f = ws_pipe_resource_free(r, c, pp, w->stall_res);
        if (f > now) w->wake = w->stall_wake = wk = f;
    }
    if (wk <= now) return 0;
    if (wk < a->mw) { a->mw = wk; a->mr = w->wake_reason; }
    if (w->stall_res == WS_RES_NONE && wk < a->hm) { a->hm = wk; a->hr = w->wake_reason; }
    return 1;
}

/* The first index in [pos, to) of the policy's list holding a warp to try:
 * one the skip mask does not pass over (dead, or waiting only for a
 * resource busy now: busy_first covers them) and that is awake. */
static inline uint32_t pass_sleepers(const ws_simrun *r, ws_core *c, const ws_pipe *pp, const uint32_t *list,
                                     uint32_t pos, uint32_t to, uint64_t skip, uint64_t now, walk_acc *a)
{
    const uint8_t *walk = c->walk;
    for (; pos < to; pos++) {
        uint32_t slot = list[pos];
        if (skip >> walk[slot] & 1) continue;
        if (!sleeping(r, c, pp, &c->warps[slot], now, a)) break;
    }
    return pos;
}

/* Tries awake warp `slot` (at index `at` of the policy's list, UINT32_MAX
 * when walked by bitmaps) and, when it issues, up to issue_width - 1 more of
 * its instructions. Returns -1 when the run stops (error or status set). */
static inline __attribute__((always_inline)) int try_candidate(ws_simrun *r, ws_core *c, ws_sched *s, uint32_t slot, uint32_t at, uint64_t now,
                         walk_acc *a)
{
    ws_cwarp *w = &c->warps[slot];
    int rc = try_warp(r, c, slot, now, 0, NULL);
    /* an instruction ptxas folds (lowering: 0 slots) takes no issue slot:
     * the warp goes on in the same cycle (a forward chain: at most ninsts) */
    for (uint32_t n = 0; rc > 0 && !r->issued_slots && n < r->k->ninsts; n++) {
        w->last_issue = now + 1;
        if (r->status >= 0) return -1;
        if (!w->live) return 0;
        rc = try_warp(r, c, slot, now, 0, NULL);
    }
    if (rc < 0) return -1;
    if (rc == 0) {
        if (w->stall_res == WS_RES_NONE && w->wake < a->hm) { a->hm = w->wake; a->hr = w->wake_reason; }
        if (w->wake < a->mw) { a->mw = w->wake; a->mr = w->wake_reason; }
        return 0;
    }
    a->issued++;
    a->issuer = w;
    if (at != UINT32_MAX) s->issued_at = at;   /* order() was not asked otherwise */
    w->last_issue = now + 1;                   /* 0: never (deadlock.c: starvation) */
    if (r->status >= 0) return -1;
    if (r->issued_slots > 1) a->issued = r->width;   /* an expansion fills the cycle (issue() holds the port) */
    while (a->issued < r->width && w->live && !w->mbar_parked) {
        uint8_t why = WS_STALL_DEP;
        rc = try_warp(r, c, slot, now, 1, &why);
        if (rc < 0) return -1;
        if (rc == 0) { a->mr = why; break; }
        a->issued += r->issued_slots > 1 ? r->width : r->issued_slots ? 1 : 0;
        if (r->status >= 0) return -1;
    }
    return 0;
}

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

/* The cycle loop of one launch from cycle `now` until its last CTA is done
 * or the run stops (r->status set); returns the cycle it stopped at. */
uint64_t ws_run_cycles(ws_simrun *r, uint64_t now, uint64_t *max_ctas)
{
    uint64_t max_cycles = watchdog_limit(r);
    uint32_t nslot = r->ncores * r->nsched;
    uint8_t *reasons = r->reasons;
    while (r->done_ctas < r->total_ctas) {
        if (now >= max_cycles) {
            char held[160];
            ws_starvation_hint(r, held, sizeof held);
            ws_run_fail(r, WS_ST_TIMEOUT, "max_cycles=%llu reached with %llu of %llu CTAs finished (no deadlock proven%s%s)",
                 (unsigned long long)ws_cfg_i(r->cfg, WS_P_max_cycles), (unsigned long long)r->done_ctas,
                 (unsigned long long)r->total_ctas, ws_livelock_why(r), held);
            break;
        }
        r->now = now;
        if ((r->cores_short == 0) != r->steady_open) steady_toggle(r, now);
        int issued_any = 0;
        uint64_t next_wake = WS_NEVER;
        if (r->bulk_next <= now) {   /* bulk copies landing in shared memory (bulk.c) */
            ws_bulk_due(r, now);
            if (r->status >= 0) goto done;
        }
        if (r->bulk_next < next_wake) next_wake = r->bulk_next;
        for (uint32_t ci = 0; ci < r->ncores; ci++) {
            ws_core *c = &r->cores[ci];
            for (uint32_t si = 0; si < r->nsched; si++) {
                ws_sched *s = &c->scheds[si];
                ws_pipe *pp = &c->pipes[si];
                if (pp->issue_free > now) {    /* issuing an expansion (lowering): not idle */
                    reasons[ci * r->nsched + si] = WS_STALL_NONE;
                    if (pp->issue_free < next_wake) next_wake = pp->issue_free;
                    continue;
                }
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
                uint64_t busy_first = WS_NEVER;
                uint64_t blocked_bits;
                uint64_t skip = busy_resources(r, c, pp, now, &busy_first, &blocked_bits);
                /* a policy whose list is the resident warps in slot order from
                 * the one after the last issuer (lrr) is walked as bitmaps,
                 * without its list: the warps to try from there to the last
                 * slot (ahead), then from the first slot (behind), the same
                 * warps in the same order */
                int by_bits = r->walk_bits && s->ops->slot_order;
                uint64_t ahead = 0, behind = 0;
                const uint32_t *list = NULL;
                uint32_t start = 0, n;
                if (by_bits) {
                    uint32_t l0 = s->has_last ? s->last / r->nsched + 1 : 0;
                    uint64_t from = l0 < 64 ? ~0ull << l0 : 0, cand = pp->live_bits & ~blocked_bits;
                    ahead = cand & from;
                    behind = cand & ~from;
                    n = pp->n_live;
                } else {
                    n = s->ops->order(s, now, &list, &start);
                }
                walk_acc a = {.mw = WS_NEVER, .hm = WS_NEVER, .mr = n ? WS_STALL_SYNC : WS_STALL_EMPTY};
                a.hr = a.mr;
                /* one warp issues per scheduler and cycle: the first in the
                 * policy's order that can, then up to issue_width - 1 more of
                 * its instructions (dual issue) */
                if (by_bits) {
                    while (!a.issued) {
                        if (!ahead) {
                            if (!behind) break;
                            ahead = behind;
                            behind = 0;
                        }
                        uint32_t slot = (uint32_t)__builtin_ctzll(ahead) * r->nsched + si;
                        ahead &= ahead - 1;
                        if (sleeping(r, c, pp, &c->warps[slot], now, &a)) continue;
                        if (try_candidate(r, c, s, slot, UINT32_MAX, now, &a) < 0) goto done;
                    }
                } else {
                    /* list[start..n), then list[0..start) */
                    for (uint32_t seg = 0; seg < 2 && !a.issued; seg++) {
                        uint32_t pos = seg ? 0 : start, to = seg ? start : n;
                        while (!a.issued) {
                            pos = pass_sleepers(r, c, pp, list, pos, to, skip, now, &a);
                            if (pos == to) break;
                            if (try_candidate(r, c, s, list[pos], pos, now, &a) < 0) goto done;
                            pos++;
                        }
                    }
                }
                uint64_t mw = a.mw;
                uint8_t mr = a.mr;
                const uint32_t issued = a.issued;
                if (busy_first <= mw) { mw = busy_first; mr = WS_STALL_UNIT; }
                if (issued) issued_any = 1;
                note_hard_min(pp, a.issuer, a.hm, a.hr);
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
        /* (only a core short of CTAs has a free slot; its residency grows
         * only by the launches here) */
        r->cta_from = now + 1;
        if (r->next_cta < r->total_ctas && r->cores_short)
            for (uint32_t ci = 0; ci < r->ncores; ci++) {
                if (r->cores[ci].live_ctas >= r->ctas_per_core) continue;
                if (ws_fill_core(r, &r->cores[ci])) issued_any = 1;   /* new warps: re-evaluate next cycle */
                ws_track_residency(r, &r->cores[ci], max_ctas);
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
