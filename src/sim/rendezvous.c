/*
 * Warp-level .sync operations (shfl, vote, match, bar.warp, redux, the
 * .aligned mma / ldmatrix family): who a split must wait for, collecting the
 * rendezvous of the splits at one operation and issuing it as one warp
 * instruction (docs/model.md, "Warp-level operations and member masks").
 */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <stdarg.h>
#include "core_internal.h"

/* The lanes named by the membermasks of the lanes `lanes` of w at `in` (each
 * lane reads its own; a 32-bit mask per 32-lane group, exec.h), restricted to
 * lanes that hold a thread and have not exited. */
uint64_t ws_sync_members(const ws_simrun *r, const ws_cwarp *w, const ws_operand *mo, uint64_t lanes)
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
uint64_t ws_consistent_members(const ws_simrun *r, const ws_cwarp *w, const ws_operand *mo, uint64_t lanes)
{
    uint64_t val[WS_MAX_WARP_SIZE], with[WS_MAX_WARP_SIZE];
    uint32_t nv = 0;
    for (uint64_t m = lanes; m; m &= m - 1) {        /* the distinct mask values, and their lanes */
        uint64_t v = ws_sync_members(r, w, mo, m & -m), i = 0;
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

/* The parts of a rendezvous meet only where every lane's membermask value
 * is the value of each lane it names (the PTX ISA: the threads of the
 * membermask execute "<op>.sync with the same qualifiers and same membermask
 * value"): a lane waiting at another .sync op of the same kind for another
 * set of lanes is not part of this one, while tiles (lanes 0-3 with 0xf,
 * 4-7 with 0xf0, ...) held by different splits at one PC meet, each tile
 * among itself. */
static int same_membermask(const ws_simrun *r, const ws_cwarp *w, const ws_split *parts, uint32_t n)
{
    uint64_t value[WS_MAX_WARP_SIZE], all = 0;
    for (uint32_t i = 0; i < n; i++) {
        const ws_operand *mo = ws_warp_membermask(&r->k->insts[parts[i].pc]);
        for (uint64_t m = parts[i].mask; m; m &= m - 1)
            value[__builtin_ctzll(m)] = ws_sync_members(r, w, mo, m & -m);
        all |= parts[i].mask;
    }
    for (uint64_t m = all; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(m);
        for (uint64_t o = value[l] & all; o; o &= o - 1)
            if (value[__builtin_ctzll(o)] != value[l]) return 0;
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
uint64_t ws_aligned_members(const ws_cwarp *w, uint64_t lanes)
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
uint64_t ws_sync_parked_lanes(const ws_simrun *r, const ws_cwarp *w, uint32_t pc, const ws_split *sps,
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
uint32_t ws_collect_rendezvous(const ws_simrun *r, const ws_cwarp *w, const ws_split *sps, uint32_t ns,
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
        if (tmo) need |= ws_sync_members(r, w, tmo, t.mask) & ~parked;
    }
    return n > 1 && ws_warp_membermask(in) && !same_membermask(r, w, parts, n) ? 0 : n;
}

/* Issues a rendezvous of n splits as ONE warp instruction over their union
 * (one issue slot, alu latency): the combine step runs once across the
 * instructions, then each split advances with its own instruction. */
int ws_issue_rendezvous(ws_simrun *r, ws_core *c, uint32_t slot, const ws_split *parts, uint32_t n,
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
        ws_run_fail(r, WS_ST_ERROR, "%s", r->env.fault);
        return -1;
    }
    stamp_lanes(c, w, all, now);
    uint64_t done = now + ws_pipe_issue(r, c, w, slot, parts[0].pc, now) + ws_unit_latency(r, wp[0].in) + r->lat_pipe;
    if (done > r->last_complete) r->last_complete = done;
    const uint64_t lanes = (uint64_t)__builtin_popcountll(all);
    r->warp_insts++;
    r->lowered_insts++;
    r->issued_slots = 1;
    r->thread_insts += lanes;
    r->pinst[parts[0].pc].n_warp++;      /* energy events: one warp instruction (energy.c) */
    r->pinst[parts[0].pc].n_lanes += lanes;
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
            ws_run_fail(r, WS_ST_ERROR, "%s: warp %u: %s", r->k->path ? r->k->path : "kernel", slot, err);
            return -1;
        }
    }
    w->wake = 0;
    w->deps_pc = UINT32_MAX;
    forget_stall(c, w);
    if (w->held && r->div->parked) {
        note_parking(c, w, slot);
        ws_cta_check_bars(r, c, &c->ctas[w->cta_slot], now);
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
void ws_stack_sync_deadlock(ws_simrun *r, uint32_t slot, const ws_split *sp, const ws_inst *in, uint64_t missing)
{
    ws_run_fail(r, WS_ST_DEADLOCK,
         "%s: warp %u: SIMT deadlock: %s at pc %u (PTX line %u) with lanes 0x%llx waits for member lanes 0x%llx "
         "that are on another path of the reconvergence stack (divergence=%s runs only the top entry%s; a .sync "
         "warp operation reached from different branches needs independent thread scheduling, divergence=barrier)",
         r->k->path ? r->k->path : "kernel", slot, ws_opcode_name(in->op), sp->pc, in->line,
         (unsigned long long)sp->mask, (unsigned long long)missing, r->div->name,
         r->div->parts ? ", each home warp's members within one dynamic warp" : "");
}
