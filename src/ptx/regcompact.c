/*
 * Register compaction: where each virtual PTX register is stored.
 *
 * nvcc writes every value into a fresh virtual register, so a large unrolled
 * kernel declares tens of thousands of them (a WMMA GEMM: 34,902, where ptxas
 * allocates 202). The executor's per-lane register file only has to hold the
 * values that are live at the same time, as the machine's does after ptxas's
 * register allocation. This pass gives every virtual register a storage slot
 * (k->reg_slot), so that two registers share a slot only when no lane can
 * ever need both values at once; the file then has k->nslots rows instead of
 * k->nregs.
 *
 * Only the storage changes: instructions, the scoreboard, the analyses and
 * every name printed keep the virtual register numbers, so timing and traces
 * are those of the uncompacted kernel and the values are identical:
 *
 *  - Liveness over the CFG (backward, to a fixed point) on the registers an
 *    instruction names: guard, sources (vector elements, address bases), its
 *    rd/wr lists, destinations. A guarded write does not end a live range.
 *  - Each register's interval is the smallest range of instruction indices
 *    holding every point where it is read, written or live after an
 *    instruction (a block's live-in and live-out sets extend it to the
 *    block's first and last instruction). Registers live into the first block
 *    (read before written on some path: the zero every register starts with)
 *    therefore start at 0. Registers whose intervals are disjoint are never
 *    live at the same point, so a write of one can never destroy a value of
 *    the other another lane or a later instruction still reads; the sources
 *    and destinations of one instruction never share (whatever order the
 *    executor reads and writes them in).
 *  - shfl reads its source register in lanes that do not execute it (a
 *    source lane outside the membermask, exec_warp.c): that register gets a
 *    slot of its own, so even a lane that is elsewhere in the program holds
 *    exactly the value the uncompacted file would.
 *  - Linear scan over the intervals (Poletto & Sarkar, "Linear Scan Register
 *    Allocation", TOPLAS 21(5), 1999) without spilling: intervals in order of
 *    start, each takes the lowest free slot; a slot is free again after its
 *    interval's end. O(I + R log R) after the liveness.
 *  - Two pools: the registers whose values can matter (ws_reg_relevance,
 *    src/ptx/relevance.c) and the others never share a row, so the state the
 *    livelock proof with changing memory hashes (deadlock.c: the rows of the
 *    registers that matter) never holds a value the proof may ignore.
 *
 * One storage class: the executor keeps every register, predicates
 * included, as 64 bits per lane (exec.h), and every write writes all 64.
 * Registers named by no instruction get slot 0 (never read or written).
 * Without memory for the liveness (bit sets of blocks x registers) every
 * register keeps a row of its own, as without compaction.
 */
#include <stdlib.h>
#include <string.h>
#include "warpsweep/ptx.h"
#include "warpsweep/passes.h"

typedef uint64_t word;
#define WBITS 64
/* registers one instruction names: its rd/wr lists and every operand's */
#define NVEC (sizeof ((ws_operand *)0)->vec / sizeof ((ws_operand *)0)->vec[0])
#define NRD (sizeof ((ws_inst *)0)->rd / sizeof ((ws_inst *)0)->rd[0])
#define NWR (sizeof ((ws_inst *)0)->wr / sizeof ((ws_inst *)0)->wr[0])
#define MAX_NAMED (NRD + NWR + (WS_MAX_SRC + WS_MAX_DST + 1) * (NVEC + 1))

static void set_bit(word *s, uint32_t r) { s[r / WBITS] |= (word)1 << (r % WBITS); }
static void clear_bit(word *s, uint32_t r) { s[r / WBITS] &= ~((word)1 << (r % WBITS)); }

typedef struct named {
    uint32_t use[MAX_NAMED], def[MAX_NAMED], kill[MAX_NAMED];
    unsigned nuse, ndef, nkill;
} named;

static void add(uint32_t *list, unsigned *n, uint32_t r, uint32_t nregs)
{
    if (r != WS_NO_REG && r < nregs && *n < MAX_NAMED) list[(*n)++] = r;
}

static void operand_regs(const ws_operand *o, uint32_t *list, unsigned *n, uint32_t nregs)
{
    if (o->kind == WS_OK_REG || o->kind == WS_OK_ADDR) add(list, n, o->reg, nregs);
    else if (o->kind == WS_OK_VEC)
        for (unsigned j = 0; j < o->nvec && j < NVEC; j++) add(list, n, o->vec[j], nregs);
}

/* The registers `in` reads (use), writes (def) and certainly overwrites in
 * every executing lane (kill: unguarded register destinations). An address
 * destination (st [a], v) only reads its base; rd/wr are added as they are. */
static void inst_regs(const ws_inst *in, uint32_t nregs, named *n)
{
    n->nuse = n->ndef = n->nkill = 0;
    add(n->use, &n->nuse, in->guard, nregs);
    for (unsigned s = 0; s < in->nsrc && s < WS_MAX_SRC; s++) operand_regs(&in->src[s], n->use, &n->nuse, nregs);
    for (unsigned i = 0; i < in->n_rd && i < NRD; i++) add(n->use, &n->nuse, in->rd[i], nregs);
    for (unsigned d = 0; d < in->ndst && d < WS_MAX_DST; d++) {
        const ws_operand *o = &in->dst[d];
        if (o->kind == WS_OK_ADDR) { add(n->use, &n->nuse, o->reg, nregs); continue; }
        operand_regs(o, n->def, &n->ndef, nregs);
        if (in->guard == WS_NO_REG) operand_regs(o, n->kill, &n->nkill, nregs);
    }
    for (unsigned i = 0; i < in->n_wr && i < NWR; i++) add(n->def, &n->ndef, in->wr[i], nregs);
}

/* Per block: gen (read before any kill in the block) and kill sets; then the
 * live-in sets to a fixed point, blocks visited last to first. */
typedef struct live {
    size_t nw;
    word *gen, *kill, *in, *out;   /* nblocks * nw each; out: one block's */
} live;

static void live_free(live *L) { free(L->gen); free(L->kill); free(L->in); free(L->out); }

static int live_build(const ws_kernel *k, live *L)
{
    const size_t nw = (k->nregs + WBITS - 1) / WBITS, nb = k->nblocks;
    L->nw = nw;
    const size_t all = nb * nw > 0 ? nb * nw : 1;
    L->gen = calloc(all, sizeof(word));
    L->kill = calloc(all, sizeof(word));
    L->in = calloc(all, sizeof(word));
    L->out = calloc(nw ? nw : 1, sizeof(word));
    if (!L->gen || !L->kill || !L->in || !L->out) return -1;
    named n;
    for (uint32_t b = 0; b < nb; b++) {
        word *g = &L->gen[b * nw], *kl = &L->kill[b * nw];
        for (uint32_t i = k->blocks[b].last + 1; i-- > k->blocks[b].first;) {
            inst_regs(&k->insts[i], k->nregs, &n);
            for (unsigned j = 0; j < n.nkill; j++) { set_bit(kl, n.kill[j]); clear_bit(g, n.kill[j]); }
            for (unsigned j = 0; j < n.nuse; j++) set_bit(g, n.use[j]);
        }
    }
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t b = (uint32_t)nb; b-- > 0;) {
            ws_live_out(k, L->in, nw, b, L->out);
            const word *g = &L->gen[b * nw], *kl = &L->kill[b * nw];
            word *cur = &L->in[b * nw];
            for (size_t w = 0; w < nw; w++) {
                word v = g[w] | (L->out[w] & ~kl[w]);
                if (v != cur[w]) { cur[w] = v; changed = 1; }
            }
        }
    }
    return 0;
}

static void extend(uint32_t *lo, uint32_t *hi, uint32_t r, uint32_t at)
{
    if (at < lo[r]) lo[r] = at;
    if (at > hi[r]) hi[r] = at;
}

static void extend_set(uint32_t *lo, uint32_t *hi, const word *s, size_t nw, uint32_t at)
{
    for (size_t w = 0; w < nw; w++)
        for (word m = s[w]; m; m &= m - 1) extend(lo, hi, (uint32_t)(w * WBITS + (unsigned)__builtin_ctzll(m)), at);
}

/* The intervals [lo, hi] (lo = UINT32_MAX: the register is never named). */
static int intervals(const ws_kernel *k, uint32_t *lo, uint32_t *hi)
{
    live L = {0};
    if (live_build(k, &L)) { live_free(&L); return -1; }
    for (uint32_t r = 0; r < k->nregs; r++) { lo[r] = UINT32_MAX; hi[r] = 0; }
    named n;
    for (uint32_t b = 0; b < k->nblocks; b++) {
        const ws_block *bl = &k->blocks[b];
        extend_set(lo, hi, &L.in[(size_t)b * L.nw], L.nw, bl->first);
        ws_live_out(k, L.in, L.nw, b, L.out);
        extend_set(lo, hi, L.out, L.nw, bl->last);
        for (uint32_t i = bl->first; i <= bl->last; i++) {
            inst_regs(&k->insts[i], k->nregs, &n);
            for (unsigned j = 0; j < n.nuse; j++) extend(lo, hi, n.use[j], i);
            for (unsigned j = 0; j < n.ndef; j++) extend(lo, hi, n.def[j], i);
        }
    }
    /* read in lanes that do not execute the shfl: a slot of its own */
    for (uint32_t i = 0; i < k->ninsts; i++) {
        const ws_inst *in = &k->insts[i];
        if (in->op == WS_OP_SHFL && in->nsrc > 0 && in->src[0].kind == WS_OK_REG && in->src[0].reg < k->nregs) {
            lo[in->src[0].reg] = 0;
            hi[in->src[0].reg] = k->ninsts;
        }
    }
    live_free(&L);
    return 0;
}

/* ---- min-heap of (key, value) pairs, for the active intervals (key = end)
 * and the free slots (key = slot) ---- */
typedef struct heap { uint64_t *a; uint32_t n; } heap;

static void heap_push(heap *h, uint64_t v)
{
    uint32_t i = h->n++;
    while (i > 0 && h->a[(i - 1) / 2] > v) { h->a[i] = h->a[(i - 1) / 2]; i = (i - 1) / 2; }
    h->a[i] = v;
}

static uint64_t heap_pop(heap *h)
{
    uint64_t top = h->a[0], v = h->a[--h->n];
    uint32_t i = 0;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= h->n) break;
        if (c + 1 < h->n && h->a[c + 1] < h->a[c]) c++;
        if (h->a[c] >= v) break;
        h->a[i] = h->a[c];
        i = c;
    }
    if (h->n) h->a[i] = v;
    return top;
}

/* Registers in order of interval start (ties: register number), by counting sort. */
static uint32_t *by_start(const ws_kernel *k, const uint32_t *lo, uint32_t *nnamed)
{
    const uint32_t npos = k->ninsts + 1;
    uint32_t *count = calloc((size_t)npos + 1, sizeof *count), *order = malloc((k->nregs ? k->nregs : 1) * sizeof *order);
    if (!count || !order) { free(count); free(order); return NULL; }
    uint32_t m = 0;
    for (uint32_t r = 0; r < k->nregs; r++)
        if (lo[r] != UINT32_MAX) { count[lo[r] + 1]++; m++; }
    for (uint32_t p = 0; p < npos; p++) count[p + 1] += count[p];
    for (uint32_t r = 0; r < k->nregs; r++)
        if (lo[r] != UINT32_MAX) order[count[lo[r]]++] = r;
    free(count);
    *nnamed = m;
    return order;
}

/* Linear scan over the registers of `order` whose relevance is `pool`, into rows
 * base, base + 1, ...; returns the rows used. */
static uint32_t scan_pool(const uint32_t *order, uint32_t m, const uint64_t *rel, int pool, const uint32_t *lo,
                          const uint32_t *hi, uint32_t base, uint32_t *slot, heap *active, heap *freed)
{
    uint32_t used = 0;
    active->n = freed->n = 0;
    for (uint32_t j = 0; j < m; j++) {
        uint32_t r = order[j];
        if ((int)(rel[r / 64] >> (r % 64) & 1) != pool) continue;
        /* strictly before: an interval ending where this one starts still holds its row */
        while (active->n && (uint32_t)(active->a[0] >> 32) < lo[r]) heap_push(freed, (uint32_t)heap_pop(active));
        uint32_t s = freed->n ? (uint32_t)heap_pop(freed) : used++;
        slot[r] = base + s;
        heap_push(active, (uint64_t)hi[r] << 32 | s);
    }
    return used;
}

/* The registers that matter (ws_reg_relevance) take the first rows, the others
 * the rows after them: a row never holds both kinds. */
static int assign_slots(const ws_kernel *k, const uint32_t *lo, const uint32_t *hi, uint32_t *slot, uint32_t *nslots)
{
    uint32_t m = 0;
    uint32_t *order = by_start(k, lo, &m);
    uint64_t *rel = calloc(((size_t)k->nregs + 63) / 64 + 1, sizeof *rel);
    heap active = { malloc(((size_t)m + 1) * sizeof(uint64_t)), 0 };
    heap freed = { malloc(((size_t)m + 1) * sizeof(uint64_t)), 0 };
    if (!order || !rel || !active.a || !freed.a) { free(order); free(rel); free(active.a); free(freed.a); return -1; }
    ws_reg_relevance(k, rel);
    for (uint32_t r = 0; r < k->nregs; r++) slot[r] = 0;
    uint32_t used = scan_pool(order, m, rel, 1, lo, hi, 0, slot, &active, &freed);
    used += scan_pool(order, m, rel, 0, lo, hi, used, slot, &active, &freed);
    *nslots = used ? used : 1;
    free(order); free(rel); free(active.a); free(freed.a);
    return 0;
}

int ws_reg_compact(ws_kernel *k)
{
    uint32_t nr = k->nregs;
    uint32_t *slot = malloc((nr ? nr : 1) * sizeof *slot);
    uint32_t *lo = malloc((nr ? nr : 1) * sizeof *lo), *hi = malloc((nr ? nr : 1) * sizeof *hi);
    int rc = -1;
    uint32_t ns = 1;
    if (slot && lo && hi && !intervals(k, lo, hi) && !assign_slots(k, lo, hi, slot, &ns)) rc = 0;
    free(lo);
    free(hi);
    if (!slot) return -1;
    if (rc) {   /* no memory for the liveness: every register its own row, as without compaction */
        for (uint32_t r = 0; r < nr; r++) slot[r] = r;
        ns = nr ? nr : 1;
    }
    if (!nr) slot[0] = 0;
    free(k->reg_slot);
    k->reg_slot = slot;
    k->nslots = ns;
    return 0;
}
