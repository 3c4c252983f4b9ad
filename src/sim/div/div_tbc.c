/*
 * Thread block compaction (Fung and Aamodt, "Thread Block Compaction for
 * Efficient SIMT Control Flow", HPCA 2011), docs/model.md "tbc":
 *
 *  - the warps of a CTA share one block-wide reconvergence stack; an entry
 *    is {PC, RPC, the CTA's threads (a lane mask per physical warp)};
 *  - the top entry's threads run as *dynamic warps*, compacted by the
 *    paper's per-lane rule: a thread keeps its home lane (its registers live
 *    in that lane's register-file bank), and the k-th dynamic warp takes, at
 *    each lane, the k-th thread of that lane in physical-warp order (one
 *    priority encoder per lane). Full warps come out as themselves, so the
 *    original warps are restored at a reconvergence point;
 *  - a dynamic warp at a potentially divergent branch (a guarded bra, or
 *    brx; with tbc_wait=divergent not one the uniformity analysis proves
 *    CTA-uniform, which every thread takes the same way and so needs no
 *    regrouping) waits until every dynamic warp of the top entry has executed it
 *    (the CTA-wide wait, the paper's per-entry pending-warp count); then the
 *    CTA's threads are grouped by next PC and the stack is updated as
 *    GPGPU-Sim's per-warp stack is (div_stack.c), block-wide: divergence
 *    turns the top into the reconvergence entry at the branch's IPDOM (or
 *    pops it when that is its own RPC) and pushes one entry per path, the
 *    taken path on top; the new top is compacted. A branch that sends the
 *    whole entry one way moves the dynamic warps on unchanged;
 *  - a dynamic warp reaching the top entry's RPC waits there; when all have,
 *    the entry pops and the one below is compacted (reconvergence);
 *  - exited threads leave every entry.
 *
 * The core cooperates (ws_div_ops.cta_*, parts): dynamic warp k is hosted
 * (scheduled, issued, fetched) by the k-th warp slot of the CTA that still has
 * a live thread (the last such slot hosts any rest); the core executes its
 * instruction once per physical warp on that warp's lanes and charges one
 * issue slot and one warp instruction. ws_split.aux is the dynamic warp's
 * index.
 */
#include <string.h>
#include <stdio.h>
#include "divergence.h"
#include "warpsweep/area.h"

enum { DW_RUN, DW_BRANCH, DW_DONE, DW_GONE };

typedef struct tbc_cta {
    uint32_t nw, ws, depth, cap, max_depth, ndw, max_splits, branch_pc, ipdom;
    uint32_t *pc, *rpc;          /* per stack entry */
    uint64_t *mask;              /* per stack entry: nw masks */
    uint64_t *alive;             /* per warp: threads not exited */
    ws_split *dw;                /* the top entry's dynamic warps: pc, lanes, aux = index */
    uint8_t *dst;                /* per dynamic warp: state (DW_*) */
    uint16_t *src;               /* per dynamic warp and lane: the home warp of its thread */
    uint32_t *next;              /* per warp and lane: next PC after the pending branch */
    uint32_t *first, *count;     /* per warp: the dynamic warps it hosts */
    uint64_t *gmask;             /* resolve: per path (at most max_paths) and warp, the threads */
    uint32_t *gpc, *ord;         /* resolve: per path its PC, and the push order */
    uint64_t *key;
    uint32_t max_paths;          /* next PCs one branch can have: 2, or a brx.idx's targets + 1 */
} tbc_cta;

typedef struct tbc_warp {
    tbc_cta *cta;
    uint32_t idx;                /* warp index in the CTA */
} tbc_warp;

static size_t tbc_size(const ws_div_ctx *c) { (void)c; return sizeof(tbc_warp); }

static size_t al8(size_t n) { return (n + 7) & ~(size_t)7; }

/* Paths one branch of k can split into, the RPC included: fall-through and
 * target, or a brx.idx's targets and its fall-through (an out-of-range index). */
static uint32_t max_paths(const ws_kernel *k)
{
    uint32_t n = 3;
    for (uint32_t i = 0; i < k->ninsts; i++)
        if (k->insts[i].op == WS_OP_BRX && k->insts[i].ntargets + 2 > n) n = k->insts[i].ntargets + 2;
    return n;
}

static size_t tbc_cta_size(const ws_div_ctx *c)
{
    size_t nw = c->cta_warps, d = c->max_depth, ws = c->warp_size;
    return al8(sizeof(tbc_cta)) + al8(2 * d * 4) + al8(d * nw * 8) + al8(nw * 8) + al8(nw * sizeof(ws_split)) +
           al8(nw) + al8(nw * ws * 2) + al8(nw * ws * 4) + al8(2 * nw * 4) + al8((size_t)max_paths(c->k) * nw * 8) +
           al8((size_t)max_paths(c->k) * 16);
}

static void carve(tbc_cta *s, const ws_div_ctx *c)
{
    size_t nw = c->cta_warps, d = c->max_depth, ws = c->warp_size;
    unsigned char *p = (unsigned char *)s + al8(sizeof(tbc_cta));
    s->pc = (uint32_t *)p; s->rpc = s->pc + d; p += al8(2 * d * 4);
    s->mask = (uint64_t *)p; p += al8(d * nw * 8);
    s->alive = (uint64_t *)p; p += al8(nw * 8);
    s->dw = (ws_split *)p; p += al8(nw * sizeof(ws_split));
    s->dst = p; p += al8(nw);
    s->src = (uint16_t *)p; p += al8(nw * ws * 2);
    s->next = (uint32_t *)p; p += al8(nw * ws * 4);
    s->first = (uint32_t *)p; s->count = s->first + nw; p += al8(2 * nw * 4);
    s->gmask = (uint64_t *)p; p += al8((size_t)max_paths(c->k) * nw * 8);
    s->key = (uint64_t *)p;
    s->gpc = (uint32_t *)(s->key + max_paths(c->k));
    s->ord = s->gpc + max_paths(c->k);
}

static uint64_t *entry_mask(tbc_cta *s, uint32_t e) { return &s->mask[(size_t)e * s->nw]; }

static int entry_empty(tbc_cta *s, uint32_t e)
{
    const uint64_t *m = entry_mask(s, e);
    for (uint32_t i = 0; i < s->nw; i++)
        if (m[i]) return 0;
    return 1;
}

/* Dynamic warp k goes to the k-th warp with a live thread (the last of them
 * takes the rest): a slot whose threads all exited hosts nothing and ends. */
static void rehost(tbc_cta *s)
{
    uint32_t last = s->nw, k = 0;
    for (uint32_t i = 0; i < s->nw; i++) {
        s->first[i] = s->count[i] = 0;
        if (s->alive[i] && k < s->ndw) {
            s->first[i] = k++;
            s->count[i] = 1;
            last = i;
        }
    }
    if (last < s->nw) s->count[last] += s->ndw - k;
}

/* max_warp_splits (docs/model.md "Statuses"), as div_stack.c counts them, block-wide: a warp's
 * splits are the dynamic warps of the top entry holding its threads (each issues on its own) and
 * the entries below holding threads of it at a path not yet run (their PC is not the RPC of the
 * entry above: those threads wait to reconverge); the most of any warp of the CTA. first/count
 * serve as scratch (the last dynamic warp seen per warp, the count) before rehost sets them. */
static void note_splits(tbc_cta *s)
{
    for (uint32_t i = 0; i < s->nw; i++) { s->first[i] = UINT32_MAX; s->count[i] = 0; }
    for (uint32_t k = 0; k < s->ndw; k++)
        for (uint64_t m = s->dw[k].mask; m; m &= m - 1) {
            uint32_t i = s->src[(size_t)k * s->ws + (uint32_t)__builtin_ctzll(m)];
            if (s->first[i] == k) continue;
            s->first[i] = k;
            s->count[i]++;
        }
    for (uint32_t i = 0; i < s->nw; i++) {
        uint64_t covered = s->depth ? entry_mask(s, s->depth - 1)[i] : 0;
        for (uint32_t e = s->depth > 1 ? s->depth - 1 : 0; e-- > 0;) {
            uint64_t m = entry_mask(s, e)[i];
            if ((m & ~covered) && s->pc[e] != s->rpc[e + 1]) s->count[i]++;
            covered |= m;
        }
        if (s->count[i] > s->max_splits) s->max_splits = s->count[i];
    }
}

/* Compacts the top entry's threads into dynamic warps: at each lane the
 * k-th thread in warp order goes to dynamic warp k. */
static void compact_top(tbc_cta *s)
{
    s->ndw = 0;
    if (s->depth) {
        const uint64_t *m = entry_mask(s, s->depth - 1);
        for (uint32_t l = 0; l < s->ws; l++) {
            uint32_t k = 0;
            for (uint32_t i = 0; i < s->nw; i++) {
                if (!(m[i] >> l & 1)) continue;
                if (k == s->ndw) {
                    s->dw[k] = (ws_split){.mask = 0, .pc = s->pc[s->depth - 1], .aux = k};
                    s->dst[k] = DW_RUN;
                    s->ndw++;
                }
                s->dw[k].mask |= 1ull << l;
                s->src[(size_t)k * s->ws + l] = (uint16_t)i;
                k++;
            }
        }
    }
    note_splits(s);
    rehost(s);
}

static void pop_done(tbc_cta *s)
{
    while (s->depth && (entry_empty(s, s->depth - 1) || s->pc[s->depth - 1] == s->rpc[s->depth - 1])) s->depth--;
}

static void tbc_cta_init(const ws_div_ctx *c, void *cta, void *const *warp_st, const uint64_t *valid)
{
    tbc_cta *s = cta;
    carve(s, c);
    s->nw = c->cta_warps;
    s->ws = c->warp_size;
    s->max_paths = max_paths(c->k);
    s->cap = c->max_depth;
    s->depth = 1;
    s->max_depth = 1;
    s->max_splits = 0;
    s->pc[0] = 0;
    s->rpc[0] = WS_PC_EXIT;
    for (uint32_t i = 0; i < s->nw; i++) {
        s->mask[i] = s->alive[i] = valid[i];
        tbc_warp *w = warp_st[i];
        w->cta = s;
        w->idx = i;
    }
    compact_top(s);
}

static void tbc_init(const ws_div_ctx *c, void *st, uint64_t valid)
{
    (void)c; (void)valid;
    memset(st, 0, sizeof(tbc_warp));   /* bound by tbc_cta_init */
}

static uint32_t tbc_splits(void *st, const ws_split **out, uint32_t *start)
{
    tbc_warp *w = st;
    tbc_cta *s = w->cta;
    *start = 0;
    uint32_t n = s->count[w->idx], k = s->first[w->idx], j = 0;
    /* the hosted dynamic warps are contiguous; those waiting (at the branch or
     * the RPC) are moved behind the running ones */
    for (uint32_t i = 0; i < n; i++)
        if (s->dst[k + i] == DW_RUN) {
            if (i != j) {
                ws_split t = s->dw[k + i]; uint8_t ts = s->dst[k + i];
                uint16_t tsrc[WS_MAX_WARP_SIZE];
                size_t nb = sizeof(uint16_t) * s->ws;
                memcpy(tsrc, &s->src[(size_t)(k + i) * s->ws], nb);
                s->dw[k + i] = s->dw[k + j]; s->dst[k + i] = s->dst[k + j];
                memcpy(&s->src[(size_t)(k + i) * s->ws], &s->src[(size_t)(k + j) * s->ws], nb);
                s->dw[k + j] = t; s->dst[k + j] = ts;
                memcpy(&s->src[(size_t)(k + j) * s->ws], tsrc, nb);
                s->dw[k + i].aux = k + i;
                s->dw[k + j].aux = k + j;
            }
            j++;
        }
    *out = &s->dw[k];
    return j;
}

static void tbc_parts(const void *st, const ws_split *sp, uint64_t *lanes)
{
    const tbc_warp *w = st;
    const tbc_cta *s = w->cta;
    memset(lanes, 0, sizeof(uint64_t) * s->nw);
    const uint16_t *src = &s->src[(size_t)sp->aux * s->ws];
    for (uint64_t m = sp->mask; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(m);
        lanes[src[l]] |= 1ull << l;
    }
}

/* Every dynamic warp of the top entry has executed the branch (or reached
 * the RPC): group the entry's threads by next PC and update the stack. */
static int resolve(const ws_div_ctx *c, tbc_cta *s, char *err, size_t errlen)
{
    uint32_t top = s->depth - 1, ng = 0;
    uint32_t *gpc = s->gpc;
    const uint32_t maxg = s->max_paths;
    uint64_t *gm = s->gmask;
    for (uint32_t k = 0; k < s->ndw; k++) {
        if (s->dst[k] == DW_GONE) continue;
        for (uint64_t m = s->dw[k].mask; m; m &= m - 1) {
            uint32_t l = (uint32_t)__builtin_ctzll(m), i = s->src[(size_t)k * s->ws + l];
            uint32_t t = s->dst[k] == DW_DONE ? s->rpc[top] : s->next[(size_t)i * s->ws + l], g = 0;
            while (g < ng && gpc[g] != t) g++;
            if (g == ng) {
                if (ng == maxg) { snprintf(err, errlen, "thread block compaction: too many paths at one branch"); return -1; }
                gpc[ng] = t;
                memset(&gm[(size_t)ng * s->nw], 0, sizeof(uint64_t) * s->nw);
                ng++;
            }
            gm[(size_t)g * s->nw + i] |= 1ull << l;
        }
    }
    if (ng <= 1) {                                  /* uniform across the CTA: no compaction */
        s->pc[top] = ng ? gpc[0] : s->rpc[top];
        if (s->pc[top] == s->rpc[top]) {
            pop_done(s);
            compact_top(s);
            return 0;
        }
        for (uint32_t k = 0; k < s->ndw; k++)
            if (s->dst[k] != DW_GONE) { s->dst[k] = DW_RUN; s->dw[k].pc = s->pc[top]; }
        return 0;
    }
    /* order as the per-warp stack: fall-through first, then ascending PC,
     * paths that go straight to an exit last (they run first) */
    uint32_t *ord = s->ord, no = ng;
    uint64_t *key = s->key;
    for (uint32_t g = 0; g < ng; g++) {
        ord[g] = g;
        key[g] = (uint64_t)ws_div_starts_exit(c->k, gpc[g]) << 34 | (uint64_t)(gpc[g] != s->branch_pc + 1) << 33 | gpc[g];
    }
    for (uint32_t i = 1; i < no; i++)
        for (uint32_t j = i; j > 0 && key[ord[j - 1]] > key[ord[j]]; j--) { uint32_t t = ord[j]; ord[j] = ord[j - 1]; ord[j - 1] = t; }
    uint32_t R = s->ipdom;
    if (R != s->rpc[top]) s->pc[top] = R;           /* the reconvergence entry keeps the CTA's threads */
    else s->depth--;
    for (uint32_t q = 0; q < no; q++) {
        uint32_t g = ord[q];
        if (gpc[g] == R) continue;                  /* already at the reconvergence point */
        if (s->depth >= s->cap) {
            snprintf(err, errlen, "block-wide reconvergence stack overflow (%u entries) at pc %u", s->cap, s->branch_pc);
            return -1;
        }
        uint32_t e = s->depth++;
        s->pc[e] = gpc[g];
        s->rpc[e] = R;
        memcpy(entry_mask(s, e), &gm[(size_t)g * s->nw], sizeof(uint64_t) * s->nw);
    }
    if (s->depth > s->max_depth) s->max_depth = s->depth;
    pop_done(s);
    compact_top(s);
    return 0;
}

/* After a dynamic warp stopped (at the branch, the RPC, or gone): when none
 * of the top entry runs, the CTA-wide wait is over. Returns 1 if the top
 * entry changed (other warps' dynamic warps changed). */
static int settle(const ws_div_ctx *c, tbc_cta *s, char *err, size_t errlen)
{
    int branch = 0;
    for (uint32_t k = 0; k < s->ndw; k++) {
        if (s->dst[k] == DW_RUN) return 0;
        if (s->dst[k] == DW_BRANCH) branch = 1;
    }
    if (branch) return resolve(c, s, err, errlen) < 0 ? -1 : 1;
    s->pc[s->depth - 1] = s->rpc[s->depth - 1];     /* all at the RPC (or gone): reconverge */
    pop_done(s);
    compact_top(s);
    return 1;
}

static int tbc_update(const ws_div_ctx *c, void *st, const ws_split *sp, const ws_inst *in,
                      const ws_effect *eff, char *err, size_t errlen)
{
    tbc_warp *w = st;
    tbc_cta *s = w->cta;
    uint32_t k = sp->aux, pc = sp->pc, top = s->depth - 1;
    ws_split *d = &s->dw[k];
    const uint16_t *src = &s->src[(size_t)k * s->ws];
    int changed = 0;
    if (eff->exited) {
        for (uint64_t m = eff->exited & d->mask; m; m &= m - 1) {
            uint32_t l = (uint32_t)__builtin_ctzll(m), i = src[l];
            for (uint32_t e = 0; e < s->depth; e++) entry_mask(s, e)[i] &= ~(1ull << l);
            s->alive[i] &= ~(1ull << l);
        }
        d->mask &= ~eff->exited;
        changed = 1;
    }
    if (!d->mask) {
        s->dst[k] = DW_GONE;
        int r = settle(c, s, err, errlen);
        if (r == 0) rehost(s);
        return r < 0 ? -1 : 1;
    }
    /* a potentially divergent branch waits for the CTA; with tbc_wait=divergent one the
     * uniformity analysis proves CTA-uniform sends every thread the same way: it goes on */
    const int uniform = c->uniform_skip && in->cta_uniform;
    if (((in->op == WS_OP_BRA && in->guard != WS_NO_REG) || in->op == WS_OP_BRX) && !uniform) {
        for (uint64_t m = d->mask; m; m &= m - 1) {
            uint32_t l = (uint32_t)__builtin_ctzll(m), i = src[l];
            uint32_t t = !(eff->taken >> l & 1) ? pc + 1 : in->op == WS_OP_BRX ? eff->lane_target[l] : in->target;
            s->next[(size_t)i * s->ws + l] = t;
        }
        s->dst[k] = DW_BRANCH;
        s->branch_pc = pc;
        s->ipdom = in->ipdom;
        int r = settle(c, s, err, errlen);
        if (changed && r == 0) rehost(s);
        return r < 0 ? -1 : (r || changed);
    }
    if (in->op == WS_OP_BRX)   /* CTA-uniform: every lane's target is the first's */
        d->pc = (eff->taken & d->mask) ? eff->lane_target[__builtin_ctzll(d->mask)] : pc + 1;
    else
        d->pc = in->op == WS_OP_BRA && (eff->taken & d->mask) ? in->target : pc + 1;
    if (d->pc == s->rpc[top]) {
        s->dst[k] = DW_DONE;
        int r = settle(c, s, err, errlen);
        if (changed && r == 0) rehost(s);
        return r < 0 ? -1 : (r || changed);
    }
    if (changed) rehost(s);
    return changed;
}

static uint32_t tbc_level(const void *st, uint32_t idx)
{
    (void)idx;
    const tbc_warp *w = st;
    return w->cta->depth ? w->cta->depth - 1 : 0;
}

static void tbc_stats(const void *st, uint32_t *depth, uint32_t *splits)
{
    const tbc_warp *w = st;
    *depth = w->cta->max_depth;
    *splits = w->cta->max_splits;
}

/* Threads of warp `held`'s own warp below the top entry wait for the top
 * entry's threads: when all of this warp's top-entry threads wait at a CTA
 * barrier, its threads below count as arrived (div_stack.c's rule, per warp). */
static uint64_t tbc_parked(const ws_div_ctx *c, const void *st, uint64_t held)
{
    (void)c;
    const tbc_warp *w = st;
    tbc_cta *s = w->cta;
    if (!s->depth) return 0;
    uint64_t tos = entry_mask(s, s->depth - 1)[w->idx], below = 0;
    if (tos & ~held) return 0;
    for (uint32_t e = 0; e + 1 < s->depth; e++) below |= entry_mask(s, e)[w->idx];
    return below & ~tos;
}

static uint64_t tbc_hash(const ws_div_ctx *c, const void *st, uint64_t h)
{
    (void)c;
    const tbc_warp *w = st;
    const tbc_cta *s = w->cta;
    h = ws_hmix(h, ((uint64_t)w->idx << 32) | s->depth);
    for (uint32_t e = 0; e < s->depth; e++) {
        h = ws_hmix(h, ((uint64_t)s->pc[e] << 32) | s->rpc[e]);
        h = ws_hmix(h, s->mask[(size_t)e * s->nw + w->idx]);
    }
    for (uint32_t k = s->first[w->idx]; k < s->first[w->idx] + s->count[w->idx]; k++) {
        h = ws_hmix(h, ((uint64_t)s->dw[k].pc << 8) | s->dst[k]);
        h = ws_hmix(h, s->dw[k].mask);
        for (uint32_t l = 0; l < s->ws; l++) h = ws_hmix(h, s->src[(size_t)k * s->ws + l]);
    }
    return h;
}

static uint32_t line_of(const ws_kernel *k, uint32_t pc) { return pc < k->ninsts ? k->insts[pc].line : 0; }

/* Threads of this warp parked below a top entry that never reaches its RPC
 * make it the stack's SIMT deadlock, block-wide: named first. */
static int tbc_describe(const ws_div_ctx *c, const void *st, char *buf, size_t len)
{
    const tbc_warp *w = st;
    tbc_cta *s = w->cta;
    size_t n = 0;
    if (s->depth > 1) {
        uint32_t top = s->depth - 1;
        uint64_t below = 0;
        for (uint32_t e = 0; e < top; e++) below |= entry_mask(s, e)[w->idx];
        below &= ~entry_mask(s, top)[w->idx];
        /* unlike the per-warp stack, a top entry reconverging only at the exit
         * still holds up other warps' threads (flagwait: warp 0 spins on a flag
         * that warp 1, parked below, would set) */
        if (below && s->rpc[top] != WS_PC_EXIT)
            n += (size_t)snprintf(buf, len, "SIMT deadlock: lanes 0x%llx wait at reconvergence point pc %u (line %u) "
                                  "of the block-wide stack for the top entry's threads",
                                  (unsigned long long)below, s->rpc[top], line_of(c->k, s->rpc[top]));
        else if (below)
            n += (size_t)snprintf(buf, len, "SIMT deadlock: lanes 0x%llx wait in the block-wide stack below the top "
                                  "entry (pc %u, reconverging at the exit) for the top entry's threads",
                                  (unsigned long long)below, s->pc[top]);
    }
    static const char *const what[] = {"runs", "waits at the branch for the CTA", "waits at the RPC", "gone"};
    for (uint32_t k = s->first[w->idx]; k < s->first[w->idx] + s->count[w->idx] && n < len; k++)
        n += (size_t)snprintf(buf + n, len - n, "%sdynamic warp %u pc %u (line %u) lanes 0x%llx %s", n ? "; " : "",
                              k, s->dw[k].pc, line_of(c->k, s->dw[k].pc), (unsigned long long)s->dw[k].mask,
                              what[s->dst[k]]);
    for (int e = (int)s->depth - 1; e >= 0 && n < len; e--) {
        uint64_t m = entry_mask(s, (uint32_t)e)[w->idx];
        if (!m) continue;
        char rpc[32];
        if (s->rpc[e] == WS_PC_EXIT) snprintf(rpc, sizeof rpc, "exit");
        else snprintf(rpc, sizeof rpc, "%u", s->rpc[e]);
        n += (size_t)snprintf(buf + n, len - n, "%sblock stack %s pc %u rpc %s own lanes 0x%llx", n ? "; " : "",
                              e == (int)s->depth - 1 ? "TOS" : "entry", s->pc[e], rpc, (unsigned long long)m);
    }
    return (int)n;
}

/* Per warp slot (docs/area.md "Divergence state"): its share of the
 * block-wide stack, counted as if the slot held its own — area.stack_entries
 * × (PC + RPC + its lanes' mask + the entry's pending-warp count,
 * ceil(log2(warps + 1)) bits) — an upper bound, since a CTA of n warps shares
 * one PC and RPC per entry; plus the home-warp number of each lane of the
 * dynamic warp it hosts, warp_size × ceil(log2(warps)) bits, which the lanes'
 * register-file banks need to find the thread's row (Fung and Aamodt, Sec. 4). */
static uint64_t tbc_state_bits(const ws_config *cfg)
{
    uint64_t pc = ws_area_count(cfg, WS_P_area_pc_bits), ws = (uint64_t)ws_cfg_i(cfg, WS_P_warp_size);
    uint64_t warps = (uint64_t)ws_cfg_i(cfg, WS_P_warps), cnt = 0, id = 0;
    while ((1ull << cnt) < warps + 1) cnt++;
    while ((1ull << id) < warps) id++;
    return ws_area_count(cfg, WS_P_area_stack_entries) * (2 * pc + ws + cnt) + ws * id;
}

const ws_div_ops ws_div_tbc = {
    .name = "tbc",
    .at_branch = "the CTA's warps wait at a guarded branch until all executed it, then each path's threads are compacted "
                 "into dynamic warps (a thread keeps its lane) on a block-wide stack; they reconverge at the IPDOM "
                 "(// reconverge: N)",
    .per_lane_blocking = 1,
    .warp_sync_waits = 0,
    .state_size = tbc_size,
    .cta_state_size = tbc_cta_size,
    .cta_init = tbc_cta_init,
    .parts = tbc_parts,
    .init = tbc_init,
    .splits = tbc_splits,
    .update = tbc_update,
    .level = tbc_level,
    .stats = tbc_stats,
    .hash = tbc_hash,
    .parked = tbc_parked,
    .describe = tbc_describe,
    .state_bits = tbc_state_bits,
};
