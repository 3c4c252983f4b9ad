/*
 * The convergence-barrier pass: inserts ADD / WAIT / YIELD pseudo-instructions
 * (Volta-style stackless SIMT) into a copy of a kernel. Semantics, placement
 * rules and register allocation are documented in include/warpsweep/passes.h.
 *
 * Working representation. Each basic block u has three "points" used to
 * describe where a barrier is live:
 *   IN(u)   its head, where WAITs and hoisted ADDs are inserted,
 *   BODY(u) its instructions,
 *   TAIL(u) the end of the block, between a branch's ADD and the branch.
 * A barrier's region is the set of points from its ADD up to and including the
 * head of its reconvergence block (where its WAIT lives).
 *
 * Layout in front of original instruction i (all parts optional):
 *   [bra.uni skip][WAIT..][hoisted ADD..][ADD][YIELD] i
 * the first four parts only when i starts a block. An edge into a block
 * enters at its first WAIT, except an edge from inside the loop of a hoisted
 * ADD, which enters after that ADD (skipping the block's WAITs: see passes.h).
 */
#include <stdlib.h>
#include <string.h>
#include "warpsweep/ptx.h"
#include "warpsweep/passes.h"
#include "warpsweep/exec.h"

/* ---------------------------------------------------------------- clone -- */

static char *dupstr(const char *s)
{
    return s ? strdup(s) : NULL;
}

static void *dupmem(const void *p, size_t n)
{
    if (!p || !n) return NULL;
    void *q = malloc(n);
    if (q) memcpy(q, p, n);
    return q;
}

/* Frees what ws_kernel_clone allocates (the same fields ws_kernel_free frees). */
static void clone_free(ws_kernel *k)
{
    if (!k) return;
    free(k->path); free(k->name); free(k->insts);
    if (k->reg_names)
        for (uint32_t r = 0; r < k->nregs; r++) free(k->reg_names[r]);
    free(k->reg_names); free(k->reg_types); free(k->reg_slot);
    if (k->params)
        for (uint32_t p = 0; p < k->nparams; p++) free(k->params[p].name);
    free(k->params);
    if (k->vars)
        for (uint32_t v = 0; v < k->nvars; v++) { free(k->vars[v].name); free(k->vars[v].init); }
    free(k->vars);
    free(k->brx_targets);
    if (k->blocks)
        for (uint32_t b = 0; b < k->nblocks; b++) free(k->blocks[b].succ);
    free(k->blocks); free(k->block_of);
    free(k->source);
    free(k);
}

ws_kernel *ws_kernel_clone(const ws_kernel *k)
{
    ws_kernel *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    *c = *k;
    c->path = NULL; c->name = NULL; c->insts = NULL; c->reg_names = NULL; c->reg_types = NULL; c->reg_slot = NULL;
    c->params = NULL; c->vars = NULL; c->brx_targets = NULL; c->blocks = NULL;
    c->block_of = NULL; c->source = NULL;
    int bad = 0;
#define DUPS(f) do { if (k->f && !(c->f = dupstr(k->f))) bad = 1; } while (0)
#define DUPM(f, n) do { if (k->f && (n) && !(c->f = dupmem(k->f, (n) * sizeof *k->f))) bad = 1; } while (0)
    DUPS(path); DUPS(name); DUPS(source);
    DUPM(insts, k->ninsts);
    DUPM(reg_types, k->nregs);
    DUPM(reg_slot, k->nregs ? k->nregs : 1);
    DUPM(brx_targets, k->nbrx_targets);
    DUPM(block_of, k->ninsts);
    if (k->reg_names && k->nregs) {
        if (!(c->reg_names = calloc(k->nregs, sizeof *c->reg_names))) bad = 1;
        else for (uint32_t r = 0; r < k->nregs; r++)
            if (k->reg_names[r] && !(c->reg_names[r] = dupstr(k->reg_names[r]))) bad = 1;
    }
    if (k->params && k->nparams) {
        if (!(c->params = dupmem(k->params, k->nparams * sizeof *k->params))) bad = 1;
        else {
            for (uint32_t p = 0; p < k->nparams; p++) c->params[p].name = NULL;
            for (uint32_t p = 0; p < k->nparams; p++)
                if (k->params[p].name && !(c->params[p].name = dupstr(k->params[p].name))) bad = 1;
        }
    }
    if (k->vars && k->nvars) {
        if (!(c->vars = dupmem(k->vars, k->nvars * sizeof *k->vars))) bad = 1;
        else {
            for (uint32_t v = 0; v < k->nvars; v++) { c->vars[v].name = NULL; c->vars[v].init = NULL; }
            for (uint32_t v = 0; v < k->nvars; v++) {
                if (k->vars[v].name && !(c->vars[v].name = dupstr(k->vars[v].name))) bad = 1;
                if (k->vars[v].init && k->vars[v].size &&
                    !(c->vars[v].init = dupmem(k->vars[v].init, k->vars[v].size))) bad = 1;
            }
        }
    }
    if (k->blocks && k->nblocks) {
        if (!(c->blocks = dupmem(k->blocks, k->nblocks * sizeof *k->blocks))) { bad = 1; c->nblocks = 0; }
        else {
            for (uint32_t b = 0; b < k->nblocks; b++) c->blocks[b].succ = NULL;
            for (uint32_t b = 0; b < k->nblocks; b++)
                if (k->blocks[b].nsucc &&
                    !(c->blocks[b].succ = dupmem(k->blocks[b].succ, k->blocks[b].nsucc * sizeof(uint32_t))))
                    bad = 1;
        }
    } else c->nblocks = 0;
#undef DUPS
#undef DUPM
    if (bad) { clone_free(c); return NULL; }
    return c;
}

/* --------------------------------------------------------------- bitsets -- */

typedef uint64_t word;
#define NW(n) (((n) + 63) / 64)
static inline void bset(word *s, uint32_t i) { s[i >> 6] |= (word)1 << (i & 63); }
static inline int bget(const word *s, uint32_t i) { return (int)((s[i >> 6] >> (i & 63)) & 1); }
static int bintersects(const word *a, const word *b, uint32_t nw)
{
    for (uint32_t i = 0; i < nw; i++) if (a[i] & b[i]) return 1;
    return 0;
}

#define PT_IN(u)   (3u * (u))
#define PT_BODY(u) (3u * (u) + 1u)
#define PT_TAIL(u) (3u * (u) + 2u)

/* ------------------------------------------------------------- the pass -- */

typedef struct barrier {
    uint32_t P;            /* reconvergence block */
    int hoisted;
    uint32_t tail;         /* non-hoisted: the branch's block */
    word *S;               /* hoisted: the loop (block set) */
    uint32_t nS;
    word *region;          /* point set */
    uint32_t addpos;       /* original index the ADD sits before (ordering) */
    uint32_t line, col;    /* of the (first) branch */
    uint32_t reg;
} barrier;

typedef struct ctx {
    const ws_kernel *k;
    uint32_t nb;
    uint32_t *pred, *pstart; /* predecessors */
    uint32_t *stack;
} ctx;

static int is_divergent(const ws_kernel *k, uint32_t b)
{
    const ws_block *bl = &k->blocks[b];
    const ws_inst *in = &k->insts[bl->last];
    if (in->op != WS_OP_BRA && in->op != WS_OP_BRX) return 0;
    return !in->uniform && bl->nsucc >= 2;
}

/* blocks reachable from `from` (each start included) without entering avoid */
static void reach_fwd(ctx *c, const uint32_t *from, uint32_t nfrom, uint32_t avoid, word *out)
{
    uint32_t sp = 0;
    for (uint32_t j = 0; j < nfrom; j++) {
        uint32_t s = from[j];
        if (s == WS_PC_EXIT || s == avoid || bget(out, s)) continue;
        bset(out, s); c->stack[sp++] = s;
    }
    while (sp) {
        const ws_block *bl = &c->k->blocks[c->stack[--sp]];
        for (uint32_t j = 0; j < bl->nsucc; j++) {
            uint32_t s = bl->succ[j];
            if (s == WS_PC_EXIT || s == avoid || bget(out, s)) continue;
            bset(out, s); c->stack[sp++] = s;
        }
    }
}

static void reach_bwd(ctx *c, uint32_t from, uint32_t avoid, word *out)
{
    uint32_t sp = 0;
    bset(out, from); c->stack[sp++] = from;
    while (sp) {
        uint32_t u = c->stack[--sp];
        for (uint32_t j = c->pstart[u]; j < c->pstart[u + 1]; j++) {
            uint32_t p = c->pred[j];
            if (p == avoid || bget(out, p)) continue;
            bset(out, p); c->stack[sp++] = p;
        }
    }
}

static void blocks_to_points(const word *blk, uint32_t nb, word *pts)
{
    for (uint32_t u = 0; u < nb; u++)
        if (bget(blk, u)) { bset(pts, PT_IN(u)); bset(pts, PT_BODY(u)); bset(pts, PT_TAIL(u)); }
}

static int falls_through(const ws_inst *in)
{
    switch (in->op) {
    case WS_OP_BRA: case WS_OP_BRX: case WS_OP_EXIT: case WS_OP_RET: case WS_OP_TRAP:
        return in->guard != WS_NO_REG;
    default:
        return 1;
    }
}

/* ------------------------------------------------------- YIELD policy -- */
/* Which back-edges get a YIELD (passes.h, yield_policy): under WS_YIELD_SPIN
 * only those of loops whose exit may depend on something another thread can
 * change (a memory load, an atomic, a warp-level result, the clock). */

/* The instruction produces a value another thread (or time) may change. */
static int spin_source(const ws_inst *in)
{
    switch (in->op) {
    case WS_OP_LD: case WS_OP_LDU: case WS_OP_LDMATRIX: case WS_OP_WMMA_LOAD:
        return !(in->space == WS_SP_PARAM || in->space == WS_SP_CONST || in->space == WS_SP_LOCAL);
    case WS_OP_SULD:   /* a surface another thread may write */
    case WS_OP_ATOM: case WS_OP_SHFL: case WS_OP_VOTE: case WS_OP_MATCH: case WS_OP_REDUX: case WS_OP_MOVMATRIX:
    case WS_OP_ACTIVEMASK: case WS_OP_BAR: case WS_OP_BARRIER: case WS_OP_MBARRIER: case WS_OP_ELECT:
        return 1;
    default:
        break;
    }
    for (unsigned j = 0; j < in->nsrc && j < WS_MAX_SRC; j++)
        if (in->src[j].kind == WS_OK_SREG &&
            (in->src[j].sreg == WS_SR_CLOCK || in->src[j].sreg == WS_SR_CLOCK64 || in->src[j].sreg >= WS_SR_GLOBALTIMER))
            return 1;
    return 0;
}

static int tainted_reg(const uint8_t *t, uint32_t nregs, uint32_t r)
{
    return r != WS_NO_REG && r < nregs && t[r];
}

static int reads_tainted(const ws_kernel *k, const ws_inst *in, const uint8_t *t)
{
    uint32_t nr = k->nregs;
    if (tainted_reg(t, nr, in->guard)) return 1;
    for (unsigned j = 0; j < in->n_rd && j < 16; j++)
        if (tainted_reg(t, nr, in->rd[j])) return 1;
    for (unsigned j = 0; j < in->nsrc && j < WS_MAX_SRC; j++) {
        const ws_operand *o = &in->src[j];
        if ((o->kind == WS_OK_REG || o->kind == WS_OK_ADDR) && tainted_reg(t, nr, o->reg)) return 1;
        if (o->kind == WS_OK_VEC)
            for (unsigned v = 0; v < o->nvec && v < 8; v++)
                if (tainted_reg(t, nr, o->vec[v])) return 1;
    }
    return 0;
}

static int taint_writes(const ws_kernel *k, const ws_inst *in, uint8_t *t)
{
    int ch = 0;
    uint32_t nr = k->nregs;
#define TAINT(r) do { uint32_t r_ = (r); if (r_ != WS_NO_REG && r_ < nr && !t[r_]) { t[r_] = 1; ch = 1; } } while (0)
    for (unsigned j = 0; j < in->n_wr && j < WS_MAX_WR; j++) TAINT(in->wr[j]);
    if (in->op != WS_OP_ST && in->op != WS_OP_RED)
        for (unsigned j = 0; j < in->ndst && j < WS_MAX_DST; j++) {
            const ws_operand *o = &in->dst[j];
            if (o->kind == WS_OK_REG) TAINT(o->reg);
            else if (o->kind == WS_OK_VEC)
                for (unsigned v = 0; v < o->nvec && v < 8; v++) TAINT(o->vec[v]);
        }
#undef TAINT
    return ch;
}

/* Does the loop (block set L) have an exit whose condition is tainted? */
static int loop_may_spin(const ws_kernel *k, const word *L, uint32_t backedge, uint8_t *t, uint8_t *cdep,
                         uint8_t *done, uint8_t *seen, uint32_t *stack)
{
    const uint32_t nb = k->nblocks;
    memset(t, 0, k->nregs ? k->nregs : 1);
    memset(cdep, 0, nb);
    memset(done, 0, nb);
    int carry = 0, changed = 1;
    while (changed) {
        changed = 0;
        for (uint32_t u = 0; u < nb; u++) {
            if (!bget(L, u)) continue;
            for (uint32_t i = k->blocks[u].first; i <= k->blocks[u].last; i++) {
                const ws_inst *in = &k->insts[i];
                int rc = in->op == WS_OP_ADDC || in->op == WS_OP_SUBC || in->op == WS_OP_MADC;
                if (!(cdep[u] || spin_source(in) || reads_tainted(k, in, t) || (rc && carry))) continue;
                if (taint_writes(k, in, t)) changed = 1;
                if ((in->mods & WS_MOD_CC) && !carry) { carry = 1; changed = 1; }
            }
        }
        /* control dependence on a tainted branch of the loop */
        for (uint32_t u = 0; u < nb; u++) {
            const ws_block *bl = &k->blocks[u];
            const ws_inst *in = &k->insts[bl->last];
            if (!bget(L, u) || done[u] || bl->nsucc < 2) continue;
            if ((in->op != WS_OP_BRA && in->op != WS_OP_BRX) || !reads_tainted(k, in, t)) continue;
            done[u] = 1;
            memset(seen, 0, nb);
            uint32_t sp = 0, P = bl->ipdom;
            for (uint32_t j = 0; j < bl->nsucc; j++) {
                uint32_t s = bl->succ[j];
                if (s != WS_PC_EXIT && s != P && bget(L, s) && !seen[s]) { seen[s] = 1; stack[sp++] = s; }
            }
            while (sp) {
                uint32_t v = stack[--sp];
                if (!cdep[v]) { cdep[v] = 1; changed = 1; }
                const ws_block *sb = &k->blocks[v];
                for (uint32_t j = 0; j < sb->nsucc; j++) {
                    uint32_t s = sb->succ[j];
                    if (s != WS_PC_EXIT && s != P && bget(L, s) && !seen[s]) { seen[s] = 1; stack[sp++] = s; }
                }
            }
        }
    }
    /* exits: a branch leaving L, the back-edge, a guarded exit/ret/trap */
    for (uint32_t u = 0; u < nb; u++) {
        if (!bget(L, u)) continue;
        const ws_block *bl = &k->blocks[u];
        const ws_inst *in = &k->insts[bl->last];
        int leaves = bl->last == backedge;
        for (uint32_t j = 0; j < bl->nsucc; j++)
            if (bl->succ[j] == WS_PC_EXIT || !bget(L, bl->succ[j])) leaves = 1;
        if (!leaves) continue;
        if (in->op == WS_OP_BRA || in->op == WS_OP_BRX || in->op == WS_OP_EXIT || in->op == WS_OP_RET ||
            in->op == WS_OP_TRAP)
            if (reads_tainted(k, in, t)) return 1;
    }
    return 0;
}

int ws_yield_points(const ws_kernel *k, int yield_policy, uint8_t *out)
{
    const uint32_t n = k->ninsts, nb = k->nblocks;
    for (uint32_t i = 0; i < n; i++) out[i] = k->insts[i].is_backedge != 0;
    if (yield_policy == WS_YIELD_ALL || !k->blocks || !k->block_of || nb == 0) return 0;
    const uint32_t bw = NW(nb);
    uint32_t *pstart = calloc(nb + 1, sizeof *pstart), *pred = NULL, *fill = NULL;
    uint32_t *stack = malloc(nb * sizeof *stack);
    word *L = calloc(bw, sizeof *L), *Lb = calloc(bw, sizeof *Lb), *Lf = calloc(bw, sizeof *Lf);
    uint8_t *t = calloc(k->nregs ? k->nregs : 1, 1), *cdep = malloc(nb), *done = malloc(nb), *seen = malloc(nb);
    int rc = -1;
    if (!pstart || !stack || !L || !Lb || !Lf || !t || !cdep || !done || !seen) goto out;
    uint32_t tot = 0;
    for (uint32_t u = 0; u < nb; u++)
        for (uint32_t j = 0; j < k->blocks[u].nsucc; j++)
            if (k->blocks[u].succ[j] != WS_PC_EXIT) { pstart[k->blocks[u].succ[j] + 1]++; tot++; }
    for (uint32_t u = 0; u < nb; u++) pstart[u + 1] += pstart[u];
    pred = malloc((tot ? tot : 1) * sizeof *pred);
    fill = calloc(nb, sizeof *fill);
    if (!pred || !fill) goto out;
    for (uint32_t u = 0; u < nb; u++)
        for (uint32_t j = 0; j < k->blocks[u].nsucc; j++) {
            uint32_t s = k->blocks[u].succ[j];
            if (s != WS_PC_EXIT) pred[pstart[s] + fill[s]++] = u;
        }
    ctx c = { .k = k, .nb = nb, .pred = pred, .pstart = pstart, .stack = stack };
    for (uint32_t i = 0; i < n; i++) {
        const ws_inst *in = &k->insts[i];
        if (!in->is_backedge) continue;
        /* the natural loop(s) of the backward target(s) */
        uint32_t b = k->block_of[i];
        memset(L, 0, bw * sizeof *L);
        uint32_t nt = in->op == WS_OP_BRX ? in->ntargets : 1;
        for (uint32_t j = 0; j < nt; j++) {
            uint32_t tgt = in->op == WS_OP_BRX ? k->brx_targets[in->target + j] : in->target;
            if (tgt > i || tgt >= n) continue;
            uint32_t h = k->block_of[tgt];
            if (h != b) {
                /* the blocks on a cycle through h and b: they reach b without
                 * passing h, and h reaches them (when h does not dominate b,
                 * the backward walk alone would run up to the kernel's entry
                 * and count loads before the loop: a YIELD for a counted loop) */
                memset(Lb, 0, bw * sizeof *Lb);
                memset(Lf, 0, bw * sizeof *Lf);
                reach_bwd(&c, b, h, Lb);
                reach_fwd(&c, &h, 1, WS_PC_EXIT, Lf);
                for (uint32_t q = 0; q < bw; q++) L[q] |= Lb[q] & Lf[q];
            }
            bset(L, h);
            bset(L, b);
        }
        out[i] = (uint8_t)loop_may_spin(k, L, i, t, cdep, done, seen, stack);
    }
    rc = 0;
out:
    if (rc) for (uint32_t i = 0; i < n; i++) out[i] = k->insts[i].is_backedge != 0;
    free(pstart); free(pred); free(fill); free(stack); free(L); free(Lb); free(Lf); free(t); free(cdep); free(done);
    free(seen);
    return rc;
}

static ws_inst pseudo(uint16_t op, uint32_t line, uint32_t col)
{
    ws_inst in;
    memset(&in, 0, sizeof in);
    in.op = op;
    in.unit = op == WS_OP_BWAIT ? WS_UNIT_SYNC : WS_UNIT_CTRL;
    in.cost = WS_COST_ONE;
    in.vec = 1;
    in.guard = WS_NO_REG;
    for (int j = 0; j < WS_MAX_DST; j++) in.dst[j].reg = WS_NO_REG;
    for (int j = 0; j < WS_MAX_SRC; j++) in.src[j].reg = WS_NO_REG;
    in.target = 0;
    in.ipdom = WS_PC_EXIT;
    in.line = line;
    in.col = col;
    return in;
}

/* ------------------------------------------------ barrier allocation -- */

/* A divergent branch whose successors other than its reconvergence point are
 * all early exits (blocks that only exit, cfg.c) needs no barrier: the threads
 * that leave never come back, the others are still together. */
static int only_early_exits_diverge(const ws_kernel *k, const ws_block *bl)
{
    for (uint32_t j = 0; j < bl->nsucc; j++) {
        uint32_t s = bl->succ[j];
        if (s != WS_PC_EXIT && s != bl->ipdom && !k->blocks[s].terminal) return 0;
    }
    return 1;
}

/* Does barrier X, not hoisted, enclose every branch of Y: same reconvergence
 * point, Y's branch blocks inside X's region and reachable only through X's
 * ADD (X's branch block dominates them)? Then X's WAIT already reconverges
 * Y's threads (every one of them is a participant of X) and Y needs no
 * register: ptxas likewise emits one BSSY/BSYNC pair per reconvergence point,
 * so an else-if chain or nested ifs that meet at one join take one barrier
 * register, not one per branch. `dom` = blocks reachable from the entry
 * without passing X's branch block (those NOT dominated by it). */
static int encloses(ctx *c, const barrier *X, const barrier *Y, const word *dom)
{
    if (X->hoisted || X->P != Y->P) return 0;
    for (uint32_t u = 0; u < c->nb; u++) {
        int mine = Y->hoisted ? bget(Y->S, u) : u == Y->tail;
        if (!mine) continue;
        if (u == X->tail || !bget(X->region, PT_BODY(u)) || bget(dom, u)) return 0;
    }
    return 1;
}

/* Drops every barrier enclosed by another (see encloses), compacting bars and
 * renumbering bar_tail. Returns 0, or -1 with *oom set. */
static int merge_nested_barriers(ctx *c, barrier *bars, uint32_t *nbars, uint32_t *bar_tail, word *tmp, int *oom)
{
    const uint32_t nb = c->nb, bw = NW(nb ? nb : 1), n = *nbars;
    uint8_t *drop = calloc(n ? n : 1, 1);
    word *dom = calloc(bw, sizeof *dom);
    if (!drop || !dom) { free(drop); free(dom); *oom = 1; return -1; }
    for (uint32_t x = 0; x < n; x++) {
        if (bars[x].hoisted) continue;
        int any = 0;
        for (uint32_t y = 0; y < n && !any; y++) any = y != x && !drop[y] && bars[y].P == bars[x].P;
        if (!any) continue;
        uint32_t entry = 0;
        memset(dom, 0, bw * sizeof *dom);
        reach_fwd(c, &entry, 1, bars[x].tail, dom);
        for (uint32_t y = 0; y < n; y++)
            if (y != x && !drop[y] && encloses(c, &bars[x], &bars[y], dom)) drop[y] = 1;
    }
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (drop[i]) { free(bars[i].S); free(bars[i].region); continue; }
        bars[m++] = bars[i];
    }
    for (uint32_t u = 0; u < nb; u++) bar_tail[u] = UINT32_MAX;
    for (uint32_t i = 0; i < m; i++)
        if (!bars[i].hoisted) bar_tail[bars[i].tail] = i;
    *nbars = m;
    free(drop); free(dom);
    (void)tmp;
    return 0;
}

/* A barrier X whose region holds a YIELD may clear while yielded participants
 * are still inside it: the threads it releases run on past its WAIT while the
 * others are still in its region, and the warp's threads stay out of step
 * until they all meet at some later WAIT. So X, the barriers inside its region
 * and those reachable after its WAIT can all be live at once (the leaders at a
 * later barrier while the others are at an earlier one): they interfere
 * pairwise. A shared register would be re-armed by the leaders and hold the
 * others at the wrong WAIT (fuzzer seeds 7039, 310480: a lock, then ifs in an
 * inlined call, then a loop). */
static void mark_yield_barriers_exclusive(ctx *c, const barrier *bars, uint32_t nbars, const uint8_t *yp,
                                          uint8_t *interf, word *after_blocks, word *after)
{
    const ws_kernel *k = c->k;
    const uint32_t nb = k->nblocks, pw = NW(3 * (nb ? nb : 1)), bw = NW(nb ? nb : 1);
    for (uint32_t x = 0; x < nbars; x++) {
        int yields = 0;
        for (uint32_t u = 0; u < nb && !yields; u++)
            yields = yp[k->blocks[u].last] && bget(bars[x].region, PT_TAIL(u));
        if (!yields) continue;
        memset(after_blocks, 0, bw * sizeof *after_blocks);
        memset(after, 0, pw * sizeof *after);
        reach_fwd(c, &bars[x].P, 1, WS_PC_EXIT, after_blocks);
        blocks_to_points(after_blocks, nb, after);
        for (uint32_t i = 0; i < pw; i++) after[i] |= bars[x].region[i];   /* inside or after X */
        for (uint32_t y = 0; y < nbars; y++) {
            if (!bintersects(bars[y].region, after, pw)) continue;
            for (uint32_t z = 0; z < nbars; z++)
                if (z != y && bintersects(bars[z].region, after, pw))
                    interf[y * nbars + z] = interf[z * nbars + y] = 1;
        }
    }
}

typedef struct head {      /* what is inserted at the head of a block */
    uint32_t nw, nh;
    uint32_t *w;           /* barrier indices, WAIT order */
    uint32_t *h;           /* hoisted barriers entering here, outermost first */
} head;

/* slot of the head of block u an edge from block src enters at:
 * 0 = first head instruction, nw + nh = past the head */
static uint32_t entry_slot(const head *hd, const barrier *bars, uint32_t src)
{
    int inside = 0;
    for (uint32_t j = 0; j < hd->nh; j++)
        if (src != WS_PC_EXIT && bget(bars[hd->h[j]].S, src)) inside = 1;
    if (!inside) return 0;
    for (uint32_t j = 0; j < hd->nh; j++)
        if (!bget(bars[hd->h[j]].S, src)) return hd->nw + j;
    return hd->nw + hd->nh;
}

/* ------------------------------------------------ BMOV spill / fill -- */
/* More barriers live at once than nregs (passes.h, "Spilling"): ptxas then
 * keeps barrier state in general registers, BMOV.32 R, B after the BSSY and
 * BMOV.32 B, R before the BSYNC. A spilled barrier needs a B register only
 * at its ADD and at its WAIT. Which to spill: the outermost, the live
 * barrier with the largest region, whose next use (its WAIT, at the join
 * after everything nested in it) is the farthest away: one spill and one
 * fill free its register across all the inner code, as ptxas saves a
 * barrier around an inner region. */
enum { BMOV_AFTER = 1, BMOV_BEFORE = 2 };

static uint32_t point_count(const word *s, uint32_t pw)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < pw; i++) n += (uint32_t)__builtin_popcountll(s[i]);
    return n;
}

/* The points at which barrier B needs its register when spilled: its ADD
 * (a branch's tail, or the heads of a hoisted loop's entries) and its WAIT. */
static void spilled_points(const ctx *c, const barrier *B, word *pts, uint32_t pw)
{
    memset(pts, 0, pw * sizeof *pts);
    bset(pts, PT_IN(B->P));
    if (!B->hoisted) { bset(pts, PT_TAIL(B->tail)); return; }
    for (uint32_t u = 0; u < c->nb; u++) {
        if (!bget(B->S, u)) continue;
        int entry = u == 0;
        for (uint32_t j = c->pstart[u]; j < c->pstart[u + 1]; j++)
            if (!bget(B->S, c->pred[j])) entry = 1;
        if (entry) bset(pts, PT_IN(u));
    }
}

/* B registers the allocation needs with `spilled` kept in general registers:
 * greedy colouring in ADD order, as step 4, where two barriers conflict if
 * they interfere (interf) and, when one is spilled, the points at which each
 * needs its register meet (a resident barrier needs it over its region). */
static uint32_t physical_need(const barrier *bars, uint32_t nbars, const uint8_t *interf, const uint8_t *spilled,
                              word *const *need_at, uint32_t pw, const uint32_t *ord, uint32_t *color, uint8_t *used)
{
    uint32_t most = 0;
    for (uint32_t i = 0; i < nbars; i++) color[i] = UINT32_MAX;
    for (uint32_t oi = 0; oi < nbars; oi++) {
        uint32_t x = ord[oi];
        memset(used, 0, nbars + 1);
        for (uint32_t y = 0; y < nbars; y++) {
            if (color[y] == UINT32_MAX || !interf[x * nbars + y]) continue;
            if ((spilled[x] || spilled[y]) && !bintersects(need_at[x], need_at[y], pw)) continue;
            used[color[y]] = 1;
        }
        uint32_t r = 0;
        while (used[r]) r++;
        color[x] = r;
        if (r + 1 > most) most = r + 1;
    }
    (void)bars;
    return most;
}

/* Marks barriers spilled, outermost first, until the B registers needed fit
 * nregs or every barrier is spilled; *need = the registers then needed. The
 * run keeps every barrier's state in its own slot (bars[].reg, unchanged):
 * the BMOVs move it between a B register and a general register unchanged,
 * so their effect is their cost. Returns 0, or -1 on allocation failure. */
static int spill_barriers(const ctx *c, const barrier *bars, uint32_t nbars, const uint8_t *interf, uint32_t nregs,
                          uint8_t *spilled, uint32_t *need)
{
    const uint32_t pw = NW(3 * (c->nb ? c->nb : 1));
    word **need_at = calloc(nbars ? nbars : 1, sizeof *need_at);
    uint32_t *ord = malloc((nbars ? nbars : 1) * sizeof *ord), *color = malloc((nbars ? nbars : 1) * sizeof *color);
    uint8_t *used = malloc(nbars + 1);
    int rc = -1;
    if (!need_at || !ord || !color || !used) goto out;
    for (uint32_t i = 0; i < nbars; i++) {
        if (!(need_at[i] = calloc(pw, sizeof(word)))) goto out;
        memcpy(need_at[i], bars[i].region, pw * sizeof(word));
        ord[i] = i;
    }
    for (uint32_t i = 1; i < nbars; i++)           /* ADD order, as step 4 */
        for (uint32_t j = i; j > 0 && bars[ord[j - 1]].addpos > bars[ord[j]].addpos; j--) {
            uint32_t t = ord[j]; ord[j] = ord[j - 1]; ord[j - 1] = t;
        }
    *need = physical_need(bars, nbars, interf, spilled, need_at, pw, ord, color, used);
    while (*need > nregs) {
        uint32_t best = UINT32_MAX, best_n = 0;
        for (uint32_t oi = 0; oi < nbars; oi++) {  /* the outermost: largest region, first ADD on ties */
            uint32_t x = ord[oi], n = point_count(bars[x].region, pw);
            if (!spilled[x] && (best == UINT32_MAX || n > best_n)) { best = x; best_n = n; }
        }
        if (best == UINT32_MAX) break;             /* all spilled: still too many at some ADD/WAIT */
        spilled[best] = 1;
        spilled_points(c, &bars[best], need_at[best], pw);
        *need = physical_need(bars, nbars, interf, spilled, need_at, pw, ord, color, used);
    }
    rc = 0;
out:
    if (need_at) for (uint32_t i = 0; i < nbars; i++) free(need_at[i]);
    free(need_at); free(ord); free(color); free(used);
    return rc;
}

/* General registers the spilled barriers hold at once: the most spilled
 * barriers whose regions share a point (one 32-bit register each, BMOV.32). */
static uint32_t spill_pressure(const barrier *bars, uint32_t nbars, const uint8_t *spilled, uint32_t pw)
{
    uint32_t most = 0;
    for (uint32_t p = 0; p < 64 * pw; p++) {
        uint32_t n = 0;
        for (uint32_t i = 0; i < nbars; i++) n += spilled[i] && bget(bars[i].region, p);
        if (n > most) most = n;
    }
    return most;
}

static ws_inst bmov_inst(const ws_inst *at, int fill)
{
    ws_inst in = pseudo(WS_OP_BMOV, at->line, at->col);
    in.unit = WS_UNIT_INT;                     /* an integer move (ALU class) */
    in.subop = (uint8_t)fill;                  /* 0: BMOV.32 R, B (spill); 1: BMOV.32 B, R (fill) */
    in.barrier = at->barrier;
    return in;
}

/* Inserts a spill after every ADD marked BMOV_AFTER and a fill before every
 * WAIT marked BMOV_BEFORE. A branch to a WAIT now enters at its fill; a
 * branch to the instruction after an ADD (an edge from inside a hoisted
 * ADD's loop) still enters after the spill, as it skips the ADD. */
static int insert_bmovs(ws_inst **insts, uint32_t *n, uint32_t *brx, uint32_t nbrx, const uint8_t *mark)
{
    uint32_t add = 0, on = *n;
    for (uint32_t i = 0; i < on; i++) add += mark[i] != 0;
    uint32_t *start = malloc((on + 1) * sizeof *start);
    ws_inst *out = calloc(on + add ? on + add : 1, sizeof *out);
    if (!start || !out) { free(start); free(out); return -1; }
    uint32_t q = 0;
    for (uint32_t i = 0; i < on; i++) {
        start[i] = q;
        const ws_inst *in = &(*insts)[i];
        if (mark[i] == BMOV_BEFORE) out[q++] = bmov_inst(in, 1);
        out[q++] = *in;
        if (mark[i] == BMOV_AFTER) out[q++] = bmov_inst(in, 0);
    }
    start[on] = q;
    for (uint32_t i = 0; i < q; i++)
        if (out[i].op == WS_OP_BRA && out[i].target <= on) out[i].target = start[out[i].target];
    for (uint32_t j = 0; j < nbrx; j++)
        if (brx[j] <= on) brx[j] = start[brx[j]];
    free(start);
    free(*insts);
    *insts = out;
    *n = q;
    return 0;
}

ws_kernel *ws_barrier_transform(const ws_kernel *k, unsigned nregs, int yield_policy, ws_error *err)
{
    const char *kname = k->name ? k->name : "<kernel>";
    const char *file = k->path ? k->path : kname;
    ws_kernel *W = ws_kernel_clone(k);
    if (!W) { ws_fail(err, "%s: out of memory", file); return NULL; }
    if (ws_cfg_build(W, err)) { clone_free(W); return NULL; }
    ws_kernel *out = NULL;
    const uint32_t nb = W->nblocks, n = W->ninsts;
    const uint32_t bw = NW(nb ? nb : 1), pw = NW(3 * (nb ? nb : 1));

    ctx c = { .k = W, .nb = nb };
    barrier *bars = NULL;
    uint32_t nbars = 0;
    uint32_t *bar_tail = NULL;            /* block -> non-hoisted barrier, or -1 */
    uint8_t *interf = NULL;
    head *heads = NULL;
    uint32_t *npre = NULL, *base = NULL, *newbrx = NULL;
    uint32_t *divs = NULL, ndivs = 0;
    word *tmp = NULL, *tmp2 = NULL;
    ws_inst *ni = NULL;
    uint8_t *yp = NULL;                   /* instruction -> gets a YIELD (yield_policy) */
    uint8_t *spilled = NULL;              /* barrier -> kept in a general register (BMOV) */
    uint8_t *bmov = NULL;                 /* new instruction -> BMOV_AFTER / BMOV_BEFORE it */
    int oom = 0;

    c.pstart = calloc(nb + 1, sizeof *c.pstart);
    c.stack = malloc((nb ? nb : 1) * sizeof *c.stack);
    bar_tail = malloc((nb ? nb : 1) * sizeof *bar_tail);
    divs = malloc((nb ? nb : 1) * sizeof *divs);
    bars = calloc(nb ? nb : 1, sizeof *bars);
    tmp = calloc(bw, sizeof *tmp);
    tmp2 = calloc(pw, sizeof *tmp2);
    yp = malloc(n ? n : 1);
    if (!c.pstart || !c.stack || !bar_tail || !divs || !bars || !tmp || !tmp2 || !yp) { oom = 1; goto done; }
    if (ws_yield_points(W, yield_policy, yp)) { oom = 1; goto done; }

    /* predecessors */
    {
        uint32_t tot = 0;
        for (uint32_t u = 0; u < nb; u++)
            for (uint32_t j = 0; j < W->blocks[u].nsucc; j++)
                if (W->blocks[u].succ[j] != WS_PC_EXIT) { c.pstart[W->blocks[u].succ[j] + 1]++; tot++; }
        for (uint32_t u = 0; u < nb; u++) c.pstart[u + 1] += c.pstart[u];
        c.pred = malloc((tot ? tot : 1) * sizeof *c.pred);
        uint32_t *fill = calloc(nb ? nb : 1, sizeof *fill);
        if (!c.pred || !fill) { free(fill); oom = 1; goto done; }
        for (uint32_t u = 0; u < nb; u++)
            for (uint32_t j = 0; j < W->blocks[u].nsucc; j++) {
                uint32_t s = W->blocks[u].succ[j];
                if (s != WS_PC_EXIT) c.pred[c.pstart[s] + fill[s]++] = u;
            }
        free(fill);
    }

    /* 1. barriers */
    for (uint32_t b = 0; b < nb; b++) {
        bar_tail[b] = UINT32_MAX;
        if (!is_divergent(W, b)) continue;
        divs[ndivs++] = b;
        const ws_block *bl = &W->blocks[b];
        const ws_inst *br = &W->insts[bl->last];
        uint32_t P = bl->ipdom;
        if (P == WS_PC_EXIT) continue;             /* no WAIT, no barrier */
        if (only_early_exits_diverge(W, bl)) continue;
        memset(tmp, 0, bw * sizeof *tmp);
        reach_fwd(&c, bl->succ, bl->nsucc, P, tmp);
        barrier nbar;
        memset(&nbar, 0, sizeof nbar);
        nbar.P = P;
        nbar.line = br->line; nbar.col = br->col;
        if (bget(tmp, b)) {                         /* b lies on a cycle avoiding P: hoist */
            word *S = calloc(bw, sizeof *S);
            if (!S) { oom = 1; goto done; }
            reach_bwd(&c, b, P, S);
            for (uint32_t i = 0; i < bw; i++) S[i] &= tmp[i];
            uint32_t m = UINT32_MAX;
            for (uint32_t i = 0; i < nbars; i++)
                if (bars[i].hoisted && bars[i].P == P && !memcmp(bars[i].S, S, bw * sizeof *S)) m = i;
            if (m != UINT32_MAX) { free(S); continue; }   /* same loop, same P: share */
            nbar.hoisted = 1;
            nbar.S = S;
            nbar.addpos = n;
            for (uint32_t u = 0; u < nb; u++) {
                if (!bget(S, u)) continue;
                nbar.nS++;
                int entry = u == 0;
                for (uint32_t j = c.pstart[u]; j < c.pstart[u + 1]; j++)
                    if (!bget(S, c.pred[j])) entry = 1;
                if (entry && W->blocks[u].first < nbar.addpos) nbar.addpos = W->blocks[u].first;
            }
        } else {
            nbar.tail = b;
            nbar.addpos = bl->last;
            bar_tail[b] = nbars;
        }
        bars[nbars++] = nbar;
    }

    /* 2. regions */
    for (uint32_t i = 0; i < nbars; i++) {
        barrier *B = &bars[i];
        B->region = calloc(pw, sizeof *B->region);
        if (!B->region) { oom = 1; goto done; }
        memset(tmp, 0, bw * sizeof *tmp);
        if (B->hoisted) {
            uint32_t nent = 0;
            for (uint32_t u = 0; u < nb; u++) {
                if (!bget(B->S, u)) continue;
                int entry = u == 0;
                for (uint32_t j = c.pstart[u]; j < c.pstart[u + 1]; j++)
                    if (!bget(B->S, c.pred[j])) entry = 1;
                if (entry) { reach_fwd(&c, &u, 1, B->P, tmp); nent++; }
            }
            (void)nent;
        } else {
            const ws_block *bl = &W->blocks[B->tail];
            reach_fwd(&c, bl->succ, bl->nsucc, B->P, tmp);
            bset(B->region, PT_TAIL(B->tail));
        }
        blocks_to_points(tmp, nb, B->region);
        bset(B->region, PT_IN(B->P));
    }

    /* 2b. one barrier per reconvergence point */
    if (merge_nested_barriers(&c, bars, &nbars, bar_tail, tmp, &oom)) goto done;

    /* 3. interference: overlapping regions, or reachable from different
     *    successors of one divergent branch (concurrent splits) */
    interf = calloc((size_t)(nbars ? nbars : 1) * (nbars ? nbars : 1), 1);
    if (!interf) { oom = 1; goto done; }
    for (uint32_t a = 0; a < nbars; a++)
        for (uint32_t b = a + 1; b < nbars; b++)
            if (bintersects(bars[a].region, bars[b].region, pw))
                interf[a * nbars + b] = interf[b * nbars + a] = 1;
    mark_yield_barriers_exclusive(&c, bars, nbars, yp, interf, tmp, tmp2);
    if (nbars > 1) {
        uint8_t *touch = NULL;
        for (uint32_t d = 0; d < ndivs && !oom; d++) {
            const ws_block *bl = &W->blocks[divs[d]];
            uint32_t ns = bl->nsucc;
            free(touch);
            touch = calloc((size_t)ns * nbars, 1);
            if (!touch) { oom = 1; break; }
            for (uint32_t s = 0; s < ns; s++) {
                uint32_t su = bl->succ[s];
                if (su == WS_PC_EXIT || su == bl->ipdom) continue;
                memset(tmp, 0, bw * sizeof *tmp);
                memset(tmp2, 0, pw * sizeof *tmp2);
                reach_fwd(&c, &su, 1, bl->ipdom, tmp);
                blocks_to_points(tmp, nb, tmp2);
                for (uint32_t x = 0; x < nbars; x++)
                    touch[s * nbars + x] = (uint8_t)bintersects(bars[x].region, tmp2, pw);
            }
            for (uint32_t s1 = 0; s1 < ns; s1++)
                for (uint32_t s2 = 0; s2 < ns; s2++) {
                    if (s1 == s2) continue;
                    for (uint32_t x = 0; x < nbars; x++) {
                        if (!touch[s1 * nbars + x]) continue;
                        for (uint32_t y = 0; y < nbars; y++)
                            if (y != x && touch[s2 * nbars + y])
                                interf[x * nbars + y] = interf[y * nbars + x] = 1;
                    }
                }
        }
        free(touch);
        if (oom) goto done;
    }

    /* 4. registers: greedy, ADDs in program order */
    {
        uint32_t *ord = malloc((nbars ? nbars : 1) * sizeof *ord);
        uint8_t *used = calloc(nbars + 1, 1);
        if (!ord || !used) { free(ord); free(used); oom = 1; goto done; }
        for (uint32_t i = 0; i < nbars; i++) ord[i] = i;
        for (uint32_t i = 1; i < nbars; i++)       /* insertion sort: stable, by addpos */
            for (uint32_t j = i; j > 0 && bars[ord[j - 1]].addpos > bars[ord[j]].addpos; j--) {
                uint32_t t = ord[j]; ord[j] = ord[j - 1]; ord[j - 1] = t;
            }
        uint32_t maxreg = 0;
        for (uint32_t i = 0; i < nbars; i++) bars[i].reg = UINT32_MAX;
        for (uint32_t oi = 0; oi < nbars; oi++) {
            uint32_t x = ord[oi];
            memset(used, 0, nbars + 1);
            for (uint32_t y = 0; y < nbars; y++)
                if (interf[x * nbars + y] && bars[y].reg != UINT32_MAX) used[bars[y].reg] = 1;
            uint32_t r = 0;
            while (used[r]) r++;
            bars[x].reg = r;
            if (r + 1 > maxreg) maxreg = r + 1;
        }
        free(ord); free(used);
        if (maxreg > nregs) {
            uint32_t need = 0;
            if (!(spilled = calloc(nbars ? nbars : 1, 1))) { oom = 1; goto done; }
            if (spill_barriers(&c, bars, nbars, interf, nregs, spilled, &need) < 0) { oom = 1; goto done; }
            if (need > nregs) {
                ws_fail(err, "%s: kernel %s needs %u convergence-barrier registers, only %u available",
                        file, kname, need, nregs);
                goto done;
            }
            W->bmov_regs = spill_pressure(bars, nbars, spilled, pw);
        }
    }

    /* 5. heads */
    heads = calloc(nb ? nb : 1, sizeof *heads);
    if (!heads) { oom = 1; goto done; }
    for (uint32_t i = 0; i < nbars; i++) {
        heads[bars[i].P].nw++;
        if (bars[i].hoisted)
            for (uint32_t u = 0; u < nb; u++) {
                if (!bget(bars[i].S, u)) continue;
                int entry = u == 0;
                for (uint32_t j = c.pstart[u]; j < c.pstart[u + 1]; j++)
                    if (!bget(bars[i].S, c.pred[j])) entry = 1;
                if (entry) heads[u].nh++;
            }
    }
    for (uint32_t u = 0; u < nb; u++) {
        heads[u].w = malloc((heads[u].nw + 1) * sizeof(uint32_t));
        heads[u].h = malloc((heads[u].nh + 1) * sizeof(uint32_t));
        if (!heads[u].w || !heads[u].h) { oom = 1; goto done; }
        heads[u].nw = heads[u].nh = 0;
    }
    for (uint32_t i = 0; i < nbars; i++) {
        head *hp = &heads[bars[i].P];
        /* innermost first: later ADD first (ties: later barrier first) */
        uint32_t j = hp->nw++;
        while (j > 0 && bars[hp->w[j - 1]].addpos <= bars[i].addpos) { hp->w[j] = hp->w[j - 1]; j--; }
        hp->w[j] = i;
        if (bars[i].hoisted)
            for (uint32_t u = 0; u < nb; u++) {
                if (!bget(bars[i].S, u)) continue;
                int entry = u == 0;
                for (uint32_t q = c.pstart[u]; q < c.pstart[u + 1]; q++)
                    if (!bget(bars[i].S, c.pred[q])) entry = 1;
                if (!entry) continue;
                head *hh = &heads[u];
                uint32_t t = hh->nh++;   /* outermost (largest loop) first, stable */
                while (t > 0 && bars[hh->h[t - 1]].nS < bars[i].nS) { hh->h[t] = hh->h[t - 1]; t--; }
                hh->h[t] = i;
            }
    }

    /* 6. layout: number of instructions inserted before each original one */
    npre = calloc(n + 1, sizeof *npre);
    base = calloc(n + 1, sizeof *base);
    if (!npre || !base) { oom = 1; goto done; }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t u = W->block_of[i];
        const ws_block *bl = &W->blocks[u];
        if (bl->first == i) {
            const head *hd = &heads[u];
            if (i > 0 && hd->nw + hd->nh > 0 && falls_through(&W->insts[i - 1]) &&
                entry_slot(hd, bars, W->block_of[i - 1]) != 0)
                npre[i]++;                              /* skip branch */
            npre[i] += hd->nw + hd->nh;
        }
        if (bl->last == i) {
            if (bar_tail[u] != UINT32_MAX) npre[i]++;   /* ADD */
            if (yp[i]) npre[i]++;                       /* YIELD */
        }
    }
    uint32_t nn = 0;
    for (uint32_t i = 0; i < n; i++) { base[i] = nn; nn += npre[i] + 1; }
    base[n] = nn;

    ni = calloc(nn ? nn : 1, sizeof *ni);
    newbrx = malloc((W->nbrx_targets ? W->nbrx_targets : 1) * sizeof *newbrx);
    bmov = spilled ? calloc(nn ? nn : 1, 1) : NULL;
    if (!ni || !newbrx || (spilled && !bmov)) { oom = 1; goto done; }
    uint32_t nnbrx = 0, capbrx = W->nbrx_targets ? W->nbrx_targets : 1;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t u = W->block_of[i];
        const ws_block *bl = &W->blocks[u];
        uint32_t p = base[i];
        if (bl->first == i) {
            const head *hd = &heads[u];
            uint32_t tailn = 0;
            if (bl->last == i) tailn = (bar_tail[u] != UINT32_MAX) + (yp[i] != 0);
            uint32_t hstart = base[i] + npre[i] - tailn - hd->nw - hd->nh;
            if (hstart != p) {                          /* skip branch for the fall-through */
                ni[p] = pseudo(WS_OP_BRA, W->insts[i - 1].line, W->insts[i - 1].col);
                ni[p].mods = WS_MOD_UNI;
                ni[p].unit = WS_UNIT_CTRL;
                ni[p].ntargets = 1;
                ni[p].target = hstart + entry_slot(hd, bars, W->block_of[i - 1]);
                p++;
            }
            for (uint32_t j = 0; j < hd->nw; j++, p++) {
                const barrier *B = &bars[hd->w[j]];
                ni[p] = pseudo(WS_OP_BWAIT, B->line, B->col);
                ni[p].barrier = (uint16_t)B->reg;
                if (spilled && spilled[hd->w[j]]) bmov[p] = BMOV_BEFORE;
            }
            for (uint32_t j = 0; j < hd->nh; j++, p++) {
                const barrier *B = &bars[hd->h[j]];
                ni[p] = pseudo(WS_OP_BADD, B->line, B->col);
                ni[p].barrier = (uint16_t)B->reg;
                if (spilled && spilled[hd->h[j]]) bmov[p] = BMOV_AFTER;
            }
        }
        const ws_inst *in = &W->insts[i];
        if (bl->last == i) {
            if (bar_tail[u] != UINT32_MAX) {
                ni[p] = pseudo(WS_OP_BADD, in->line, in->col);
                ni[p].barrier = (uint16_t)bars[bar_tail[u]].reg;
                if (spilled && spilled[bar_tail[u]]) bmov[p] = BMOV_AFTER;
                p++;
            }
            if (yp[i]) { ni[p] = pseudo(WS_OP_YIELD, in->line, in->col); p++; }
        }
        ni[p] = *in;
        ni[p].barrier = 0;
        if (in->op == WS_OP_BRA || in->op == WS_OP_BRX) {
            /* remap: target block's head, entry slot by source block */
#define TARGET_POS(t) ({ uint32_t tb_ = W->block_of[t]; const ws_block *tbl_ = &W->blocks[tb_]; \
                         uint32_t f_ = tbl_->first; \
                         uint32_t tn_ = tbl_->last == f_ ? (bar_tail[tb_] != UINT32_MAX) + (yp[f_] != 0) : 0; \
                         uint32_t hs_ = base[f_] + npre[f_] - tn_ - heads[tb_].nw - heads[tb_].nh; \
                         hs_ + entry_slot(&heads[tb_], bars, u); })
            if (in->op == WS_OP_BRA) ni[p].target = TARGET_POS(in->target);
            else {
                ni[p].target = nnbrx;
                for (uint32_t j = 0; j < in->ntargets; j++) {
                    if (nnbrx >= capbrx) {   /* tables shared between brx: grow */
                        capbrx = 2 * capbrx + in->ntargets;
                        uint32_t *g = realloc(newbrx, capbrx * sizeof *g);
                        if (!g) { oom = 1; goto done; }
                        newbrx = g;
                    }
                    newbrx[nnbrx++] = TARGET_POS(W->brx_targets[in->target + j]);
                }
            }
#undef TARGET_POS
        }
        if (p != base[i] + npre[i]) { ws_fail(err, "%s: barrier pass: internal layout error", file); goto done; }
    }

    /* 6b. BMOV spill/fill around the spilled barriers' ADDs and WAITs */
    if (bmov && insert_bmovs(&ni, &nn, newbrx, nnbrx, bmov) < 0) { oom = 1; goto done; }

    /* 7. the new kernel */
    free(W->insts);
    W->insts = ni; ni = NULL;
    W->ninsts = nn;
    free(W->brx_targets);
    W->brx_targets = nnbrx ? newbrx : NULL;
    if (!nnbrx) free(newbrx);
    newbrx = NULL;
    W->nbrx_targets = nnbrx;
    if (ws_cfg_build(W, err)) goto done;
    out = W; W = NULL;

done:
    if (oom) ws_fail(err, "%s: out of memory in the barrier pass", file);
    for (uint32_t i = 0; i < nbars; i++) { free(bars[i].S); free(bars[i].region); }
    if (heads) for (uint32_t u = 0; u < nb; u++) { free(heads[u].w); free(heads[u].h); }
    free(heads); free(bars); free(bar_tail); free(divs); free(interf);
    free(c.pred); free(c.pstart); free(c.stack); free(tmp); free(tmp2);
    free(npre); free(base); free(newbrx); free(ni); free(yp); free(spilled); free(bmov);
    clone_free(W);
    return out;
}

/* ------------------------------------------------- BSYNC after a release -- */

/* May a WAIT move down past in (same block, nothing it must stay ahead of)? Not past an
 * .aligned warp instruction (mma, ldmatrix, stmatrix, movmatrix, the wmma parts): the ISA requires every
 * thread of the warp to execute it together, which only the WAIT before it guarantees -- the
 * threads that leave a spin loop first would otherwise run it as a partial warp. */
static int sink_passes(const ws_inst *in)
{
    switch (in->op) {
    case WS_OP_BRA: case WS_OP_BRX: case WS_OP_RET: case WS_OP_EXIT: case WS_OP_TRAP:
    case WS_OP_BADD: case WS_OP_BWAIT: case WS_OP_YIELD: case WS_OP_BMOV: case WS_OP_BAR: case WS_OP_BARRIER:
        return 0;
    default:
        return ws_warp_membermask(in) == NULL && !ws_warp_aligned(in) && in->guard == WS_NO_REG;
    }
}

static int is_mem_write(const ws_inst *in)
{
    return in->op == WS_OP_ST || in->op == WS_OP_ATOM || in->op == WS_OP_RED;
}

/* Instructions of the WAIT at w that move together: 1 (the WAIT), 2 (a
 * spilled barrier's BMOV fill, then its WAIT), 0 (no WAIT there). */
static uint32_t wait_group(const ws_kernel *k, uint32_t w)
{
    if (k->insts[w].op == WS_OP_BWAIT) return 1;
    if (k->insts[w].op == WS_OP_BMOV && k->insts[w].subop == 1 && w + 1 < k->ninsts &&
        k->insts[w + 1].op == WS_OP_BWAIT && k->block_of[w + 1] == k->block_of[w])
        return 2;
    return 0;
}

int ws_barrier_sink_release(ws_kernel *k, ws_error *err)
{
    int moved = 0;
    for (uint32_t y = 0; y + 2 < k->ninsts; y++) {
        const ws_inst *br = &k->insts[y + 1];
        if (k->insts[y].op != WS_OP_YIELD || !br->is_backedge || br->op != WS_OP_BRA || br->guard == WS_NO_REG)
            continue;
        uint32_t w = y + 2;                   /* the spin loop's exit: its WAIT at the head */
        uint32_t g = wait_group(k, w);        /* the WAIT, with its BMOV fill if spilled */
        if (!g) continue;
        uint32_t last = w + g - 1;
        for (uint32_t j = last + 1; j < k->ninsts && k->block_of[j] == k->block_of[w] && sink_passes(&k->insts[j]); j++)
            if (is_mem_write(&k->insts[j])) last = j;
        if (last == w + g - 1) continue;
        ws_inst wait[2] = {k->insts[w], k->insts[w + g - 1]};
        memmove(&k->insts[w], &k->insts[w + g], (last + 1 - w - g) * sizeof(ws_inst));
        memcpy(&k->insts[last + 1 - g], wait, g * sizeof(ws_inst));
        moved = 1;
    }
    return moved && ws_cfg_build(k, err) ? -1 : 0;
}
