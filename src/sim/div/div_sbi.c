/*
 * sbi: subwarp interleaving (Damani, Stephenson, Rangan, Johnstone, Kulkarni,
 * Keckler, "GPU Subwarp Interleaving", HPCA 2022): convergence barriers as in
 * patent US10067768B2, but any ready split may issue when another stalls (the
 * paper's proposal, not what Volta/Turing do: see div_barrier.c). On the
 * kernel transformed by ws_barrier_transform (passes.h):
 *
 *  - per thread: a PC and a state: ready, blocked (at WAIT Bx), exited; plus a
 *    `yielded` bit set by YIELD and cleared when the thread next issues. A
 *    blocked thread keeps its own resume point (the WAIT it blocked at): when
 *    lanes of one warp block at different WAITs of the same register (a
 *    spin-lock acquire in a grid-stride loop, lanes in different iterations;
 *    a register reused once its barrier is dead), each resumes after its own
 *    WAIT, as the patent's per-thread state does.
 *  - per warp: participation masks part[Bx]: ADD adds the threads that execute
 *    it (the patent: the instruction "indicates ... that the thread participates
 *    in a convergence barrier"), so splits that reach one ADD at different times
 *    (lanes leaving a spin lock one by one) all become participants.
 *  - splits = the ready threads grouped by PC: each split is a schedulable
 *    unit; threads that reach the same PC merge into one split.
 *  - ADD, WAIT and YIELD are not issued: they take effect, at no cost, the
 *    moment a split reaches them (they exist as BSSY/BSYNC/YIELD on Volta, but
 *    counting them would make warp_insts differ between the schemes).
 *  - WAIT Bx: an arriving participant is blocked; a non-participant passes.
 *    Bx clears when at least one thread is blocked at it and every participant
 *    is blocked at it, yielded or exited: the blocked threads are released
 *    together (reconvergence), each at the instruction after its WAIT, and the
 *    mask is emptied.  Checked whenever threads block, yield or exit.
 *  - which split issues: the core takes the warp's issuable splits round-robin
 *    in PC order, starting after the PC of the split that issued last
 *    (a `cursor`), so diverged paths interleave instruction by instruction.
 */
#include <string.h>
#include <stdio.h>
#include "div_cbar.h"
#include "warpsweep/area.h"

typedef struct bst {
    uint32_t nsplits, max_splits, nbar, cursor;
    uint64_t exited, yielded, blocked_any;
    ws_split sp[WS_MAX_WARP_SIZE + 1];   /* ready splits, ascending PC */
    uint32_t wait_pc[WS_MAX_WARP_SIZE];  /* per lane: the WAIT it is blocked at */
    /* then: part[nbar], blocked[nbar] */
    uint64_t bars[];
} bst;

#define PART(s) ((s)->bars)
#define BLK(s) ((s)->bars + (s)->nbar)

static size_t bar_size(const ws_div_ctx *c)
{
    return sizeof(bst) + c->nbar * 2 * sizeof(uint64_t);
}

static void add_split(bst *s, uint32_t pc, uint64_t lanes)
{
    uint32_t i = 0;
    while (i < s->nsplits && s->sp[i].pc < pc) i++;
    if (i < s->nsplits && s->sp[i].pc == pc) {
        s->sp[i].mask |= lanes;
        return;
    }
    memmove(&s->sp[i + 1], &s->sp[i], (s->nsplits - i) * sizeof(ws_split));
    s->sp[i].pc = pc;
    s->sp[i].mask = lanes;
    s->sp[i].aux = 0;
    s->nsplits++;
    if (s->nsplits > s->max_splits) s->max_splits = s->nsplits;
}

static int check_barriers(const ws_div_ctx *c, bst *s);


/* Moves `lanes` (ready) to pc, applying ADD/WAIT/YIELD found there. Returns 1
 * if some thread blocked or yielded (barriers must be re-checked). */
static int settle(const ws_div_ctx *c, bst *s, uint32_t pc, uint64_t lanes)
{
    const ws_kernel *k = c->k;
    int changed = 0;
    while (lanes && pc < k->ninsts) {
        const ws_inst *in = &k->insts[pc];
        if (in->op == WS_OP_BADD) {
            if (in->barrier < s->nbar) PART(s)[in->barrier] |= lanes;
            pc++;
        } else if (in->op == WS_OP_YIELD) {
            s->yielded |= lanes;
            changed = 1;
            pc++;
        } else if (in->op == WS_OP_BWAIT) {
            uint32_t b = in->barrier < s->nbar ? in->barrier : 0;
            uint64_t blk = lanes & PART(s)[b];
            if (blk) {
                BLK(s)[b] |= blk;
                for (uint64_t m = blk; m; m &= m - 1) s->wait_pc[__builtin_ctzll(m)] = pc;
                s->blocked_any |= blk;
                lanes &= ~blk;
                changed = 1;
            }
            pc++;
        } else {
            break;
        }
    }
    if (lanes) add_split(s, pc, lanes);
    return changed;
}

static int check_barriers(const ws_div_ctx *c, bst *s)
{
    int any = 0, again = 1;
    while (again) {
        again = 0;
        for (uint32_t b = 0; b < s->nbar; b++) {
            uint64_t blk = BLK(s)[b];
            if (!blk) continue;
            uint64_t p = PART(s)[b] & ~s->exited;
            if (p & ~(blk | s->yielded)) continue;
            /* clears: release the blocked threads together, each after its WAIT */
            BLK(s)[b] = 0;
            PART(s)[b] = 0;
            s->blocked_any &= ~blk;
            while (blk) {
                uint32_t pc = s->wait_pc[__builtin_ctzll(blk)];
                uint64_t same = ws_cbar_waiting_at(s->wait_pc, blk, pc);
                settle(c, s, pc + 1, same);
                blk &= ~same;
            }
            any = again = 1;
        }
    }
    return any;
}

static void bar_init(const ws_div_ctx *c, void *st, uint64_t valid)
{
    bst *s = st;
    memset(s, 0, bar_size(c));
    s->nbar = c->nbar;
    s->cursor = UINT32_MAX;
    if (settle(c, s, 0, valid)) check_barriers(c, s);
}

static uint32_t bar_splits(void *st, const ws_split **out, uint32_t *start)
{
    bst *s = st;
    *out = s->sp;
    uint32_t i = 0;
    if (s->cursor != UINT32_MAX)
        while (i < s->nsplits && s->sp[i].pc <= s->cursor) i++;
    *start = i >= s->nsplits ? 0 : i;
    return s->nsplits;
}

/* The converged warp's common case, in place: its one split issued whole, no
 * lane exited, and it goes on as one split (not a branch, or a branch every
 * lane takes the same way) to an instruction that is not ADD/WAIT/YIELD.
 * The general path below would remove the split and settle all of it at the
 * next PC, to the same state. Returns 1 when it applied. */
static int converged_step(const ws_div_ctx *c, bst *s, const ws_split *spl, const ws_inst *in, const ws_effect *eff)
{
    if (s->nsplits != 1 || s->sp[0].pc != spl->pc || s->sp[0].mask != spl->mask || eff->exited) return 0;
    uint32_t next = spl->pc + 1;
    if (in->op == WS_OP_BRA) {
        uint64_t taken = eff->taken & spl->mask;
        if (taken && taken != spl->mask) return 0;
        if (taken) next = in->target;
    } else if (in->op == WS_OP_BRX) {
        return 0;
    }
    if (next < c->k->ninsts) {
        uint32_t op = c->k->insts[next].op;
        if (op == WS_OP_BADD || op == WS_OP_YIELD || op == WS_OP_BWAIT) return 0;
    }
    s->sp[0].pc = next;
    s->sp[0].aux = 0;
    return 1;
}

static int bar_update(const ws_div_ctx *c, void *st, const ws_split *spl, const ws_inst *in,
                      const ws_effect *eff, char *err, size_t errlen)
{
    (void)err; (void)errlen;
    bst *s = st;
    uint32_t pc = spl->pc;
    uint64_t active = spl->mask;
    s->cursor = pc;
    s->yielded &= ~active;
    if (converged_step(c, s, spl, in, eff)) return 0;
    /* remove the split that issued */
    uint32_t i = 0;
    while (i < s->nsplits && s->sp[i].pc != pc) i++;
    if (i < s->nsplits) {
        s->sp[i].mask &= ~active;
        if (!s->sp[i].mask) {
            memmove(&s->sp[i], &s->sp[i + 1], (s->nsplits - i - 1) * sizeof(ws_split));
            s->nsplits--;
        }
    }
    int check = 0;
    if (eff->exited) {
        s->exited |= eff->exited;
        ws_cbar_exit(PART(s), s->nbar, eff->exited);
        active &= ~eff->exited;
        check = 1;
    }
    if (active) {
        uint32_t op = in->op;
        if (op == WS_OP_BRA) {
            uint64_t taken = eff->taken & active, fall = active & ~taken;
            if (taken) check |= settle(c, s, in->target, taken);
            if (fall) check |= settle(c, s, pc + 1, fall);
        } else if (op == WS_OP_BRX) {
            uint64_t taken = eff->taken & active, fall = active & ~taken;
            while (taken) {
                uint32_t t = eff->lane_target[__builtin_ctzll(taken)];
                uint64_t g = 0;
                for (uint64_t m = taken; m; m &= m - 1) {
                    uint32_t l = (uint32_t)__builtin_ctzll(m);
                    if (eff->lane_target[l] == t) g |= 1ull << l;
                }
                check |= settle(c, s, t, g);
                taken &= ~g;
            }
            if (fall) check |= settle(c, s, pc + 1, fall);
        } else {
            check |= settle(c, s, pc + 1, active);
        }
    }
    if (check) check_barriers(c, s);
    return 0;
}

static uint32_t bar_level(const void *st, uint32_t idx)
{
    (void)st;
    return idx;
}

static void bar_stats(const void *st, uint32_t *depth, uint32_t *splits)
{
    const bst *s = st;
    *depth = 0;
    *splits = s->max_splits;
}

/* Lanes blocked at a WAIT whose other participants all wait at a CTA barrier
 * (or are blocked there too): they reconverge only after those lanes move. */
static uint64_t bar_parked(const ws_div_ctx *c, const void *st, uint64_t held)
{
    (void)c;
    const bst *s = st;
    return ws_cbar_parked(PART(s), BLK(s), s->nbar, s->exited, held);
}

static uint64_t bar_sync_parked(const ws_div_ctx *c, const void *st, uint64_t waiting, uint32_t pc)
{
    (void)c;
    const bst *s = st;
    return ws_cbar_sync_parked(PART(s), BLK(s), s->nbar, s->exited, waiting, s->wait_pc, pc);
}

static uint64_t bar_hash(const ws_div_ctx *c, const void *st, uint64_t h)
{
    (void)c;
    const bst *s = st;
    h = ws_hmix(h, s->nsplits);
    for (uint32_t i = 0; i < s->nsplits; i++) {
        h = ws_hmix(h, s->sp[i].pc);
        h = ws_hmix(h, s->sp[i].mask);
    }
    h = ws_hmix(h, s->exited);
    h = ws_hmix(h, s->yielded);
    h = ws_hmix(h, s->cursor);
    return ws_cbar_hash(h, PART(s), BLK(s), s->nbar, s->wait_pc);
}

static uint32_t line_of(const ws_kernel *k, uint32_t pc) { return pc < k->ninsts ? k->insts[pc].line : 0; }

static int bar_describe(const ws_div_ctx *c, const void *st, char *buf, size_t len)
{
    const bst *s = st;
    size_t n = 0;
    for (uint32_t i = 0; i < s->nsplits && n < len; i++)
        n += (size_t)snprintf(buf + n, len - n, "%ssplit pc %u (line %u) lanes 0x%llx%s", n ? "; " : "",
                              s->sp[i].pc, line_of(c->k, s->sp[i].pc), (unsigned long long)s->sp[i].mask,
                              (s->sp[i].mask & s->yielded) ? " (yielded)" : "");
    return (int)ws_cbar_describe(c->k, PART(s), BLK(s), s->nbar, s->wait_pc, buf, len, n);
}

/* barrier_regs participation masks + per thread: state (2 bits) and PC */
static uint64_t bar_state_bits(const ws_config *cfg)
{
    uint64_t ws = (uint64_t)ws_cfg_i(cfg, WS_P_warp_size);
    return (uint64_t)ws_cfg_i(cfg, WS_P_barrier_regs) * ws + ws * (2 + ws_area_count(cfg, WS_P_area_pc_bits));
}

const ws_div_ops ws_div_sbi = {
    .name = "sbi",
    .at_branch = "ADD before it, WAIT at its IPDOM, YIELD on spin back-edges (all free); any ready split issues",
    .barrier_pass = 1,
    .per_lane_blocking = 1,
    .warp_sync_waits = 1,
    .state_size = bar_size,
    .init = bar_init,
    .splits = bar_splits,
    .update = bar_update,
    .level = bar_level,
    .stats = bar_stats,
    .hash = bar_hash,
    .parked = bar_parked,
    .sync_parked = bar_sync_parked,
    .describe = bar_describe,
    .state_bits = bar_state_bits,
};
