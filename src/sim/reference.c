/*
 * The MIMD reference execution (ws_reference_run).
 *
 * Every CTA of the grid is launched at once, and every thread runs as an
 * independent thread with its own PC: the threads take turns in a fixed
 * round-robin order (CTA by CTA, thread by thread in linear %tid order), one
 * instruction per turn. They meet only at
 *   - CTA barriers (bar.sync / barrier.sync / bar.red, optional thread count):
 *     a thread waits until the barrier's count of threads has arrived, where
 *     the count is the instruction's thread count or, without one, every
 *     thread of the CTA that has not exited; bar.arrive counts without waiting;
 *     bar.red's result (popc / and / or of the predicates of the threads
 *     released together) is written here, since the executor has no CTA view;
 *   - warp-level .sync operations (shfl.sync, vote.sync, match.sync,
 *     redux.sync, bar.warp.sync; mma.sync.aligned over the lane's whole
 *     32-lane group, at the same instruction): a thread waits until every lane of its
 *     membermask that has not exited waits at a .sync operation of the same
 *     kind (the same instruction or, as on sm_70+, one at another PC); they
 *     then execute together as one rendezvous (ws_exec_warp_rendezvous), each
 *     lane over its own membermask;
 *   - activemask and legacy vote (no .sync): the threads of the lane's 32-lane group that are running at
 *     the same instruction (converged with it, as a SIMT warp would run them:
 *     threads on the same path move in lock step here) execute it together,
 *     each getting that mask (not just its own bit, which would make
 *     __ballot_sync(__activemask(), p) or a warp-aggregated atomic differ
 *     from any SIMT execution).
 * Every other instruction is executed by ws_exec_inst on the thread's warp
 * (warp-sized ws_warp, SoA registers, so the semantics are exactly the ones
 * the cycle-level core uses): with a one-lane mask, or, where consecutive
 * turns of the order are at one instruction that cannot affect another
 * thread's turn, with the lanes of those turns in one call (mimd_warp_pass:
 * the same order and outcome, docs/model.md "The MIMD reference's thread
 * groups"). A spin lock completes, since the thread holding the lock keeps
 * getting turns.
 *
 * Outcome: ok when every thread exited; deadlock when every live thread waits
 * and none can proceed; timeout after max_steps thread instructions (0: no
 * limit); error when an instruction faults (the executor's message, with the
 * thread). Metrics: thread_insts = the number of turns taken (one thread
 * instruction each, guard false or not); warp_insts = thread_insts (each
 * turn is one thread); cycles = 0 (the reference is untimed); all others 0.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "warpsweep/sim.h"

#define NBARRIERS 16

enum { T_RUN, T_BAR, T_WARP, T_EXIT, T_NONE };

typedef struct ref_cta {
    uint32_t live;                    /* threads not exited */
    uint32_t arrived[NBARRIERS];
    uint32_t expected[NBARRIERS];     /* 0: every live thread */
    uint32_t plain[NBARRIERS];        /* arrivals by bar.sync / bar.arrive (bar.red must not mix with them) */
} ref_cta;

typedef struct ref {
    const ws_ref_launch *rl;
    const ws_kernel *k;
    uint32_t ws, wpc, nctas, nwarps;
    ws_launch launch;
    ws_exec_env env;
    ws_cta *ctas;
    ref_cta *rc;
    ws_warp *warps;
    uint64_t *exited;                 /* per warp: lanes that exited */
    uint64_t *waiting;                /* per warp: lanes in T_WARP */
    /* per thread slot (warp * ws + lane) */
    uint32_t *pc;
    uint8_t *state;
    uint8_t *bar;
    uint64_t *wmask;
    uint8_t *redp;                    /* bar.red: the thread's predicate */
    uint8_t *kind;                    /* per instruction: group_kind */
    uint64_t *conv;                   /* per warp: its running lanes if all are at one PC (0: not known) */
    uint64_t live_total;
    uint64_t steps;
    ws_effect eff;
    ws_result *res;
    int failed;
    int lockstep;                     /* lock-step turns (lockstep_turn), else one thread per turn */
    int single_turns;                 /* no grouped turns (mimd_warp_pass): the check of the grouping */
} ref;

static int fail(ref *r, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(ref *r, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->res->message, sizeof r->res->message, fmt, ap);
    va_end(ap);
    r->res->status = status;
    r->failed = 1;
    return -1;
}

static uint64_t opnd(const ref *r, const ws_warp *w, const ws_operand *o, uint32_t lane)
{
    if (o->kind == WS_OK_IMM)
        return (uint64_t)o->imm;
    if (o->kind == WS_OK_REG && o->reg != WS_NO_REG)
        return ws_reg_lanes(w, o->reg, r->ws)[lane];
    return 0;
}

static int guard_true(const ref *r, const ws_warp *w, const ws_inst *in, uint32_t lane)
{
    if (in->guard == WS_NO_REG)
        return 1;
    int v = (int)(ws_reg_lanes(w, in->guard, r->ws)[lane] & 1);
    return v ^ (in->guard_neg ? 1 : 0);
}

static void thread_desc(const ref *r, uint32_t g, uint32_t lane, char *buf, size_t len)
{
    const ws_warp *w = &r->warps[g];
    snprintf(buf, len, "thread (%u,%u,%u) of CTA (%u,%u,%u)", w->tid[0][lane], w->tid[1][lane], w->tid[2][lane],
             w->cta->ctaid[0], w->cta->ctaid[1], w->cta->ctaid[2]);
}

static int exec_fault(ref *r, uint32_t g, uint32_t lane)
{
    /* the executor's message names the lane, its thread and CTA, the PC with
     * its PTX line and the address */
    if (r->env.fault[0])
        return fail(r, WS_ST_ERROR, "%s", r->env.fault);
    char who[96];
    thread_desc(r, g, lane, who, sizeof who);
    return fail(r, WS_ST_ERROR, "%s: fault at pc %u", who, r->pc[(uint64_t)g * r->ws + lane]);
}

static int is_cta_barrier(const ws_inst *in) { return (ws_opcode_flags(in->op) & WS_OPF_CTABAR) != 0; }

/* Warp-level .sync operations synchronise the lanes of a member mask (the
 * lane's own, exec.h: 32 bits per 32-lane group). */
static int warp_sync_mask(const ref *r, const ws_warp *w, const ws_inst *in, uint32_t lane, uint64_t *mask)
{
    if (ws_warp_aligned(in)) {   /* mma.sync.aligned: the lane's whole 32-lane group */
        uint32_t base = lane & ~31u;
        *mask = (0xffffffffull << base) & w->valid;
        return 1;
    }
    const ws_operand *mo = ws_warp_membermask(in);
    if (!mo)
        return 0;
    uint64_t m32 = opnd(r, w, mo, lane) & 0xffffffffull;
    uint32_t base = lane & ~31u;
    *mask = ((m32 << base) & w->valid) | (1ull << lane);
    return 1;
}

static void thread_exit(ref *r, uint32_t g, uint32_t lane);

/* Releases barrier id of CTA c if enough threads arrived. */
static int check_barrier(ref *r, uint32_t c, uint32_t id)
{
    ref_cta *rc = &r->rc[c];
    if (!rc->arrived[id])
        return 0;
    uint32_t need = rc->expected[id] ? rc->expected[id] : rc->live;
    if (rc->arrived[id] < need)
        return 0;
    uint32_t plain = rc->plain[id];
    rc->arrived[id] = 0;
    rc->expected[id] = 0;
    rc->plain[id] = 0;
    /* bar.red: popc / and / or of the predicates of the threads waiting at a bar.red */
    uint32_t nwait = 0, ntrue = 0;
    for (uint64_t t = (uint64_t)c * r->wpc * r->ws; t < (uint64_t)(c + 1) * r->wpc * r->ws; t++)
        if (r->state[t] == T_BAR && r->bar[t] == id && r->k->insts[r->pc[t]].subop >= WS_BAR_RED_POPC) {
            nwait++;
            ntrue += r->redp[t];
        }
    if (nwait && plain)
        return fail(r, WS_ST_ERROR, "CTA %u: barrier %u was reached by %u threads with bar.red and %u with bar.sync/"
                    "bar.arrive at once (the PTX ISA: bar.red must not be intermixed with bar.sync or bar.arrive on "
                    "the same active barrier)", c, id, nwait, plain);
    for (uint32_t wi = 0; wi < r->wpc; wi++) {
        uint32_t g = c * r->wpc + wi;
        ws_warp *w = &r->warps[g];
        uint64_t mask = 0;
        uint32_t pc = 0;
        for (uint32_t l = 0; l < r->ws; l++) {
            uint64_t t = (uint64_t)g * r->ws + l;
            if (!((w->valid >> l) & 1) || r->state[t] != T_BAR || r->bar[t] != id)
                continue;
            /* lanes of a warp waiting at different bar instructions of the same
             * barrier are executed one instruction at a time */
            if (mask && r->pc[t] != pc) {
                if (ws_exec_inst(&r->env, w, &r->k->insts[pc], pc, mask, &r->eff) != WS_EXEC_OK)
                    return exec_fault(r, g, (uint32_t)__builtin_ctzll(mask));
                mask = 0;
            }
            pc = r->pc[t];
            mask |= 1ull << l;
            const ws_inst *bi = &r->k->insts[pc];
            if (bi->subop >= WS_BAR_RED_POPC && bi->ndst >= 1 && bi->dst[0].kind == WS_OK_REG) {
                uint64_t v = bi->subop == WS_BAR_RED_POPC  ? ntrue
                             : bi->subop == WS_BAR_RED_AND ? ntrue == nwait
                                                           : ntrue != 0;
                ws_reg_lanes(w, bi->dst[0].reg, r->ws)[l] = v;
            }
            r->pc[t]++;
            r->state[t] = T_RUN;
        }
        if (mask && ws_exec_inst(&r->env, w, &r->k->insts[pc], pc, mask, &r->eff) != WS_EXEC_OK)
            return exec_fault(r, g, (uint32_t)__builtin_ctzll(mask));
    }
    return 0;
}

static int arrive(ref *r, uint32_t c, uint32_t id, uint32_t count)
{
    ref_cta *rc = &r->rc[c];
    if (rc->arrived[id] == 0)
        rc->expected[id] = count;
    rc->arrived[id]++;
    return check_barrier(r, c, id);
}

/* Executes the warp-level operation at pc as a rendezvous (docs/model.md,
 * "Warp-level operations and member masks") if every live lane of mask, and
 * of the membermasks of those lanes in turn, waits at a .sync operation of
 * the same kind (ws_warp_same_kind), at pc or at another PC with the same
 * membermask value (the PTX ISA: "executed <op>.sync with the same qualifiers
 * and same membermask value"): each lane reads its operands from its own
 * instruction. */
static int try_warp_sync(ref *r, uint32_t g, uint32_t pc, uint64_t mask)
{
    ws_warp *w = &r->warps[g];
    const ws_inst *in = &r->k->insts[pc];
    uint64_t m = 0, todo = mask & ~r->exited[g];
    while (todo) {
        uint32_t l = (uint32_t)__builtin_ctzll(todo);
        uint64_t t = (uint64_t)g * r->ws + l;
        if (r->state[t] != T_WARP || !ws_warp_same_kind(in, &r->k->insts[r->pc[t]]) ||
            (r->pc[t] != pc && r->wmask[t] != mask))   /* across PCs: the same membermask value */
            return 0;
        m |= 1ull << l;
        todo = (todo | (r->wmask[t] & ~r->exited[g])) & ~m;
    }
    if (!m)
        return 0;
    ws_warp_part parts[WS_MAX_WARP_SIZE];
    unsigned n = 0;
    for (uint64_t x = m; x; x &= x - 1) {   /* one part per PC */
        uint32_t l = (uint32_t)__builtin_ctzll(x);
        uint32_t lpc = r->pc[(uint64_t)g * r->ws + l];
        unsigned i = 0;
        while (i < n && parts[i].pc != lpc) i++;
        if (i == n) parts[n++] = (ws_warp_part){.in = &r->k->insts[lpc], .pc = lpc, .active = 0};
        parts[i].active |= 1ull << l;
    }
    if (ws_exec_warp_rendezvous(&r->env, w, parts, n) != WS_EXEC_OK)
        return exec_fault(r, g, (uint32_t)__builtin_ctzll(m));
    for (uint64_t x = m; x; x &= x - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(x);
        uint64_t t = (uint64_t)g * r->ws + l;
        r->pc[t]++;
        r->state[t] = T_RUN;
    }
    r->waiting[g] &= ~m;
    return 0;
}

/* Lanes `lanes` of warp g exited. */
static void threads_exit(ref *r, uint32_t g, uint64_t lanes)
{
    uint32_t n = (uint32_t)__builtin_popcountll(lanes);
    for (uint64_t x = lanes; x; x &= x - 1)
        r->state[(uint64_t)g * r->ws + (uint32_t)__builtin_ctzll(x)] = T_EXIT;
    r->exited[g] |= lanes;
    r->live_total -= n;
    uint32_t c = g / r->wpc;
    r->rc[c].live -= n;
    /* fewer live threads: a CTA barrier or a warp-level operation may now be complete */
    for (uint32_t id = 0; id < NBARRIERS && !r->failed; id++)
        if (r->rc[c].arrived[id]) check_barrier(r, c, id);
    /* the waiting lanes in lane order, each as it is now (a rendezvous
     * releases others) */
    for (uint32_t l = 0; l < r->ws && !r->failed; l++) {
        uint64_t m = r->waiting[g] & (~0ull << l);
        if (!m) break;
        l = (uint32_t)__builtin_ctzll(m);
        uint64_t u = (uint64_t)g * r->ws + l;
        try_warp_sync(r, g, r->pc[u], r->wmask[u]);
    }
}

static void thread_exit(ref *r, uint32_t g, uint32_t lane)
{
    threads_exit(r, g, 1ull << lane);
}

/* activemask (or legacy vote without .sync) at pc on lane: executed together
 * by the lanes of its 32-lane group that are running at pc (see the header). */
static int activemask_turn(ref *r, uint32_t g, uint32_t lane, uint32_t pc)
{
    ws_warp *w = &r->warps[g];
    uint32_t base = lane & ~31u;
    uint64_t m = 1ull << lane;
    for (uint32_t l = base; l < base + 32 && l < r->ws; l++) {
        uint64_t u = (uint64_t)g * r->ws + l;
        if (((w->valid >> l) & 1) && r->state[u] == T_RUN && r->pc[u] == pc)
            m |= 1ull << l;
    }
    if (ws_exec_inst(&r->env, w, &r->k->insts[pc], pc, m, &r->eff) != WS_EXEC_OK)
        return exec_fault(r, g, lane);
    for (uint64_t x = m; x; x &= x - 1)
        r->pc[(uint64_t)g * r->ws + (uint32_t)__builtin_ctzll(x)]++;
    return 0;
}

/* One turn of thread (g, lane). */
static int step(ref *r, uint32_t g, uint32_t lane)
{
    uint64_t t = (uint64_t)g * r->ws + lane;
    ws_warp *w = &r->warps[g];
    uint32_t pc = r->pc[t];
    if (pc >= r->k->ninsts) {   /* fell off the end: an implicit ret */
        thread_exit(r, g, lane);
        return r->failed ? -1 : 0;
    }
    const ws_inst *in = &r->k->insts[pc];
    uint64_t bit = 1ull << lane;
    r->env.clock = r->steps;

    if (in->op == WS_OP_BADD || in->op == WS_OP_BWAIT || in->op == WS_OP_YIELD || in->op == WS_OP_BMOV) {
        r->pc[t]++;   /* convergence-barrier pseudo-instructions: no meaning here */
        return 0;
    }
    if (is_cta_barrier(in) && guard_true(r, w, in, lane)) {
        uint64_t id = in->nsrc >= 1 ? opnd(r, w, &in->src[0], lane) : 0;
        int is_red = in->subop >= WS_BAR_RED_POPC;
        /* .sync/.arrive: src[0] barrier, src[1] count; .red: [src[1] count,] last src predicate */
        uint64_t count = in->nsrc >= (is_red ? 3 : 2) ? opnd(r, w, &in->src[1], lane) : 0;
        if (is_red && in->nsrc >= 2) {
            const ws_operand *pp = &in->src[in->nsrc - 1];
            r->redp[t] = (uint8_t)((opnd(r, w, pp, lane) & 1) ^ (pp->neg ? 1 : 0));
        }
        char who[96];
        if (id >= NBARRIERS) {
            thread_desc(r, g, lane, who, sizeof who);
            return fail(r, WS_ST_ERROR, "%s: barrier %llu out of range 0..15 at pc %u (line %u)", who,
                        (unsigned long long)id, pc, in->line);
        }
        uint32_t c = g / r->wpc;
        if (!is_red)
            r->rc[c].plain[id]++;
        if (in->subop == WS_BAR_ARRIVE) {
            if (ws_exec_inst(&r->env, w, in, pc, bit, &r->eff) != WS_EXEC_OK)
                return exec_fault(r, g, lane);
            r->pc[t]++;
            return arrive(r, c, (uint32_t)id, (uint32_t)count);
        }
        r->state[t] = T_BAR;
        r->bar[t] = (uint8_t)id;
        return arrive(r, c, (uint32_t)id, (uint32_t)count);
    }
    if (in->op == WS_OP_ACTIVEMASK || (in->op == WS_OP_VOTE && !ws_warp_membermask(in)))
        return activemask_turn(r, g, lane, pc);   /* legacy vote: over the active lanes, like activemask */
    uint64_t mask;
    if (warp_sync_mask(r, w, in, lane, &mask) && guard_true(r, w, in, lane)) {
        r->state[t] = T_WARP;
        r->waiting[g] |= bit;
        r->wmask[t] = mask;
        return try_warp_sync(r, g, pc, mask);
    }

    ws_effect *e = &r->eff;
    if (ws_exec_inst(&r->env, w, in, pc, bit, e) != WS_EXEC_OK)
        return exec_fault(r, g, lane);
    switch (in->op) {
    case WS_OP_BRA:
        r->pc[t] = (e->taken & bit) ? in->target : pc + 1;
        break;
    case WS_OP_BRX:
        r->pc[t] = (e->taken & bit) ? e->lane_target[lane] : pc + 1;
        break;
    case WS_OP_EXIT:
    case WS_OP_RET:
        if (e->exited & bit) {
            thread_exit(r, g, lane);
            return r->failed ? -1 : 0;
        }
        r->pc[t] = pc + 1;
        break;
    case WS_OP_TRAP:
        if (e->executed & bit) {
            char who[96];
            thread_desc(r, g, lane, who, sizeof who);
            return fail(r, WS_ST_ERROR, "%s: trap at pc %u (line %u)", who, pc, in->line);
        }
        r->pc[t] = pc + 1;
        break;
    default:
        r->pc[t] = pc + 1;
    }
    return 0;
}

/* Lock-step turns (the fast functional mode, docs/sampling.md): the threads
 * of a warp that are running at the same PC take their turn together, as one
 * ws_exec_inst over their combined lane mask, which costs about what one
 * thread's turn costs. Only plain instructions are batched: a CTA barrier,
 * a warp-level operation, activemask, legacy vote and the convergence-barrier
 * pseudo-instructions take the one-thread path (step) lane by lane, so their
 * semantics are exactly the MIMD reference's. What changes is the order of
 * the turns (a thread's neighbours at the same PC move with it, as on a SIMT
 * core with perfect reconvergence), which a race-free kernel cannot observe;
 * the thread instruction count is the same (one per thread and instruction,
 * guard false or not). */
static int batchable(const ws_inst *in)
{
    if (ws_opcode_flags(in->op) & (WS_OPF_DIVOP | WS_OPF_SPILL | WS_OPF_CTABAR))   /* isa.def: ADD/WAIT/YIELD, BMOV, bar */
        return 0;
    if (in->op == WS_OP_ACTIVEMASK || in->op == WS_OP_VOTE)
        return 0;
    return !ws_warp_aligned(in) && !ws_warp_membermask(in);
}

/* One lock-step turn of the lanes `mask` of warp g, all running at pc. */
static int group_turn(ref *r, uint32_t g, uint32_t pc, uint64_t mask)
{
    ws_warp *w = &r->warps[g];
    const ws_inst *in = &r->k->insts[pc];
    uint64_t base = (uint64_t)g * r->ws;
    r->env.clock = r->steps;
    r->steps += (uint64_t)__builtin_popcountll(mask);
    ws_effect *e = &r->eff;
    if (ws_exec_inst(&r->env, w, in, pc, mask, e) != WS_EXEC_OK)
        return exec_fault(r, g, (uint32_t)__builtin_ctzll(mask));
    if (in->op == WS_OP_TRAP && (e->executed & mask)) {
        char who[96];
        uint32_t lane = (uint32_t)__builtin_ctzll(e->executed & mask);
        thread_desc(r, g, lane, who, sizeof who);
        return fail(r, WS_ST_ERROR, "%s: trap at pc %u (line %u)", who, pc, in->line);
    }
    uint64_t gone = (in->op == WS_OP_EXIT || in->op == WS_OP_RET) ? e->exited & mask : 0;
    uint64_t taken = in->op == WS_OP_BRA || in->op == WS_OP_BRX ? e->taken & mask : 0;
    uint32_t next = pc + 1;
    if (in->op == WS_OP_BRA && taken == mask) {   /* uniform branch: one target */
        next = in->target;
        taken = 0;
    }
    uint64_t same = mask & ~taken;
    uint32_t *pcs = &r->pc[base];
    for (uint32_t l = 0; l < w->nlanes; l++)   /* branch-free: vectorised */
        pcs[l] = ((same >> l) & 1) ? next : pcs[l];
    for (uint64_t x = taken; x; x &= x - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(x);
        r->pc[base + l] = in->op == WS_OP_BRA ? in->target : e->lane_target[l];
    }
    if (gone)
        threads_exit(r, g, gone);
    return r->failed ? -1 : 0;
}

/* One lock-step turn of every group of warp g's running threads (threads at
 * one PC), in the order of their lowest lane; 1 if any thread ran. */
static int lockstep_turn(ref *r, uint32_t g, uint64_t max_steps)
{
    ws_warp *w = &r->warps[g];
    uint64_t base = (uint64_t)g * r->ws;
    /* one branch-free pass (the compiler vectorises it): the running lanes,
     * and whether they are all at one PC (the common case: no grouping) */
    const uint8_t *st = &r->state[base];
    const uint32_t *pcs = &r->pc[base];
    uint64_t todo = 0;
    for (uint32_t l = 0; l < w->nlanes; l++)
        todo |= (uint64_t)(st[l] == T_RUN) << l;
    todo &= w->valid & ~r->exited[g];
    uint32_t pc0 = todo ? pcs[__builtin_ctzll(todo)] : 0, differ = 0;
    for (uint32_t l = 0; l < w->nlanes; l++)
        differ |= (pcs[l] ^ pc0) & -(uint32_t)(st[l] == T_RUN);
    int one_pc = differ == 0;
    int ran = 0;
    while (todo && !r->failed) {
        uint32_t pc = one_pc ? pc0 : r->pc[base + (uint32_t)__builtin_ctzll(todo)];
        uint64_t group = one_pc ? todo : 0;
        for (uint64_t x = group ? 0 : todo; x; x &= x - 1) {
            uint32_t l = (uint32_t)__builtin_ctzll(x);
            if (r->pc[base + l] == pc)
                group |= 1ull << l;
        }
        todo &= ~group;
        if (max_steps && r->steps >= max_steps)
            return ran ? 1 : -2;
        ran = 1;
        if (pc < r->k->ninsts && batchable(&r->k->insts[pc])) {
            group_turn(r, g, pc, group);
            continue;
        }
        /* one thread at a time; a turn (activemask) may move its neighbours */
        for (uint64_t x = group; x && !r->failed; x &= x - 1) {
            uint32_t l = (uint32_t)__builtin_ctzll(x);
            if (r->state[base + l] != T_RUN || r->pc[base + l] != pc || ((r->exited[g] >> l) & 1))
                continue;
            r->steps++;
            step(r, g, l);
        }
    }
    return ran;
}

/* ---- grouped MIMD turns (docs/model.md, "The reference's thread groups") ----
 *
 * The MIMD order gives the threads of warp g their turns one after another,
 * in lane order, within one pass of run_threads. Threads that take
 * consecutive turns at the same instruction can take them in one
 * ws_exec_inst over their lanes, with exactly the MIMD outcome, when the
 * executor runs that instruction lane by lane in lane order (each lane reads
 * and writes memory before the next one: exec_mem.c's LANE_LOOPs) and the
 * instruction cannot change another thread's state (release a barrier, a
 * warp-level rendezvous, move an activemask neighbour). A register-only
 * instruction touches nothing another thread can see, so its turn can even be
 * taken early, ahead of lanes at other PCs, as long as none of those reads
 * other lanes' registers (a warp-level operation). */
enum { G_SINGLE, G_RUN, G_PRIVATE };

static int reads_clock(const ws_inst *in)
{
    for (unsigned i = 0; i < in->nsrc; i++) {
        const ws_operand *o = &in->src[i];
        if (o->kind == WS_OK_SREG && (o->sreg == WS_SR_CLOCK || o->sreg == WS_SR_CLOCK64 ||
                                      o->sreg == WS_SR_GLOBALTIMER || o->sreg == WS_SR_GLOBALTIMER_LO ||
                                      o->sreg == WS_SR_GLOBALTIMER_HI))
            return 1;
    }
    return 0;
}

/* How the threads at instruction in may be grouped: G_PRIVATE (register-only:
 * every thread of the pass at this PC), G_RUN (memory: a run of consecutive
 * turns at this PC) or G_SINGLE (one thread per turn, step). */
static int group_kind(const ws_inst *in)
{
    if (ws_warp_aligned(in) || ws_warp_membermask(in))
        return G_SINGLE;   /* warp-level .sync operations: a rendezvous */
    if (reads_clock(in))
        return G_SINGLE;   /* %clock is the turn count: one value per turn */
    switch (in->op) {
    case WS_OP_LD:
    case WS_OP_LDU:
    case WS_OP_ST:
    case WS_OP_ATOM:
    case WS_OP_RED:
    case WS_OP_MEMBAR:
    case WS_OP_FENCE:
        return G_RUN;
    case WS_OP_BRA:
    case WS_OP_BRX:
        return G_PRIVATE;
    case WS_OP_ACTIVEMASK:
    case WS_OP_NANOSLEEP:
    case WS_OP_PREFETCH:
        return G_SINGLE;
    default:
        break;
    }
    ws_unit u = ws_opcode_unit(in->op);
    return u == WS_UNIT_ALU || u == WS_UNIT_SFU ? G_PRIVATE : G_SINGLE;
}

/* The lanes of `left` (those whose turn in this pass is still to come, in
 * lane order) that take their turn at pc together with the one whose turn it
 * is now: for G_RUN the running lanes at pc up to the first running lane at
 * another PC; for G_PRIVATE every running lane at pc up to the first running
 * lane at an instruction of kind G_SINGLE (which may read registers of other
 * lanes). Lanes not running (waiting, exited) keep not running meanwhile:
 * nothing in the group can release them. */
static uint64_t group_lanes(const ref *r, uint32_t g, uint64_t left, uint32_t pc, int kind, uint64_t *allrun)
{
    uint64_t base = (uint64_t)g * r->ws;
    const uint8_t *st = &r->state[base];
    const uint32_t *pcs = &r->pc[base];
    uint64_t run = 0, at = 0;
    for (uint32_t l = 0; l < r->warps[g].nlanes; l++) {   /* branch-free: vectorised */
        run |= (uint64_t)(st[l] == T_RUN) << l;
        at |= (uint64_t)(pcs[l] == pc) << l;
    }
    run &= r->warps[g].valid & ~r->exited[g];
    *allrun = run;
    run &= left;
    uint64_t others = run & ~at;   /* running lanes at other PCs */
    if (kind == G_PRIVATE)
        for (uint64_t x = others; x; x &= x - 1) {
            uint32_t l = (uint32_t)__builtin_ctzll(x);
            if (pcs[l] < r->k->ninsts && r->kind[pcs[l]] != G_SINGLE)
                others &= ~(1ull << l);
        }
    uint64_t before = others ? (1ull << __builtin_ctzll(others)) - 1 : ~0ull;   /* up to the first that stops it */
    return run & at & before;
}

/* A grouped turn of the lanes `group` of warp g faulted (env.fault names the
 * lane; the executor stopped there, after the lanes before it). One thread
 * per turn takes, before the faulting lane's turn, the turns of the group's
 * lanes before it and of the running lanes of `rest` before it at other PCs
 * (a register-only group takes later lanes early): those are taken now, one
 * by one, and the fault is reported unless one of them faults first. So the
 * steps, the memory and the message are the one-thread-per-turn ones. */
static void group_fault(ref *r, uint32_t g, uint64_t group, uint64_t rest, uint64_t steps_before)
{
    uint64_t base = (uint64_t)g * r->ws;
    unsigned fl;
    if (sscanf(r->env.fault, "lane %u", &fl) != 1 || fl >= 64 || !((group >> fl) & 1))
        fl = (unsigned)__builtin_ctzll(group);
    uint64_t upto = fl == 63 ? ~0ull : (2ull << fl) - 1;
    r->steps = steps_before + (uint64_t)__builtin_popcountll(group & upto);
    char msg[sizeof r->env.fault];
    memcpy(msg, r->env.fault, sizeof msg);
    for (uint64_t x = rest & upto & ~group; x && !r->failed; x &= x - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(x);
        if (r->state[base + l] != T_RUN)
            continue;
        r->steps++;
        step(r, g, l);
    }
    if (r->failed)
        return;
    memcpy(r->env.fault, msg, sizeof msg);
    exec_fault(r, g, fl);
}

/* The turns of the lanes `group` of warp g, all running at pc, in one
 * ws_exec_inst: the MIMD reference's turns (the same steps, memory and
 * faults: group_fault). rest: the lanes whose turn in this pass is still to
 * come. */
static void mimd_group_turn(ref *r, uint32_t g, uint32_t pc, uint64_t group, uint64_t rest, int converged)
{
    ws_warp *w = &r->warps[g];
    const ws_inst *in = &r->k->insts[pc];
    uint64_t base = (uint64_t)g * r->ws;
    uint64_t before = r->steps;
    r->steps += group == w->valid ? w->nlanes : (uint64_t)__builtin_popcountll(group);
    ws_effect *e = &r->eff;
    if (ws_exec_inst(&r->env, w, in, pc, group, e) != WS_EXEC_OK) {
        group_fault(r, g, group, rest, before);
        return;
    }
    uint64_t taken = in->op == WS_OP_BRA || in->op == WS_OP_BRX ? e->taken & group : 0;
    uint64_t same = group & ~taken;
    uint32_t next = pc + 1, *pcs = &r->pc[base];
    if (converged && (taken == 0 || (taken == group && in->op == WS_OP_BRA))) {
        /* every running lane moves to one PC: the warp stays converged */
        if (taken)
            next = in->target;
        r->conv[g] = group;
        if (group == w->valid) {
            uint32_t n = w->nlanes;   /* a local bound: the compiler vectorises the fill */
            for (uint32_t l = 0; l < n; l++)
                pcs[l] = next;
        } else {
            for (uint64_t x = group; x; x &= x - 1)
                pcs[__builtin_ctzll(x)] = next;
        }
        return;
    }
    r->conv[g] = 0;
    if (in->op == WS_OP_BRA) {   /* the common case, branch-free: vectorised */
        for (uint32_t l = 0; l < w->nlanes; l++)
            pcs[l] = ((same >> l) & 1) ? next : ((taken >> l) & 1) ? in->target : pcs[l];
        return;
    }
    for (uint32_t l = 0; l < w->nlanes; l++)
        pcs[l] = ((same >> l) & 1) ? next : pcs[l];
    for (uint64_t x = taken; x; x &= x - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(x);
        pcs[l] = e->lane_target[l];
    }
}

/* One pass of the MIMD order over warp g: every running thread one turn, in
 * lane order, consecutive turns at one PC grouped (see above). 1 if any
 * thread ran, 0 if none, -2 on reaching max_steps. */
static int mimd_warp_pass(ref *r, uint32_t g, uint64_t max_steps)
{
    uint64_t base = (uint64_t)g * r->ws;
    uint64_t left = r->warps[g].valid & ~r->exited[g];
    int ran = 0;
    while (left && !r->failed) {
        uint32_t l = (uint32_t)__builtin_ctzll(left);
        left &= left - 1;
        if (r->state[base + l] != T_RUN)
            continue;
        if (max_steps && r->steps >= max_steps)
            return -2;
        ran = 1;
        uint32_t pc = r->pc[base + l];
        int kind = pc < r->k->ninsts ? r->kind[pc] : G_SINGLE;
        /* near max_steps, one thread per turn, so that the turns taken are exactly the MIMD ones */
        if (kind != G_SINGLE && !r->single_turns && (!max_steps || r->steps + r->ws <= max_steps)) {   /* at most ws turns left in the pass */
            uint64_t group = r->conv[g], allrun = group;   /* converged: every running lane is at pc */
            if (!group)
                group = (1ull << l) | group_lanes(r, g, left, pc, kind, &allrun);
            left &= ~group;
            r->env.clock = r->steps + 1;
            mimd_group_turn(r, g, pc, group, left, group == allrun);
            continue;
        }
        r->steps++;
        step(r, g, l);
        /* a turn of one thread may move any thread of the CTA (a barrier's release) */
        uint32_t c = g / r->wpc;
        memset(&r->conv[(uint64_t)c * r->wpc], 0, r->wpc * sizeof *r->conv);
    }
    return ran;
}

static void describe_deadlock(ref *r)
{
    uint64_t nbar = 0, nwarp = 0, first = UINT64_MAX;
    for (uint64_t t = 0; t < (uint64_t)r->nwarps * r->ws; t++) {
        if (r->state[t] == T_BAR)
            nbar++;
        else if (r->state[t] == T_WARP)
            nwarp++;
        else
            continue;
        if (first == UINT64_MAX)
            first = t;
    }
    char who[96] = "?";
    const char *what = "?";
    uint32_t pc = 0, line = 0;
    if (first != UINT64_MAX) {
        thread_desc(r, (uint32_t)(first / r->ws), (uint32_t)(first % r->ws), who, sizeof who);
        pc = r->pc[first];
        line = pc < r->k->ninsts ? r->k->insts[pc].line : 0;
        what = r->state[first] == T_BAR ? "a CTA barrier" : "a warp-level sync";
    }
    fail(r, WS_ST_DEADLOCK,
         "deadlock: all %llu live threads wait (%llu at CTA barriers, %llu at warp-level syncs); first: %s at pc %u "
         "(line %u) waiting at %s",
         (unsigned long long)r->live_total, (unsigned long long)nbar, (unsigned long long)nwarp, who, pc, line, what);
}

static void timeout(ref *r)
{
    fail(r, WS_ST_TIMEOUT, "timeout: %llu thread instructions executed, %llu threads still running",
         (unsigned long long)r->steps, (unsigned long long)r->live_total);
}

/* Turns until every thread exited or the run failed: in the round-robin
 * order of the header, one thread per turn, or one group of threads at one
 * PC per turn in lock-step mode. */
static void run_threads(ref *r, uint64_t max_steps)
{
    while (r->live_total > 0 && !r->failed) {
        int progress = 0;
        for (uint32_t g = 0; g < r->nwarps && !r->failed; g++) {
            if (r->lockstep) {
                int ran = lockstep_turn(r, g, max_steps);
                if (ran == -2) {
                    timeout(r);
                    break;
                }
                progress |= ran;
                continue;
            }
            int ran = mimd_warp_pass(r, g, max_steps);
            if (ran == -2) {
                timeout(r);
                break;
            }
            progress |= ran;
        }
        if (!progress && !r->failed && r->live_total > 0)
            describe_deadlock(r);
    }
}

static int setup(ref *r, ws_memimage *mem)
{
    const ws_ref_launch *rl = r->rl;
    const ws_kernel *k = r->k;
    uint32_t tpc = rl->block[0] * rl->block[1] * rl->block[2];
    r->wpc = (tpc + r->ws - 1) / r->ws;
    uint64_t nctas = rl->cta_end > rl->cta_first ? rl->cta_end - rl->cta_first : 0;
    uint64_t nwarps = nctas * r->wpc;
    if (nwarps > (1u << 26))
        return fail(r, WS_ST_INVALID, "reference: %llu warps are too many to run at once", (unsigned long long)nwarps);
    /* every warp of the grid is resident at once: bound the memory before allocating it */
    double need = (double)nwarps * ((double)(k->nslots ? k->nslots : 1) * r->ws * 8.0 +
                                    (double)(k->local_bytes ? k->local_bytes : 1) * r->ws + 32.0 * r->ws + 256.0) +
                  (double)nctas * ((double)k->shared_bytes + rl->dyn_shared_bytes + 256.0);
    if (need > (double)(4ull << 30))
        return fail(r, WS_ST_INVALID, "reference: %llu warps x %u lanes (kernel %s needs %u register rows per thread "
                    "after compaction, declared %u) need %.1f GiB at once, more than the limit of 4 GiB",
                    (unsigned long long)nwarps, r->ws, k->name, k->nslots ? k->nslots : 1, k->nregs,
                    need / (1u << 30));
    r->nctas = (uint32_t)nctas;
    r->nwarps = (uint32_t)nwarps;
    ws_launch *L = &r->launch;
    L->kernel = k;
    memcpy(L->grid, rl->grid, sizeof L->grid);
    memcpy(L->block, rl->block, sizeof L->block);
    L->threads_per_cta = tpc;
    L->warps_per_cta = r->wpc;
    L->warp_size = r->ws;
    L->param_buf = (uint8_t *)rl->param_buf;   /* the executor only reads .param */
    L->shared_bytes = k->shared_bytes + rl->dyn_shared_bytes;
    L->local_bytes = k->local_bytes;
    r->env.launch = L;
    r->env.gmem = &mem->gmem;
    r->env.nsm = 1;
    r->env.nwarps_hw = r->nwarps;

    uint64_t nslots = nwarps * r->ws;
    r->ctas = calloc(nctas, sizeof *r->ctas);
    r->rc = calloc(nctas, sizeof *r->rc);
    r->warps = calloc(nwarps, sizeof *r->warps);
    r->exited = calloc(nwarps, sizeof *r->exited);
    r->waiting = calloc(nwarps ? nwarps : 1, sizeof *r->waiting);
    r->pc = calloc(nslots, sizeof *r->pc);
    r->state = malloc(nslots);
    r->bar = calloc(nslots, 1);
    r->wmask = calloc(nslots, sizeof *r->wmask);
    r->redp = calloc(nslots, 1);
    r->kind = malloc(k->ninsts ? k->ninsts : 1);
    r->conv = calloc(nwarps ? nwarps : 1, sizeof *r->conv);
    if (!r->conv || !r->waiting || !r->ctas || !r->rc || !r->warps || !r->exited || !r->pc || !r->state || !r->bar || !r->wmask || !r->redp ||
        !r->kind)
        return fail(r, WS_ST_ERROR, "reference: out of memory");
    for (uint32_t i = 0; i < k->ninsts; i++)
        r->kind[i] = (uint8_t)group_kind(&k->insts[i]);
    memset(r->state, T_NONE, nslots);
    for (uint32_t c = 0; c < nctas; c++) {
        ws_cta *cta = &r->ctas[c];
        uint64_t id = rl->cta_first + c;
        cta->linear_id = (uint32_t)id;
        cta->ctaid[0] = (uint32_t)(id % rl->grid[0]);
        cta->ctaid[1] = (uint32_t)((id / rl->grid[0]) % rl->grid[1]);
        cta->ctaid[2] = (uint32_t)(id / ((uint64_t)rl->grid[0] * rl->grid[1]));
        cta->smem = calloc(1, L->shared_bytes ? L->shared_bytes : 1);
        if (!cta->smem)
            return fail(r, WS_ST_ERROR, "reference: out of memory");
        r->rc[c].live = tpc;
        for (uint32_t wi = 0; wi < r->wpc; wi++) {
            uint32_t g = c * r->wpc + wi;
            ws_warp *w = &r->warps[g];
            w->regs = malloc((uint64_t)(k->nslots ? k->nslots : 1) * r->ws * sizeof(uint64_t));   /* ws_warp_reset_regs clears them */
            w->local = calloc(1, (uint64_t)(L->local_bytes ? L->local_bytes : 1) * r->ws);
            if (!w->regs || !w->local)
                return fail(r, WS_ST_ERROR, "reference: out of memory");
            ws_warp_reset_regs(w, k->nslots ? k->nslots : 1, r->ws);
            w->slot = k->reg_slot;
            w->cta = cta;
            w->warp_in_cta = wi;
            w->hw_warp = g;
            w->smid = 0;
            uint32_t first = wi * r->ws;
            w->nlanes = tpc - first < r->ws ? tpc - first : r->ws;
            w->valid = w->nlanes >= 64 ? ~0ull : (1ull << w->nlanes) - 1;
            for (uint32_t l = 0; l < w->nlanes; l++) {
                uint32_t lt = first + l;
                w->tid[0][l] = lt % rl->block[0];
                w->tid[1][l] = (lt / rl->block[0]) % rl->block[1];
                w->tid[2][l] = lt / (rl->block[0] * rl->block[1]);
                r->state[(uint64_t)g * r->ws + l] = T_RUN;
            }
        }
    }
    r->live_total = nctas * tpc;
    return 0;
}

static void teardown(ref *r)
{
    if (r->ctas)
        for (uint32_t c = 0; c < r->nctas; c++)
            free(r->ctas[c].smem);
    if (r->warps)
        for (uint32_t g = 0; g < r->nwarps; g++) {
            free(r->warps[g].regs);
            free(r->warps[g].local);
        }
    free(r->ctas);
    free(r->rc);
    free(r->warps);
    free(r->exited);
    free(r->waiting);
    free(r->pc);
    free(r->state);
    free(r->bar);
    free(r->wmask);
    free(r->redp);
    free(r->kind);
    free(r->conv);
}

void ws_reference_launch(const ws_ref_launch *l, uint32_t warp_size, uint64_t max_steps, ws_memimage *mem,
                         ws_result *res)
{
    memset(res, 0, sizeof *res);
    res->status = WS_ST_OK;
    ref *r = calloc(1, sizeof *r);
    if (!r) {
        res->status = WS_ST_ERROR;
        snprintf(res->message, sizeof res->message, "reference: out of memory");
        return;
    }
    r->rl = l;
    r->k = l->kernel;
    r->lockstep = l->lockstep;
    r->single_turns = l->single_turns;
    r->res = res;
    r->ws = warp_size < 1 ? 1 : warp_size > WS_MAX_WARP_SIZE ? WS_MAX_WARP_SIZE : warp_size;
    if (!r->k) {
        fail(r, WS_ST_ERROR, "reference: workload has no kernel");
    } else if (setup(r, mem) == 0) {
        run_threads(r, max_steps);
    }
    res->metrics[WS_M_thread_insts].i = (int64_t)r->steps;
    res->metrics[WS_M_warp_insts].i = (int64_t)r->steps;
    res->metrics[WS_M_cycles].i = 0;
    teardown(r);
    free(r);
}

/* The sequence's state while ws_reference_run follows it. */
typedef struct ref_seq {
    const ws_workload *wl;
    ws_memimage *mem;
    uint32_t warp_size;
    uint64_t max_steps, steps;       /* over the whole sequence (0: no limit) */
    uint32_t nrun;
    int lockstep, single_turns;
    ws_result *res;
} ref_seq;

static int ref_launch(void *ctx, const ws_launch_spec *spec, uint32_t li, uint32_t stmt, uint64_t iteration)
{
    ref_seq *q = ctx;
    (void)stmt;
    (void)iteration;
    ws_ref_launch l = {.kernel = spec->kernel, .param_buf = ws_memimage_params(q->mem, li),
                       .param_bytes = spec->kernel ? spec->kernel->param_bytes : 0,
                       .dyn_shared_bytes = spec->dyn_shared_bytes, .cta_first = 0,
                       .cta_end = ws_launch_ctas(spec), .lockstep = q->lockstep,
                       .single_turns = q->single_turns};
    memcpy(l.grid, spec->grid, sizeof l.grid);
    memcpy(l.block, spec->block, sizeof l.block);
    uint64_t left = 0;
    if (q->max_steps) {
        left = q->max_steps - q->steps;
        if (!left) {
            q->res->status = WS_ST_TIMEOUT;
            snprintf(q->res->message, sizeof q->res->message,
                     "timeout: %llu thread instructions executed before launch %u (%s)", (unsigned long long)q->steps,
                     q->nrun, spec->name ? spec->name : "?");
            return 1;
        }
    }
    ws_result lr;
    ws_reference_launch(&l, q->warp_size, left, q->mem, &lr);
    q->steps += (uint64_t)lr.metrics[WS_M_thread_insts].i;
    q->nrun++;
    if (lr.status == WS_ST_OK)
        return 0;
    q->res->status = lr.status;
    if (q->wl->nstmts > 1) {   /* say which launch */
        int n = snprintf(q->res->message, sizeof q->res->message, "launch %u (%.60s): ", q->nrun - 1,
                         spec->name ? spec->name : "?");
        size_t room = sizeof q->res->message - (size_t)n - 1, len = strlen(lr.message);
        memcpy(q->res->message + n, lr.message, len < room ? len : room);
        q->res->message[n + (len < room ? len : room)] = 0;
    } else {
        memcpy(q->res->message, lr.message, sizeof lr.message);
    }
    return 1;
}

static void reference_run(const ws_workload *wl, uint64_t seed, uint32_t warp_size, uint64_t max_steps,
                          ws_memimage *mem, ws_result *res, int lockstep, int single_turns)
{
    memset(res, 0, sizeof *res);
    memset(mem, 0, sizeof *mem);
    res->status = WS_ST_OK;
    if (!wl->kernel) {
        res->status = WS_ST_ERROR;
        snprintf(res->message, sizeof res->message, "reference: workload has no kernel");
        return;
    }
    ws_error err;
    if (ws_memimage_init(mem, wl, seed, &err) < 0) {
        res->status = WS_ST_ERROR;
        snprintf(res->message, sizeof res->message, "%s", err.msg);
        return;
    }
    ref_seq q = {.wl = wl, .mem = mem, .warp_size = warp_size, .max_steps = max_steps, .lockstep = lockstep,
                 .single_turns = single_turns, .res = res};
    ws_sequence_run(wl, mem, ref_launch, &q);
    res->metrics[WS_M_thread_insts].i = (int64_t)q.steps;
    res->metrics[WS_M_warp_insts].i = (int64_t)q.steps;
    res->metrics[WS_M_cycles].i = 0;
    res->metrics[WS_M_launches].i = (int64_t)q.nrun;
}

void ws_reference_run(const ws_workload *wl, uint64_t seed, uint32_t warp_size, uint64_t max_steps,
                      ws_memimage *mem, ws_result *res)
{
    reference_run(wl, seed, warp_size, max_steps, mem, res, 0, 0);
}

void ws_reference_run_lockstep(const ws_workload *wl, uint64_t seed, uint32_t warp_size, uint64_t max_steps,
                               ws_memimage *mem, ws_result *res)
{
    reference_run(wl, seed, warp_size, max_steps, mem, res, 1, 0);
}

void ws_reference_run_single(const ws_workload *wl, uint64_t seed, uint32_t warp_size, uint64_t max_steps,
                             ws_memimage *mem, ws_result *res)
{
    reference_run(wl, seed, warp_size, max_steps, mem, res, 0, 1);
}
