/*
 * Instruction order as ptxas schedules it: ws_list_schedule. The rules are
 * documented in include/warpsweep/passes.h, the model in docs/model.md
 * ("Instruction order").
 *
 * nvcc writes PTX in source order, each use right after its load; ptxas,
 * NVIDIA's (closed) assembler, schedules the machine code of every basic block,
 * hoisting independent loads and long-latency operations above independent
 * instructions, so an in-order SM overlaps their latencies. This pass does the
 * textbook version of that: list scheduling of each basic block over its
 * dependence DAG (Gibbons & Muchnick, "Efficient instruction scheduling for a
 * pipelined architecture", SIGPLAN '86 Symposium on Compiler Construction).
 *
 *   1. DAG: an edge p -> s (p earlier in the block) for every register
 *      dependence (RAW, WAR, WAW, guards and predicates included), the carry
 *      flag chain, and the memory order (a load stays after the last ordered
 *      memory operation before it and before the next one; ordered operations
 *      keep their relative order).
 *   2. Priority: the latency-weighted length of the longest path from the
 *      instruction to the end of the block.
 *   3. Issue, one instruction per step on a notional in-order pipeline: among
 *      the instructions whose DAG predecessors are placed, the one whose
 *      operands are ready with the highest priority; when none is ready, the
 *      one ready first. The register-pressure bound filters the candidates.
 */
#include <stdlib.h>
#include <string.h>
#include "warpsweep/ptx.h"
#include "warpsweep/passes.h"

/* Latencies the scheduler assumes (cycles). Heuristic constants of the pass,
 * not model parameters: they only choose an order, and the order is then timed
 * by the core with the configured latencies. Their magnitudes follow the
 * registry defaults (mem_latency 400, smem_latency 24, sfu_latency 20,
 * alu_latency 4). */
enum {
    LAT_GLOBAL = 400,  /* ld/ldu/atom from .global, .local, generic memory */
    LAT_SHARED = 24,   /* ld/atom on .shared */
    LAT_SFU = 20,      /* SFU unit: div, rem, rcp, sqrt, transcendentals */
    LAT_OTHER = 4,     /* everything else (ALU, .param/.const loads, stores) */
    LAT_ORDER = 1      /* an edge that only orders (WAR, memory order): next slot */
};

/* Blocks longer than this are scheduled as consecutive windows of this many
 * instructions (the DAG and the candidate scan are quadratic in the window;
 * fully unrolled or inlined kernels have blocks of 10^5 instructions). */
#define WINDOW 256

/* ------------------------------------------------ instruction classes -- */

static int is_terminator(const ws_inst *in)
{
    switch (in->op) {
    case WS_OP_BRA: case WS_OP_BRX: case WS_OP_EXIT: case WS_OP_RET: case WS_OP_TRAP:
        return 1;
    default:
        return 0;
    }
}

/* The convergence-barrier pass's pseudo-instructions: nothing moves across
 * them (the pass is meant to run before that one, see passes.h). Nor across
 * cp.async.wait_group / wait_all: the computation the programmer placed
 * before the wait is what overlaps the copies, and hoisting the wait above it
 * (it depends on no register) would serialise them. */
static int is_boundary(const ws_inst *in)
{
    return in->op == WS_OP_BADD || in->op == WS_OP_BWAIT || in->op == WS_OP_YIELD ||
           (in->op == WS_OP_CP_ASYNC && (in->subop == WS_CPA_WAIT || in->subop == WS_CPA_WAIT_ALL));
}

static int reads_clock(const ws_inst *in)
{
    for (unsigned j = 0; j < in->nsrc && j < WS_MAX_SRC; j++)
        if (in->src[j].kind == WS_OK_SREG &&
            (in->src[j].sreg == WS_SR_CLOCK || in->src[j].sreg == WS_SR_CLOCK64 || in->src[j].sreg >= WS_SR_GLOBALTIMER))
            return 1;
    return 0;
}

typedef enum { MEM_NONE, MEM_LOAD, MEM_ORDERED } memkind;

/* Loads may pass each other; everything that writes memory, orders it, or
 * observes other threads or time is ORDERED: loads never cross it and such
 * operations keep their order among themselves. */
static memkind mem_kind(const ws_inst *in)
{
    switch (in->op) {
    case WS_OP_LD: case WS_OP_LDU:
        return in->mods & (WS_MOD_VOLATILE | WS_MOD_RELAXED | WS_MOD_ACQUIRE | WS_MOD_RELEASE) ? MEM_ORDERED
                                                                                              : MEM_LOAD;
    case WS_OP_PREFETCH: case WS_OP_LDMATRIX: case WS_OP_WMMA_LOAD:
    case WS_OP_TEX: case WS_OP_TLD4: case WS_OP_SULD:
        return MEM_LOAD;
    case WS_OP_SUST:
        return MEM_ORDERED;
    case WS_OP_ST: case WS_OP_WMMA_STORE: case WS_OP_STMATRIX: case WS_OP_ATOM: case WS_OP_RED: case WS_OP_MEMBAR: case WS_OP_FENCE:
    case WS_OP_BAR: case WS_OP_BARRIER: case WS_OP_BAR_WARP: case WS_OP_SHFL: case WS_OP_VOTE:
    case WS_OP_MATCH: case WS_OP_REDUX: case WS_OP_ACTIVEMASK: case WS_OP_NANOSLEEP: case WS_OP_CP_ASYNC:
    case WS_OP_ELECT: case WS_OP_GRIDDEP: case WS_OP_MBARRIER:
        return MEM_ORDERED;
    default:
        return reads_clock(in) ? MEM_ORDERED : MEM_NONE;
    }
}

/* add.cc / sub.cc / mad.cc write the carry flag, addc / subc / madc read it */
static int uses_carry(const ws_inst *in)
{
    return (in->mods & WS_MOD_CC) || in->op == WS_OP_ADDC || in->op == WS_OP_SUBC || in->op == WS_OP_MADC;
}

static uint32_t latency(const ws_inst *in)
{
    if (in->op == WS_OP_LD || in->op == WS_OP_LDU || in->op == WS_OP_ATOM) {
        switch (in->space) {
        case WS_SP_SHARED: return LAT_SHARED;
        case WS_SP_PARAM: case WS_SP_CONST: return LAT_OTHER;
        default: return LAT_GLOBAL;
        }
    }
    return in->unit == WS_UNIT_SFU ? LAT_SFU : LAT_OTHER;
}

/* ------------------------------------------------------------ context -- */

typedef struct edge {
    uint16_t from, to;
    uint32_t lat;
} edge;

typedef struct reader {    /* readers of a register since its last write */
    uint16_t inst;
    int32_t next;
} reader;

typedef struct sched {
    const ws_kernel *k;
    unsigned budget;
    /* per register, for the whole kernel (reset after each window/block) */
    int32_t *writer;       /* last writer in the window, or -1 */
    int32_t *rhead;        /* readers list head, or -1 */
    uint32_t *uses_left;   /* unplaced readers in the block */
    uint32_t *defs_left;   /* unplaced unguarded writers in the block */
    uint64_t *live, *liveout;   /* bit sets of nregs bits */
    uint64_t *one, *two;   /* registers of 1 slot or more / of 2 slots */
    int weight;            /* slots in live */
    /* per window */
    edge *edges;
    size_t nedges, capedges;
    reader *readers;
    uint32_t nreaders;
    uint32_t *loads;       /* loads since the last ordered memory operation */
    uint32_t prio[WINDOW], ready[WINDOW], npred[WINDOW], first_succ[WINDOW + 1];
    uint32_t *succ;        /* CSR: successor edge indices by source */
    uint32_t cand[WINDOW], ncand;
} sched;

static int getbit(const uint64_t *s, uint32_t r) { return (int)(s[r >> 6] >> (r & 63) & 1); }
static void putbit(uint64_t *s, uint32_t r, int v)
{
    if (v) s[r >> 6] |= (uint64_t)1 << (r & 63);
    else s[r >> 6] &= ~((uint64_t)1 << (r & 63));
}

/* 32-bit register slots of r, as ws_reg_pressure counts them */
static int slots(const ws_kernel *k, uint32_t r)
{
    if (!k->reg_types) return 1;
    int b = ws_type_bits((ws_type)k->reg_types[r]);
    return b <= 1 ? 0 : b <= 32 ? 1 : 2;
}

static int valid_reg(const sched *s, uint32_t r)
{
    return r != WS_NO_REG && r < s->k->nregs;
}

static int add_edge(sched *s, uint32_t from, uint32_t to, uint32_t lat)
{
    if (s->nedges == s->capedges) {
        size_t cap = s->capedges ? 2 * s->capedges : 1024;
        edge *e = realloc(s->edges, cap * sizeof *e);
        if (!e) return -1;
        s->edges = e;
        s->capedges = cap;
    }
    s->edges[s->nedges++] = (edge){ (uint16_t)from, (uint16_t)to, lat };
    return 0;
}

/* --------------------------------------------------------------- DAG -- */

static int writes_reg(const ws_inst *in, uint32_t r)
{
    for (unsigned j = 0; j < in->n_wr && j < WS_MAX_WR; j++)
        if (in->wr[j] == r) return 1;
    return 0;
}

static int reads_reg(const ws_inst *in, uint32_t r)
{
    for (unsigned j = 0; j < in->n_rd && j < 16; j++)
        if (in->rd[j] == r) return 1;
    return 0;
}

/* Edges into window instruction x (kernel index f + x) from the ones before
 * it; updates the per-register state. Returns -1 on allocation failure. */
static int depend(sched *s, const ws_inst *w, uint32_t x, int32_t *last_ordered, int32_t *last_carry,
                  uint32_t *nloads)
{
    const ws_inst *in = &w[x];
    for (unsigned j = 0; j < in->n_rd && j < 16; j++) {       /* RAW */
        uint32_t r = in->rd[j];
        if (!valid_reg(s, r)) continue;
        if (s->writer[r] >= 0 && add_edge(s, (uint32_t)s->writer[r], x, latency(&w[s->writer[r]]))) return -1;
    }
    for (unsigned j = 0; j < in->n_wr && j < WS_MAX_WR; j++) {        /* WAW, WAR */
        uint32_t r = in->wr[j];
        if (!valid_reg(s, r)) continue;
        if (s->writer[r] >= 0 && add_edge(s, (uint32_t)s->writer[r], x, latency(&w[s->writer[r]]))) return -1;
        for (int32_t q = s->rhead[r]; q >= 0; q = s->readers[q].next)
            if (s->readers[q].inst != x && add_edge(s, s->readers[q].inst, x, LAT_ORDER)) return -1;
    }
    for (unsigned j = 0; j < in->n_wr && j < WS_MAX_WR; j++)
        if (valid_reg(s, in->wr[j])) { s->writer[in->wr[j]] = (int32_t)x; s->rhead[in->wr[j]] = -1; }
    for (unsigned j = 0; j < in->n_rd && j < 16; j++) {
        uint32_t r = in->rd[j];
        if (!valid_reg(s, r) || writes_reg(in, r)) continue;  /* its own write starts a new list */
        s->readers[s->nreaders] = (reader){ (uint16_t)x, s->rhead[r] };
        s->rhead[r] = (int32_t)s->nreaders++;
    }
    if (uses_carry(in)) {                                     /* the carry chain keeps its order */
        if (*last_carry >= 0 && add_edge(s, (uint32_t)*last_carry, x, latency(&w[*last_carry]))) return -1;
        *last_carry = (int32_t)x;
    }
    switch (mem_kind(in)) {
    case MEM_LOAD:
        if (*last_ordered >= 0 && add_edge(s, (uint32_t)*last_ordered, x, LAT_ORDER)) return -1;
        s->loads[(*nloads)++] = x;
        break;
    case MEM_ORDERED:
        if (*last_ordered >= 0 && add_edge(s, (uint32_t)*last_ordered, x, LAT_ORDER)) return -1;
        for (uint32_t j = 0; j < *nloads; j++)
            if (add_edge(s, s->loads[j], x, LAT_ORDER)) return -1;
        *nloads = 0;
        *last_ordered = (int32_t)x;
        break;
    case MEM_NONE:
        break;
    }
    return 0;
}

/* The DAG of w[0 .. n-1] in CSR form (s->succ, first_succ), npred and the
 * priorities (longest latency-weighted path to the window's end). */
static int build_dag(sched *s, const ws_inst *w, uint32_t n)
{
    s->nedges = 0;
    s->nreaders = 0;
    int32_t last_ordered = -1, last_carry = -1;
    uint32_t nloads = 0;
    for (uint32_t x = 0; x < n; x++)
        if (depend(s, w, x, &last_ordered, &last_carry, &nloads)) return -1;
    /* reset the per-register state the window touched */
    for (uint32_t x = 0; x < n; x++) {
        for (unsigned j = 0; j < w[x].n_rd && j < 16; j++)
            if (valid_reg(s, w[x].rd[j])) { s->writer[w[x].rd[j]] = -1; s->rhead[w[x].rd[j]] = -1; }
        for (unsigned j = 0; j < w[x].n_wr && j < WS_MAX_WR; j++)
            if (valid_reg(s, w[x].wr[j])) { s->writer[w[x].wr[j]] = -1; s->rhead[w[x].wr[j]] = -1; }
    }
    uint32_t *succ = realloc(s->succ, (s->nedges ? s->nedges : 1) * sizeof *succ);
    if (!succ) return -1;
    s->succ = succ;
    memset(s->first_succ, 0, sizeof s->first_succ);
    memset(s->npred, 0, n * sizeof *s->npred);
    for (size_t e = 0; e < s->nedges; e++) { s->first_succ[s->edges[e].from + 1]++; s->npred[s->edges[e].to]++; }
    for (uint32_t x = 0; x < n; x++) s->first_succ[x + 1] += s->first_succ[x];
    uint32_t fill[WINDOW];
    memcpy(fill, s->first_succ, n * sizeof *fill);
    for (size_t e = 0; e < s->nedges; e++) succ[fill[s->edges[e].from]++] = (uint32_t)e;
    for (uint32_t x = n; x-- > 0;) {       /* edges run forward: successors are done */
        uint32_t p = latency(&w[x]);
        for (uint32_t q = s->first_succ[x]; q < s->first_succ[x + 1]; q++) {
            const edge *e = &s->edges[succ[q]];
            if (e->lat + s->prio[e->to] > p) p = e->lat + s->prio[e->to];
        }
        s->prio[x] = p;
    }
    return 0;
}

/* ---------------------------------------------------- register pressure -- */
/* The live set is kept at the current point of the new order: a register is
 * live from its definition (or the block's entry) while an unplaced
 * instruction of the block reads it, or to the block's end when it is live out
 * and no unplaced instruction redefines it. */

static int live_after(const sched *s, const ws_inst *in, uint32_t r)
{
    uint32_t uses = s->uses_left[r] - (uint32_t)reads_reg(in, r);
    uint32_t defs = s->defs_left[r] - (uint32_t)(in->guard == WS_NO_REG && writes_reg(in, r));
    return uses > 0 || (getbit(s->liveout, r) && defs == 0);
}

/* Change in live slots if `in` were placed next (apply: place it). */
static int pressure_step(sched *s, const ws_inst *in, int apply)
{
    int d = 0;
    for (int pass = 0; pass < 2; pass++) {
        unsigned n = pass ? in->n_wr : in->n_rd;
        for (unsigned j = 0; j < n && j < (pass ? 5u : 12u); j++) {
            uint32_t r = pass ? in->wr[j] : in->rd[j];
            if (!valid_reg(s, r) || (!pass && writes_reg(in, r))) continue;   /* once per register */
            int was = getbit(s->live, r);
            int now = live_after(s, in, r) && (pass || was);   /* a read alone never makes a value live */
            d += (now - was) * slots(s->k, r);
            if (apply) putbit(s->live, r, now);
        }
    }
    if (apply) {
        for (unsigned j = 0; j < in->n_rd && j < 16; j++)
            if (valid_reg(s, in->rd[j])) s->uses_left[in->rd[j]]--;
        if (in->guard == WS_NO_REG)
            for (unsigned j = 0; j < in->n_wr && j < WS_MAX_WR; j++)
                if (valid_reg(s, in->wr[j])) s->defs_left[in->wr[j]]--;
        s->weight += d;
    }
    return d;
}

/* ----------------------------------------------------------- schedule -- */

/* Is a better than b as the next instruction at cycle now? */
static int better(const sched *s, uint32_t a, uint32_t b, uint32_t now)
{
    int ra = s->ready[a] <= now, rb = s->ready[b] <= now;
    if (ra != rb) return ra;
    if (!ra && s->ready[a] != s->ready[b]) return s->ready[a] < s->ready[b];
    if (s->prio[a] != s->prio[b]) return s->prio[a] > s->prio[b];
    return a < b;
}

static int over_budget(sched *s, const ws_inst *in)
{
    int d = pressure_step(s, in, 0);
    return d > 0 && s->weight + d > (int)s->budget;
}

/* Picks the next instruction among the candidates (see passes.h for the
 * register-pressure rule) and removes it from the list. The pressure is only
 * looked at when the best candidate breaks the budget, and then only for the
 * candidates that would beat the best one found within it. */
static uint32_t pick(sched *s, const ws_inst *w, uint32_t now)
{
    uint32_t best = s->cand[0], bi = 0;
    for (uint32_t c = 1; c < s->ncand; c++)
        if (better(s, s->cand[c], best, now)) { best = s->cand[c]; bi = c; }
    if (s->budget && over_budget(s, &w[best])) {
        uint32_t fit = UINT32_MAX, fi = 0;
        for (uint32_t c = 0; c < s->ncand; c++) {
            uint32_t x = s->cand[c];
            if (x == best || (fit != UINT32_MAX && !better(s, x, fit, now)) || over_budget(s, &w[x])) continue;
            fit = x;
            fi = c;
        }
        if (fit != UINT32_MAX) { best = fit; bi = fi; }   /* else every candidate breaks it: ignore it */
    }
    s->cand[bi] = s->cand[--s->ncand];
    return best;
}

/* List-schedules w[0 .. n-1] (a part of a block) into out[0 .. n-1]. */
static int schedule_window(sched *s, const ws_inst *w, uint32_t n, ws_inst *out)
{
    if (build_dag(s, w, n)) return -1;
    s->ncand = 0;
    for (uint32_t x = 0; x < n; x++) {
        s->ready[x] = 0;
        if (!s->npred[x]) s->cand[s->ncand++] = x;
    }
    uint32_t now = 0;
    for (uint32_t placed = 0; placed < n; placed++) {
        if (!s->ncand) return -1;   /* cannot happen: every edge runs forward in the PTX order */
        uint32_t x = pick(s, w, now);
        if (s->ready[x] > now) now = s->ready[x];
        pressure_step(s, &w[x], 1);
        out[placed] = w[x];
        for (uint32_t q = s->first_succ[x]; q < s->first_succ[x + 1]; q++) {
            const edge *e = &s->edges[s->succ[q]];
            if (now + e->lat > s->ready[e->to]) s->ready[e->to] = now + e->lat;
            if (--s->npred[e->to] == 0) s->cand[s->ncand++] = e->to;
        }
        now++;
    }
    return 0;
}

/* Schedules block b of k into ni (same index range). */
static int schedule_block(sched *s, const uint64_t *live_in, size_t nw, uint32_t b, ws_inst *ni)
{
    const ws_kernel *k = s->k;
    const ws_block *bl = &k->blocks[b];
    uint32_t end = bl->last + 1;
    if (is_terminator(&k->insts[bl->last])) {   /* stays last */
        ni[bl->last] = k->insts[bl->last];
        end = bl->last;
    }
    if (nw) {
        memcpy(s->live, &live_in[(size_t)b * nw], nw * sizeof *s->live);
        ws_live_out(k, live_in, nw, b, s->liveout);
    }
    s->weight = 0;
    for (size_t j = 0; j < nw; j++)
        s->weight += __builtin_popcountll(s->live[j] & s->one[j]) + __builtin_popcountll(s->live[j] & s->two[j]);
    for (uint32_t i = bl->first; i <= bl->last; i++) {   /* the terminator's reads are uses too */
        const ws_inst *in = &k->insts[i];
        for (unsigned j = 0; j < in->n_rd && j < 16; j++)
            if (valid_reg(s, in->rd[j])) s->uses_left[in->rd[j]]++;
        if (in->guard == WS_NO_REG)
            for (unsigned j = 0; j < in->n_wr && j < WS_MAX_WR; j++)
                if (valid_reg(s, in->wr[j])) s->defs_left[in->wr[j]]++;
    }
    for (uint32_t i = bl->first; i < end;) {
        if (is_boundary(&k->insts[i])) {        /* stays where it is */
            pressure_step(s, &k->insts[i], 1);
            ni[i] = k->insts[i];
            i++;
            continue;
        }
        uint32_t n = 0;
        while (i + n < end && n < WINDOW && !is_boundary(&k->insts[i + n])) n++;
        if (schedule_window(s, &k->insts[i], n, &ni[i])) return -1;
        i += n;
    }
    if (end == bl->last) pressure_step(s, &k->insts[bl->last], 1);   /* counters back to zero */
    return 0;
}

static void sched_free(sched *s)
{
    free(s->writer); free(s->rhead); free(s->uses_left); free(s->defs_left);
    free(s->live); free(s->liveout); free(s->one); free(s->two); free(s->edges); free(s->readers); free(s->loads); free(s->succ);
}

ws_kernel *ws_list_schedule(const ws_kernel *k, unsigned reg_budget, ws_error *err)
{
    const char *file = k->path ? k->path : (k->name ? k->name : "<kernel>");
    ws_kernel *W = ws_kernel_clone(k);
    if (!W) { ws_fail(err, "%s: out of memory", file); return NULL; }
    if (ws_cfg_build(W, err)) { ws_kernel_free(W); return NULL; }
    const uint32_t nr = W->nregs ? W->nregs : 1;
    size_t nw = 0;
    uint64_t *live_in = W->nregs ? ws_live_in(W, &nw) : NULL;
    ws_inst *ni = malloc((W->ninsts ? W->ninsts : 1) * sizeof *ni);
    sched s;
    memset(&s, 0, sizeof s);
    s.k = W;
    s.budget = reg_budget;
    s.writer = malloc(nr * sizeof *s.writer);
    s.rhead = malloc(nr * sizeof *s.rhead);
    s.uses_left = calloc(nr, sizeof *s.uses_left);
    s.defs_left = calloc(nr, sizeof *s.defs_left);
    s.live = calloc(nw ? nw : 1, sizeof *s.live);
    s.liveout = calloc(nw ? nw : 1, sizeof *s.liveout);
    s.one = calloc(nw ? nw : 1, sizeof *s.one);
    s.two = calloc(nw ? nw : 1, sizeof *s.two);
    s.readers = malloc(WINDOW * 12 * sizeof *s.readers);
    s.loads = malloc(WINDOW * sizeof *s.loads);
    int oom = !ni || !s.writer || !s.rhead || !s.uses_left || !s.defs_left || !s.live || !s.liveout || !s.one || !s.two ||
              !s.readers || !s.loads || (W->nregs && !live_in);
    if (!oom) {
        for (uint32_t r = 0; r < nr; r++) s.writer[r] = s.rhead[r] = -1;
        for (uint32_t r = 0; r < W->nregs; r++) {
            putbit(s.one, r, slots(W, r) >= 1);
            putbit(s.two, r, slots(W, r) >= 2);
        }
        for (uint32_t b = 0; b < W->nblocks && !oom; b++) oom = schedule_block(&s, live_in, nw, b, ni) != 0;
    }
    sched_free(&s);
    free(live_in);
    if (oom) {
        free(ni);
        ws_kernel_free(W);
        ws_fail(err, "%s: out of memory in the scheduling pass", file);
        return NULL;
    }
    free(W->insts);
    W->insts = ni;
    /* Same blocks, same first and last instruction of each: targets, brx
     * tables and reconvergence points keep their indices; rebuilt anyway so
     * every derived field is computed from the new order. */
    if (ws_cfg_build(W, err)) { ws_kernel_free(W); return NULL; }
    return W;
}
