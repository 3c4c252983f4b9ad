/*
 * barrier: Turing's convergence barriers as the hardware runs them, on the
 * kernel transformed by ws_barrier_transform (passes.h; ADD = BSSY, WAIT =
 * BSYNC). Rules and their sources (docs/model.md "Divergence: barrier"):
 *
 *  - ADD, WAIT and YIELD are instructions: the split at them issues them
 *    (an issue slot, the CTRL/SYNC unit's latency), and the core counts them
 *    in div_insts, not warp_insts (Shoushtary, Tubella, Gonzalez, "Control
 *    Flow Management in Modern GPUs", arXiv 2407.02944: BSSY, BSYNC, BREAK,
 *    YIELD, WARPSYNC are SASS instructions of their own).
 *  - placement: ws_barrier_transform's, then ws_barrier_sink_release (a spin
 *    loop's WAIT after the lock's release, as ptxas places the BSYNC:
 *    Shoushtary et al.).
 *  - ADD Bx: the executing threads join Bx's participants (patent
 *    US10067768B2: the instruction "indicates ... that the thread
 *    participates in a convergence barrier").
 *  - WAIT Bx: an arriving participant blocks, a non-participant passes; Bx
 *    clears when at least one thread is blocked at it and every participant
 *    is blocked, yielded or exited (the patent), releasing the blocked threads
 *    together as one split, each at the instruction after its WAIT.
 *  - one split owns the warp: only it is offered to the scheduler, stalls
 *    and all (no switch on a stall; switching on stalls is Damani et al.'s
 *    proposal, div_sbi.c). It keeps the warp until it blocks at a WAIT, issues
 *    a YIELD, waits at a CTA barrier, waits at a warp-level .sync op for lanes
 *    of another split, or its threads exit (Shoushtary et al.: interleaving
 *    only at YIELD and at blocking points).
 *  - the splits form a stack (the warp-split stack of Shoushtary et al.'s
 *    Hanoi): at a divergent branch the fall-through group is pushed first and
 *    the taken group on top, so the taken path runs first (the order
 *    GPGPU-Sim's stack uses; the paper's measured order is not modelled
 *    separately); released threads are pushed on top; a split that yields or
 *    waits at a CTA barrier goes to the bottom, so every other split gets the
 *    warp before it does again.
 *  - threads meet only at a WAIT, or at a warp-level .sync op (WARPSYNC
 *    semantics: the op converges its members): elsewhere two splits at one PC
 *    stay two splits.
 *  - every split is offered, top first, and the core stops at the first that
 *    stalls (ws_div_ops.owner_keeps_warp): one held at a CTA barrier or
 *    waiting for the members of a .sync op passes the warp down (the core's
 *    rendezvous collects the members); the split that issues goes on top.
 */
#include <string.h>
#include <stdio.h>
#include "div_cbar.h"
#include "warpsweep/area.h"

typedef struct tst {
    uint32_t n, max_splits, nbar, pad;
    uint64_t exited, yielded;
    ws_split sp[WS_MAX_WARP_SIZE + 1];   /* warp-split stack, top first: sp[0] owns the warp */
    uint32_t wait_pc[WS_MAX_WARP_SIZE];  /* per lane: the WAIT it is blocked at */
    /* then: part[nbar], blocked[nbar] */
    uint64_t bars[];
} tst;

#define PART(s) ((s)->bars)
#define BLK(s) ((s)->bars + (s)->nbar)

static size_t tb_size(const ws_div_ctx *c)
{
    return sizeof(tst) + c->nbar * 2 * sizeof(uint64_t);
}

static void push_bottom(tst *s, uint32_t pc, uint64_t lanes)
{
    if (!lanes) return;
    s->sp[s->n].pc = pc;
    s->sp[s->n].mask = lanes;
    s->sp[s->n].aux = 0;
    s->n++;
    if (s->n > s->max_splits) s->max_splits = s->n;
}

static void push_top(tst *s, uint32_t pc, uint64_t lanes)
{
    if (!lanes) return;
    memmove(&s->sp[1], &s->sp[0], s->n * sizeof(ws_split));
    s->sp[0].pc = pc;
    s->sp[0].mask = lanes;
    s->sp[0].aux = 0;
    s->n++;
    if (s->n > s->max_splits) s->max_splits = s->n;
}

/* Takes the lanes that issued out of their split (the first from the top
 * at pc that holds them). */
static void remove_lanes(tst *s, uint32_t pc, uint64_t lanes)
{
    for (uint32_t i = 0; i < s->n; i++) {
        if (s->sp[i].pc != pc || !(s->sp[i].mask & lanes)) continue;
        s->sp[i].mask &= ~lanes;
        if (!s->sp[i].mask) {
            memmove(&s->sp[i], &s->sp[i + 1], (s->n - i - 1) * sizeof(ws_split));
            s->n--;
        }
        return;
    }
}


/* Clears every barrier whose participants are all blocked, yielded or
 * exited; the released threads go on top, one split per WAIT. */
static void check_barriers(tst *s)
{
    for (int again = 1; again;) {
        again = 0;
        for (uint32_t b = 0; b < s->nbar; b++) {
            uint64_t blk = BLK(s)[b];
            if (!blk) continue;
            uint64_t p = PART(s)[b] & ~s->exited;
            if (p & ~(blk | s->yielded)) continue;
            BLK(s)[b] = 0;
            PART(s)[b] = 0;
            while (blk) {
                uint32_t pc = s->wait_pc[__builtin_ctzll(blk)];
                uint64_t same = ws_cbar_waiting_at(s->wait_pc, blk, pc);
                push_top(s, pc + 1, same);
                blk &= ~same;
            }
            again = 1;
        }
    }
}

static void tb_init(const ws_div_ctx *c, void *st, uint64_t valid)
{
    tst *s = st;
    memset(s, 0, tb_size(c));
    s->nbar = c->nbar;
    push_top(s, 0, valid);
}

/* Every split, top first: the core issues the first that is not waiting at
 * a CTA barrier or for the members of a .sync op, and stops at the first
 * that only stalls (ws_div_ops.owner_keeps_warp). */
static uint32_t tb_splits(void *st, const ws_split **out, uint32_t *start)
{
    tst *s = st;
    *out = s->sp;
    *start = 0;
    return s->n;
}

/* Splits that reach one warp-level .sync op (shfl/vote/match/redux/
 * bar.warp.sync) meet there: the op converges the lanes it names (ptxas
 * lowers it with WARPSYNC), so they are one split from there on (the upper one
 * keeps its place). Without this a member split with lanes of two membermask
 * groups could never join the others' rendezvous. */
static void merge_at_sync(const ws_div_ctx *c, tst *s)
{
    for (uint32_t i = 0; i < s->n; i++) {
        uint32_t pc = s->sp[i].pc;
        if (pc >= c->k->ninsts || !ws_warp_membermask(&c->k->insts[pc])) continue;
        for (uint32_t j = i + 1; j < s->n;) {
            if (s->sp[j].pc != pc) { j++; continue; }
            s->sp[i].mask |= s->sp[j].mask;
            memmove(&s->sp[j], &s->sp[j + 1], (s->n - j - 1) * sizeof(ws_split));
            s->n--;
        }
    }
}

/* Pushes the lanes of a branch by next PC: fall-through first, taken on top
 * (brx: targets in the order of their lowest lane). */
static void push_branch(tst *s, const ws_inst *in, uint32_t pc, uint64_t active, const ws_effect *eff)
{
    uint64_t taken = eff->taken & active, fall = active & ~taken;
    push_top(s, pc + 1, fall);
    if (in->op == WS_OP_BRA) {
        push_top(s, in->target, taken);
        return;
    }
    while (taken) {
        uint32_t t = eff->lane_target[__builtin_ctzll(taken)];
        uint64_t g = 0;
        for (uint64_t m = taken; m; m &= m - 1) {
            uint32_t l = (uint32_t)__builtin_ctzll(m);
            if (eff->lane_target[l] == t) g |= 1ull << l;
        }
        push_top(s, t, g);
        taken &= ~g;
    }
}

static int tb_update(const ws_div_ctx *c, void *st, const ws_split *spl, const ws_inst *in,
                     const ws_effect *eff, char *err, size_t errlen)
{
    (void)err; (void)errlen;
    tst *s = st;
    uint32_t pc = spl->pc;
    uint64_t active = spl->mask;
    remove_lanes(s, pc, active);
    s->yielded &= ~active;
    int check = 0;
    if (eff->exited) {
        s->exited |= eff->exited;
        ws_cbar_exit(PART(s), s->nbar, eff->exited);
        active &= ~eff->exited;
        check = 1;
    }
    if (!active) {                       /* every lane exited */
        check_barriers(s);
        merge_at_sync(c, s);
        return 0;
    }
    uint32_t b = in->barrier < s->nbar ? in->barrier : 0;
    switch (in->op) {
    case WS_OP_BADD:
        PART(s)[b] |= active;
        push_top(s, pc + 1, active);
        break;
    case WS_OP_BWAIT: {
        uint64_t blk = active & PART(s)[b];
        BLK(s)[b] |= blk;
        for (uint64_t m = blk; m; m &= m - 1) s->wait_pc[__builtin_ctzll(m)] = pc;
        push_top(s, pc + 1, active & ~blk);
        check = 1;
        break;
    }
    case WS_OP_YIELD:
        s->yielded |= active;
        push_bottom(s, pc + 1, active);
        check = 1;
        break;
    case WS_OP_BAR: case WS_OP_BARRIER:
        if (in->subop != WS_BAR_ARRIVE) push_bottom(s, pc + 1, active);   /* waits for the CTA */
        else push_top(s, pc + 1, active);
        break;
    case WS_OP_BRA: case WS_OP_BRX:
        push_branch(s, in, pc, active, eff);
        break;
    default:
        push_top(s, pc + 1, active);
        break;
    }
    if (check) check_barriers(s);
    merge_at_sync(c, s);
    return 0;
}

/* Trace column "split": the split's depth in the warp-split stack (0 = top). */
static uint32_t tb_level(const void *st, uint32_t idx)
{
    (void)st;
    return idx;
}

static void tb_stats(const void *st, uint32_t *depth, uint32_t *splits)
{
    const tst *s = st;
    *depth = 0;
    *splits = s->max_splits;
}

/* Lanes blocked at a WAIT whose other participants all wait at a CTA barrier
 * (or are blocked there too): they reconverge only after those lanes move. */
static uint64_t tb_parked(const ws_div_ctx *c, const void *st, uint64_t held)
{
    (void)c;
    const tst *s = st;
    return ws_cbar_parked(PART(s), BLK(s), s->nbar, s->exited, held);
}

static uint64_t tb_sync_parked(const ws_div_ctx *c, const void *st, uint64_t waiting, uint32_t pc)
{
    (void)c;
    const tst *s = st;
    return ws_cbar_sync_parked(PART(s), BLK(s), s->nbar, s->exited, waiting, s->wait_pc, pc);
}

static uint64_t tb_hash(const ws_div_ctx *c, const void *st, uint64_t h)
{
    (void)c;
    const tst *s = st;
    h = ws_hmix(h, s->n);
    for (uint32_t i = 0; i < s->n; i++) {
        h = ws_hmix(h, s->sp[i].pc);
        h = ws_hmix(h, s->sp[i].mask);
    }
    h = ws_hmix(h, s->exited);
    h = ws_hmix(h, s->yielded);
    return ws_cbar_hash(h, PART(s), BLK(s), s->nbar, s->wait_pc);
}

static uint32_t line_of(const ws_kernel *k, uint32_t pc) { return pc < k->ninsts ? k->insts[pc].line : 0; }

static int tb_describe(const ws_div_ctx *c, const void *st, char *buf, size_t len)
{
    const tst *s = st;
    size_t n = 0;
    for (uint32_t i = 0; i < s->n && n < len; i++)
        n += (size_t)snprintf(buf + n, len - n, "%s%s pc %u (line %u) lanes 0x%llx%s", n ? "; " : "",
                              i == 0 ? "top split" : "waiting split", s->sp[i].pc,
                              line_of(c->k, s->sp[i].pc), (unsigned long long)s->sp[i].mask,
                              (s->sp[i].mask & s->yielded) ? " (yielded)" : "");
    return (int)ws_cbar_describe(c->k, PART(s), BLK(s), s->nbar, s->wait_pc, buf, len, n);
}

/* The patent's state, as sbi: barrier_regs participation masks + per thread
 * a state (2 bits) and a PC; the split stack's order is held in the same
 * per-thread PCs plus a 5-bit position per thread (32 splits at most). */
static uint64_t tb_state_bits(const ws_config *cfg)
{
    uint64_t ws = (uint64_t)ws_cfg_i(cfg, WS_P_warp_size);
    return (uint64_t)ws_cfg_i(cfg, WS_P_barrier_regs) * ws + ws * (2 + 5 + ws_area_count(cfg, WS_P_area_pc_bits));
}

const ws_div_ops ws_div_barrier = {
    .name = "barrier",
    .at_branch = "BSSY (ADD) before it, BSYNC (WAIT) at its IPDOM or after a spin lock's release, YIELD on spin back-edges (all issued, div_insts); one split owns the warp",
    .barrier_pass = 1,
    .sink_release = 1,
    .owner_keeps_warp = 1,
    .per_lane_blocking = 1,
    .warp_sync_waits = 1,
    .issues_div_ops = 1,
    .state_size = tb_size,
    .init = tb_init,
    .splits = tb_splits,
    .update = tb_update,
    .level = tb_level,
    .stats = tb_stats,
    .hash = tb_hash,
    .parked = tb_parked,
    .sync_parked = tb_sync_parked,
    .describe = tb_describe,
    .state_bits = tb_state_bits,
};
