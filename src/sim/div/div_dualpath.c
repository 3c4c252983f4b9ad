/*
 * dualpath: dual-path execution (Rhu and Erez, "The Dual-Path Execution
 * Model for Efficient GPU Control Flow", HPCA 2013): a reconvergence stack
 * whose entries hold two paths, both schedulable, on the untransformed kernel
 * (reconvergence at each branch's IPDOM, as the stack):
 *
 *  - entry = {RPC, path 0 {PC, mask}, path 1 {PC, mask}}; the warp issues the
 *    top entry's active paths (mask not empty, PC != RPC), interleaved: the
 *    path after the one that issued last goes first.
 *  - a path that reaches the RPC waits there; the entry pops when neither path
 *    is active (reconvergence: the entry below already holds the lanes).
 *  - a divergent branch of path P (IPDOM R): P becomes {R, P's lanes} (it
 *    resumes from R once the paths above reconverge; when R is the entry's
 *    RPC it simply waits there), and the groups whose next PC is not R are
 *    pushed two per entry {R, group, group} — fall-through first, targets in
 *    ascending PC, so an if/else is one entry, its taken path first; only the
 *    top entry runs, so the other path of the entry below waits (the model's
 *    limit the paper accepts: one level of two paths).
 *  - a path part of whose lanes wait at a CTA barrier splits the same way
 *    (the free lanes go on, the held ones wait at their PC).
 *  - exited lanes leave every entry.
 * The SIMT deadlock of the stack remains.
 */
#include <string.h>
#include <stdio.h>
#include "divergence.h"
#include "warpsweep/area.h"

typedef struct dp_ent {
    uint32_t rpc;
    uint32_t pc[2];
    uint32_t pad;
    uint64_t mask[2];
} dp_ent;

typedef struct dpst {
    uint32_t depth, cap, max_depth, last;   /* last: the path that issued last */
    uint32_t nout, max_splits;
    ws_split out[2];                        /* the top entry's active paths */
    dp_ent e[];
} dpst;

static size_t dp_size(const ws_div_ctx *c) { return sizeof(dpst) + c->max_depth * sizeof(dp_ent); }

static int path_active(const dp_ent *e, int p) { return e->mask[p] && e->pc[p] != e->rpc; }

static void pop_done(dpst *s)
{
    while (s->depth && !path_active(&s->e[s->depth - 1], 0) && !path_active(&s->e[s->depth - 1], 1)) s->depth--;
}

/* The warp's splits now (metric max_warp_splits, docs/model.md "Statuses"): the groups of its
 * lanes at one PC that are to run, each lane counted at its topmost entry: the top entry's active
 * paths, and below it every active path that still holds lanes of its own and does not wait at
 * the reconvergence point of the entry above (the other path of a diverged entry, not yet run). */
static uint32_t split_count(const dpst *s)
{
    uint32_t n = 0;
    uint64_t covered = 0;
    for (uint32_t i = s->depth; i-- > 0;) {
        const dp_ent *e = &s->e[i];
        for (int p = 0; p < 2; p++)
            if (path_active(e, p) && (e->mask[p] & ~covered) && (i + 1 == s->depth || e->pc[p] != s->e[i + 1].rpc)) n++;
        covered |= e->mask[0] | e->mask[1];
    }
    return n;
}

/* Fills s->out with the top entry's active paths, the one after `last` first. */
static void refresh(dpst *s)
{
    s->nout = 0;
    if (!s->depth) return;
    const dp_ent *t = &s->e[s->depth - 1];
    for (uint32_t k = 1; k <= 2; k++) {
        uint32_t p = (s->last + k) % 2;
        if (!path_active(t, (int)p)) continue;
        s->out[s->nout].pc = t->pc[p];
        s->out[s->nout].mask = t->mask[p];
        s->out[s->nout].aux = p;
        s->nout++;
    }
    if (s->nout > s->max_splits) s->max_splits = s->nout;
}

static void dp_init(const ws_div_ctx *c, void *st, uint64_t valid)
{
    dpst *s = st;
    memset(s, 0, dp_size(c));
    s->cap = c->max_depth;
    s->depth = s->max_depth = 1;
    s->e[0].rpc = WS_PC_EXIT;
    s->e[0].pc[0] = 0;
    s->e[0].mask[0] = valid;
    s->e[0].pc[1] = WS_PC_EXIT;
    s->last = 1;
    refresh(s);
}

static uint32_t dp_splits(void *st, const ws_split **out, uint32_t *start)
{
    dpst *s = st;
    *out = s->out;
    *start = 0;
    return s->nout;
}

/* Path p of the top entry splits into groups (pc, mask) reconverging at r. */
static int diverge(dpst *s, int p, uint32_t r, const uint32_t *gpc, const uint64_t *gm, uint32_t ng,
                   uint32_t at, char *err, size_t errlen)
{
    dp_ent *t = &s->e[s->depth - 1];
    t->pc[p] = r;
    uint32_t keep[WS_MAX_WARP_SIZE + 2], nk = 0;
    for (uint32_t g = 0; g < ng; g++)
        if (gm[g] && gpc[g] != r) keep[nk++] = g;
    /* pairs, pushed so that the last pair (the highest targets) is on top */
    for (uint32_t i = 0; i < nk; i += 2) {
        if (s->depth >= s->cap) {
            snprintf(err, errlen, "dual-path stack overflow (%u entries) at pc %u", s->cap, at);
            return -1;
        }
        dp_ent *e = &s->e[s->depth++];
        e->rpc = r;
        e->pc[0] = gpc[keep[i]];
        e->mask[0] = gm[keep[i]];
        e->pc[1] = i + 1 < nk ? gpc[keep[i + 1]] : r;
        e->mask[1] = i + 1 < nk ? gm[keep[i + 1]] : 0;
    }
    if (s->depth > s->max_depth) s->max_depth = s->depth;
    s->last = 0;                             /* path 1 (the taken side) of the new top first */
    return 0;
}

static int dp_update(const ws_div_ctx *c, void *st, const ws_split *sp, const ws_inst *in, const ws_effect *eff,
                     char *err, size_t errlen)
{
    (void)c;
    dpst *s = st;
    if (!s->depth) return 0;
    dp_ent *t = &s->e[s->depth - 1];
    int p = t->pc[0] == sp->pc && (t->mask[0] & sp->mask) ? 0 : 1;
    uint32_t pc = sp->pc;
    uint64_t rest = t->mask[p] & ~sp->mask;  /* lanes of the path held at a CTA barrier */
    if (eff->exited)
        for (uint32_t i = 0; i < s->depth; i++) { s->e[i].mask[0] &= ~eff->exited; s->e[i].mask[1] &= ~eff->exited; }
    uint64_t active = sp->mask & ~eff->exited;
    s->last = (uint32_t)p;
    /* next PC of each group of the issued lanes */
    uint32_t gpc[WS_MAX_WARP_SIZE + 2];
    uint64_t gm[WS_MAX_WARP_SIZE + 2];
    uint32_t ng = 0;
    if (active) {
        if (in->op == WS_OP_BRA || in->op == WS_OP_BRX) {
            uint64_t taken = eff->taken & active, fall = active & ~taken;
            if (fall) { gpc[ng] = pc + 1; gm[ng++] = fall; }
            if (taken && in->op == WS_OP_BRA) {
                if (fall && in->target == pc + 1) gm[0] |= taken;
                else { gpc[ng] = in->target; gm[ng++] = taken; }
            }
            for (uint64_t m = in->op == WS_OP_BRX ? taken : 0; m; m &= m - 1) {
                uint32_t l = (uint32_t)__builtin_ctzll(m), tg = eff->lane_target[l], g = 0;
                while (g < ng && gpc[g] != tg) g++;
                if (g == ng) { gpc[ng] = tg; gm[ng++] = 0; }
                gm[g] |= 1ull << l;
            }
            for (uint32_t i = 2; i < ng; i++)        /* targets after the fall-through: ascending */
                for (uint32_t j = i; j > 1 && gpc[j - 1] > gpc[j]; j--) {
                    uint32_t a = gpc[j]; gpc[j] = gpc[j - 1]; gpc[j - 1] = a;
                    uint64_t b = gm[j]; gm[j] = gm[j - 1]; gm[j - 1] = b;
                }
        } else {
            gpc[ng] = pc + 1; gm[ng++] = active;
        }
    }
    if (rest) { gpc[ng] = pc; gm[ng++] = rest; }
    int is_branch = in->op == WS_OP_BRA || in->op == WS_OP_BRX;
    if (ng > 1) {
        if (diverge(s, p, is_branch ? in->ipdom : t->rpc, gpc, gm, ng, pc, err, errlen) < 0) return -1;
    } else if (ng == 1) {
        t->pc[p] = gpc[0];
    }
    pop_done(s);
    refresh(s);
    if (ng > 1) {
        uint32_t n = split_count(s);
        if (n > s->max_splits) s->max_splits = n;
    }
    return 0;
}

static uint32_t dp_level(const void *st, uint32_t idx)
{
    const dpst *s = st;
    return s->depth ? 2 * (s->depth - 1) + s->out[idx].aux : 0;
}

static void dp_stats(const void *st, uint32_t *depth, uint32_t *splits)
{
    const dpst *s = st;
    *depth = s->max_depth;
    *splits = s->max_splits;
}

static uint64_t top_active(const dpst *s)
{
    if (!s->depth) return 0;
    const dp_ent *t = &s->e[s->depth - 1];
    return (path_active(t, 0) ? t->mask[0] : 0) | (path_active(t, 1) ? t->mask[1] : 0);
}

/* When the top entry's running lanes all wait at a CTA barrier, every other
 * lane waits for them. */
static uint64_t dp_parked(const ws_div_ctx *c, const void *st, uint64_t held)
{
    (void)c;
    const dpst *s = st;
    uint64_t run = top_active(s), all = 0;
    if (!run || (run & ~held)) return 0;
    for (uint32_t i = 0; i < s->depth; i++) all |= s->e[i].mask[0] | s->e[i].mask[1];
    return all & ~run;
}

static uint64_t dp_hash(const ws_div_ctx *c, const void *st, uint64_t h)
{
    (void)c;
    const dpst *s = st;
    h = ws_hmix(h, s->depth);
    h = ws_hmix(h, s->last);
    for (uint32_t i = 0; i < s->depth; i++) {
        const dp_ent *e = &s->e[i];
        h = ws_hmix(h, e->rpc);
        for (int p = 0; p < 2; p++) { h = ws_hmix(h, e->pc[p]); h = ws_hmix(h, e->mask[p]); }
    }
    return h;
}

static uint32_t line_of(const ws_kernel *k, uint32_t pc) { return pc < k->ninsts ? k->insts[pc].line : 0; }

/* Lanes waiting (below the top, or at the top's RPC) for running lanes that
 * never hand the warp back are a SIMT deadlock (as the stack's). */
static int dp_describe(const ws_div_ctx *c, const void *st, char *buf, size_t len)
{
    const dpst *s = st;
    size_t n = 0;
    uint64_t run = top_active(s), all = 0;
    for (uint32_t i = 0; i < s->depth; i++) all |= s->e[i].mask[0] | s->e[i].mask[1];
    if (s->depth && (all & ~run) && s->e[s->depth - 1].rpc != WS_PC_EXIT)
        n += (size_t)snprintf(buf, len, "SIMT deadlock: lanes 0x%llx wait at reconvergence point pc %u (line %u) "
                              "for lanes 0x%llx of the top entry; ", (unsigned long long)(all & ~run),
                              s->e[s->depth - 1].rpc, line_of(c->k, s->e[s->depth - 1].rpc),
                              (unsigned long long)run);
    for (int i = (int)s->depth - 1; i >= 0 && n < len; i--) {
        const dp_ent *e = &s->e[i];
        char rpc[32];
        if (e->rpc == WS_PC_EXIT) snprintf(rpc, sizeof rpc, "exit");
        else snprintf(rpc, sizeof rpc, "%u", e->rpc);
        n += (size_t)snprintf(buf + n, len - n, "%s%s rpc %s: path pc %u (line %u) lanes 0x%llx, path pc %u lanes 0x%llx",
                              i == (int)s->depth - 1 ? "" : "; ", i == (int)s->depth - 1 ? "TOS" : "waiting", rpc,
                              e->pc[0], line_of(c->k, e->pc[0]), (unsigned long long)e->mask[0], e->pc[1],
                              (unsigned long long)e->mask[1]);
    }
    return (int)n;
}

/* area.stack_entries entries × (RPC + 2 × (PC + mask)) */
static uint64_t dp_state_bits(const ws_config *cfg)
{
    uint64_t pc = ws_area_count(cfg, WS_P_area_pc_bits);
    return ws_area_count(cfg, WS_P_area_stack_entries) * (3 * pc + 2 * (uint64_t)ws_cfg_i(cfg, WS_P_warp_size));
}

const ws_div_ops ws_div_dualpath = {
    .name = "dualpath",
    .at_branch = "one two-path stack entry reconverging at its IPDOM (// reconverge: N); both paths interleave",
    .per_lane_blocking = 1,
    .warp_sync_waits = 1,
    .state_size = dp_size,
    .init = dp_init,
    .splits = dp_splits,
    .update = dp_update,
    .level = dp_level,
    .stats = dp_stats,
    .hash = dp_hash,
    .parked = dp_parked,
    .describe = dp_describe,
    .state_bits = dp_state_bits,
};
