/*
 * The pre-Volta SIMT reconvergence stack, with GPGPU-Sim's rules
 * (abstract_hardware_model.cc, simt_stack::update), generalised to N paths
 * for brx.idx:
 *
 *  - entry = {PC, RPC, active mask}; the warp issues the top entry (TOS).
 *  - after an instruction, lanes that exited leave every entry's mask; the
 *    remaining active lanes are grouped by next PC.
 *  - one group: TOS.PC = next PC; while TOS.PC == TOS.RPC pop (reconvergence:
 *    the entry below holds the merged mask).
 *  - several groups (divergence) at a branch whose immediate post-dominator is
 *    R: if R != TOS.RPC the TOS is rewritten in place as the reconvergence
 *    entry {PC = R, mask = TOS mask, RPC = old RPC}; if R == TOS.RPC the TOS
 *    is popped (the entry below already is that reconvergence point). Then one
 *    entry {next PC, R, lanes} is pushed per group whose next PC != R (a group
 *    already at R waits in the reconvergence entry: the spin-lock winner).
 *  - push order (GPGPU-Sim 4.x): the fall-through group (PC + 1) first, then
 *    the other targets in ascending PC; the last pushed is on top and runs
 *    first, so normally the taken path runs first.
 *  - entries whose mask became empty (all their lanes exited) are popped.
 */
#include <string.h>
#include <stdio.h>
#include "divergence.h"
#include "warpsweep/area.h"

typedef struct stk {
    uint32_t depth, cap, max_depth;
    uint32_t max_splits;     /* the most splits at once (split_count), for max_warp_splits */
    ws_split e[];            /* e[i].pc, e[i].aux = RPC, e[i].mask */
} stk;

static size_t stack_size(const ws_div_ctx *c) { return sizeof(stk) + c->max_depth * sizeof(ws_split); }

static void stack_init(const ws_div_ctx *c, void *st, uint64_t valid)
{
    stk *s = st;
    s->cap = c->max_depth;
    s->depth = 1;
    s->max_depth = 1;
    s->max_splits = 1;
    s->e[0].pc = 0;
    s->e[0].aux = WS_PC_EXIT;
    s->e[0].mask = valid;
}

static uint32_t stack_splits(void *st, const ws_split **out, uint32_t *start)
{
    stk *s = st;
    *start = 0;
    if (s->depth == 0) return 0;
    *out = &s->e[s->depth - 1];
    return 1;
}

/* The warp's splits now (metric max_warp_splits, docs/model.md "Statuses"): the groups of its
 * lanes at one PC that are to run, each lane counted at its topmost entry: the TOS, and every
 * entry below it that still holds lanes of its own and is a path not yet run; lanes whose
 * topmost entry is a reconvergence point (its PC is the RPC of the entry above) wait there and
 * are no split. */
static uint32_t split_count(const stk *s)
{
    uint32_t n = 0;
    uint64_t covered = 0;
    for (uint32_t i = s->depth; i-- > 0;) {
        const ws_split *e = &s->e[i];
        if ((e->mask & ~covered) && (i + 1 == s->depth || e->pc != s->e[i + 1].aux)) n++;
        covered |= e->mask;
    }
    return n;
}

static void pop_done(stk *s)
{
    while (s->depth > 0) {
        ws_split *t = &s->e[s->depth - 1];
        if (t->mask == 0 || t->pc == t->aux) s->depth--;
        else break;
    }
}

/* Does the path from pc just leave: straight-line code to an unguarded
 * ret/exit/trap with no CTA barrier or warp-level op on the way (ws_block.leaves)? */
int ws_div_starts_exit(const ws_kernel *k, uint32_t pc)
{
    if (pc >= k->ninsts) return 0;
    const ws_inst *in = &k->insts[pc];
    if (in->guard == WS_NO_REG && (in->op == WS_OP_EXIT || in->op == WS_OP_RET || in->op == WS_OP_TRAP)) return 1;
    if (!k->blocks || !k->block_of) return 0;
    const ws_block *bl = &k->blocks[k->block_of[pc]];
    return bl->first == pc && bl->leaves;
}

static int stack_update(const ws_div_ctx *c, void *st, const ws_split *sp, const ws_inst *in,
                        const ws_effect *eff, char *err, size_t errlen)
{
    stk *s = st;
    uint32_t pc = sp->pc;
    uint64_t active = sp->mask;
    if (eff->exited) {
        for (uint32_t i = 0; i < s->depth; i++) s->e[i].mask &= ~eff->exited;
        active &= ~eff->exited;
    }
    ws_split *tos = &s->e[s->depth - 1];
    uint32_t op = in->op;
    if (active == 0) {                      /* every lane of the TOS exited */
        pop_done(s);
        return 0;
    }
    if (op != WS_OP_BRA && op != WS_OP_BRX) {
        tos->pc = pc + 1;
        if (tos->pc == tos->aux) pop_done(s);
        return 0;
    }
    /* group the active lanes by next PC */
    uint32_t gpc[WS_MAX_WARP_SIZE + 1];
    uint64_t gmask[WS_MAX_WARP_SIZE + 1];
    uint32_t ng = 0;
    uint64_t taken = eff->taken & active;
    uint64_t fall = active & ~taken;
    if (fall) { gpc[ng] = pc + 1; gmask[ng] = fall; ng++; }
    if (taken) {
        if (op == WS_OP_BRA) {
            if (in->target == pc + 1 && fall) gmask[0] |= taken;
            else { gpc[ng] = in->target; gmask[ng] = taken; ng++; }
        } else {
            for (uint64_t m = taken; m; m &= m - 1) {
                uint32_t l = (uint32_t)__builtin_ctzll(m);
                uint32_t t = eff->lane_target[l];
                uint32_t g = 0;
                while (g < ng && gpc[g] != t) g++;
                if (g == ng) { gpc[ng] = t; gmask[ng] = 0; ng++; }
                gmask[g] |= 1ull << l;
            }
        }
    }
    if (ng == 1) {
        tos->pc = gpc[0];
        if (tos->pc == tos->aux) pop_done(s);
        return 0;
    }
    /* order: fall-through first, then ascending PC (insertion sort of the rest) */
    uint32_t first = (fall != 0);
    for (uint32_t i = first + 1; i < ng; i++) {
        uint32_t p = gpc[i]; uint64_t m = gmask[i]; uint32_t j = i;
        while (j > first && gpc[j - 1] > p) { gpc[j] = gpc[j - 1]; gmask[j] = gmask[j - 1]; j--; }
        gpc[j] = p; gmask[j] = m;
    }
    /* Paths that go straight to an exit (straight-line code meeting nobody,
     * e.g. `if (c) { out[i] = x; return; }`) are pushed last, so they run first
     * and leave: otherwise a path reaching a CTA barrier first would hold the
     * TOS while the barrier waits for the lanes parked below it (the
     * early-return pattern written with the return on the fall-through side). */
    for (uint32_t i = 0, moved = 0; i + moved < ng;) {
        if (ws_div_starts_exit(c->k, gpc[i])) {
            uint32_t p = gpc[i]; uint64_t m = gmask[i];
            for (uint32_t j = i; j + 1 < ng; j++) { gpc[j] = gpc[j + 1]; gmask[j] = gmask[j + 1]; }
            gpc[ng - 1] = p; gmask[ng - 1] = m;
            moved++;
        } else {
            i++;
        }
    }
    uint32_t rpc = in->ipdom;
    if (rpc != tos->aux) {
        tos->pc = rpc;                      /* reconvergence entry, keeps old RPC */
    } else {
        s->depth--;                         /* paths replace the TOS */
    }
    for (uint32_t g = 0; g < ng; g++) {
        if (gpc[g] == rpc) continue;
        if (s->depth >= s->cap) {
            snprintf(err, errlen, "reconvergence stack overflow (%u entries) at pc %u (line %u)",
                     s->cap, pc, in->line);
            return -1;
        }
        ws_split *e = &s->e[s->depth++];
        e->pc = gpc[g];
        e->aux = rpc;
        e->mask = gmask[g];
    }
    if (s->depth > s->max_depth) s->max_depth = s->depth;
    pop_done(s);
    uint32_t n = split_count(s);
    if (n > s->max_splits) s->max_splits = n;
    return 0;
}

static uint32_t stack_level(const void *st, uint32_t idx)
{
    (void)idx;
    const stk *s = st;
    return s->depth ? s->depth - 1 : 0;
}

static void stack_stats(const void *st, uint32_t *depth, uint32_t *splits)
{
    const stk *s = st;
    *depth = s->max_depth;
    *splits = s->max_splits;
}

/* When the TOS's lanes all wait at a CTA barrier, every lane parked below it
 * waits for them: they run only once the TOS reaches its reconvergence point. */
static uint64_t stack_parked(const ws_div_ctx *c, const void *st, uint64_t held)
{
    (void)c;
    const stk *s = st;
    if (!s->depth) return 0;
    uint64_t tos = s->e[s->depth - 1].mask, below = 0;
    if (tos & ~held) return 0;
    for (uint32_t i = 0; i + 1 < s->depth; i++) below |= s->e[i].mask;
    return below & ~tos;
}

static uint64_t stack_hash(const ws_div_ctx *c, const void *st, uint64_t h)
{
    (void)c;
    const stk *s = st;
    h = ws_hmix(h, s->depth);
    for (uint32_t i = 0; i < s->depth; i++) {
        h = ws_hmix(h, s->e[i].pc);
        h = ws_hmix(h, s->e[i].aux);
        h = ws_hmix(h, s->e[i].mask);
    }
    return h;
}

static uint32_t line_of(const ws_kernel *k, uint32_t pc) { return pc < k->ninsts ? k->insts[pc].line : 0; }

/* Describes the warp for a deadlock proof. Lanes parked in entries below the
 * TOS that the TOS never hands back to make it a SIMT deadlock (ElTantawy and
 * Aamodt, "MIMD Synchronization on SIMT Architectures", MICRO 2016): named
 * first, so a long message still carries it. */
static int stack_describe(const ws_div_ctx *c, const void *st, char *buf, size_t len)
{
    const stk *s = st;
    size_t n = 0;
    if (s->depth > 1) {
        const ws_split *t = &s->e[s->depth - 1];
        uint64_t below = 0;
        for (uint32_t i = 0; i + 1 < s->depth; i++) below |= s->e[i].mask;
        below &= ~t->mask;
        if (below && t->aux != WS_PC_EXIT)
            n += (size_t)snprintf(buf, len, "SIMT deadlock: lanes 0x%llx wait at reconvergence point pc %u "
                                  "(line %u) for lanes 0x%llx of the top of stack; ",
                                  (unsigned long long)below, t->aux, line_of(c->k, t->aux),
                                  (unsigned long long)t->mask);
    }
    for (int i = (int)s->depth - 1; i >= 0 && n < len; i--) {
        const ws_split *e = &s->e[i];
        char rpc[32];
        if (e->aux == WS_PC_EXIT) snprintf(rpc, sizeof rpc, "exit");
        else snprintf(rpc, sizeof rpc, "%u", e->aux);
        n += (size_t)snprintf(buf + n, len - n, "%s%s pc %u (line %u) rpc %s lanes 0x%llx",
                              i == (int)s->depth - 1 ? "" : "; ",
                              i == (int)s->depth - 1 ? "TOS" : "waiting", e->pc, line_of(c->k, e->pc),
                              rpc, (unsigned long long)e->mask);
    }
    return (int)n;
}

/* area.stack_entries × (PC + RPC + active mask) */
static uint64_t stack_state_bits(const ws_config *cfg)
{
    uint64_t pc = ws_area_count(cfg, WS_P_area_pc_bits);
    return ws_area_count(cfg, WS_P_area_stack_entries) * (2 * pc + (uint64_t)ws_cfg_i(cfg, WS_P_warp_size));
}

const ws_div_ops ws_div_stack = {
    .name = "stack",
    .at_branch = "pushes one stack entry per path; they reconverge at the branch's IPDOM (// reconverge: N); the top entry runs",
    .per_lane_blocking = 0,
    .warp_sync_waits = 0,
    .state_size = stack_size,
    .init = stack_init,
    .splits = stack_splits,
    .update = stack_update,
    .level = stack_level,
    .stats = stack_stats,
    .hash = stack_hash,
    .parked = stack_parked,
    .describe = stack_describe,
    .state_bits = stack_state_bits,
};
