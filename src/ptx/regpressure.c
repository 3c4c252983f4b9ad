/*
 * Register pressure: an estimate of regs_per_thread for workloads that do not
 * give one (ptxas -v is the real answer).  PTX registers are virtual and
 * nvcc writes every value into a fresh one, so counting declarations (what the
 * decoder does) overestimates several-fold.  Here: the largest number of
 * 32-bit register slots simultaneously live at any instruction (64-bit values
 * take two, predicates none), by the usual backward liveness analysis over the
 * CFG.  A guarded write does not end a live range (the old value may survive).
 * ptxas may still use a few more (address arithmetic, its own temporaries) or
 * fewer (rematerialisation); this is a lower-bound-style estimate.
 */
#include <stdlib.h>
#include <string.h>
#include "warpsweep/ptx.h"
#include "warpsweep/passes.h"

typedef uint64_t word;
#define WBITS 64

static int reg_weight(const ws_kernel *k, uint32_t r)
{
    int b = ws_type_bits((ws_type)k->reg_types[r]);
    return b <= 1 ? 0 : b <= 32 ? 1 : 2;
}

static void set_bit(word *s, uint32_t r) { s[r / WBITS] |= (word)1 << (r % WBITS); }
static void clear_bit(word *s, uint32_t r) { s[r / WBITS] &= ~((word)1 << (r % WBITS)); }
static int get_bit(const word *s, uint32_t r) { return (int)(s[r / WBITS] >> (r % WBITS) & 1); }

/* live <- live minus what `in` defines (unguarded), plus what it reads */
static void step_back(const ws_inst *in, word *live)
{
    if (in->guard == WS_NO_REG)
        for (uint32_t i = 0; i < in->n_wr; i++) clear_bit(live, in->wr[i]);
    for (uint32_t i = 0; i < in->n_rd; i++) set_bit(live, in->rd[i]);
}

/* Slots a live set occupies: every register in `one` counts 1, those also in
 * `two` (64-bit) 1 more; predicates are in neither. A word at a time. */
static int live_weight(size_t nw, const word *live, const word *one, const word *two)
{
    int w = 0;
    for (size_t i = 0; i < nw; i++)
        w += __builtin_popcountll(live[i] & one[i]) + __builtin_popcountll(live[i] & two[i]);
    return w;
}

/* Makes r live (or dead) in s; returns the change in weight. */
static int make_live(const ws_kernel *k, word *s, uint32_t r)
{
    if (get_bit(s, r)) return 0;
    set_bit(s, r);
    return reg_weight(k, r);
}

static int make_dead(const ws_kernel *k, word *s, uint32_t r)
{
    if (!get_bit(s, r)) return 0;
    clear_bit(s, r);
    return -reg_weight(k, r);
}

uint64_t *ws_live_in(const ws_kernel *k, size_t *nwords)
{
    size_t nw = (k->nregs + WBITS - 1) / WBITS;
    *nwords = nw;
    word *in = calloc((size_t)(k->nblocks ? k->nblocks : 1) * (nw ? nw : 1), sizeof(word));
    word *tmp = calloc(nw ? nw : 1, sizeof(word));
    if (!in || !tmp) {
        free(in);
        free(tmp);
        return NULL;
    }
    /* live-in sets to a fixed point, blocks visited last to first */
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t b = k->nblocks; b-- > 0;) {
            const ws_block *bl = &k->blocks[b];
            ws_live_out(k, in, nw, b, tmp);
            for (uint32_t i = bl->last + 1; i-- > bl->first;) step_back(&k->insts[i], tmp);
            word *cur = &in[(size_t)b * nw];
            if (memcmp(cur, tmp, nw * sizeof(word))) {
                memcpy(cur, tmp, nw * sizeof(word));
                changed = 1;
            }
        }
    }
    free(tmp);
    return in;
}

void ws_live_out(const ws_kernel *k, const uint64_t *live_in, size_t nw, uint32_t b, uint64_t *out)
{
    const ws_block *bl = &k->blocks[b];
    memset(out, 0, nw * sizeof(word));
    for (uint32_t s = 0; s < bl->nsucc; s++)
        if (bl->succ[s] != WS_PC_EXIT)
            for (size_t i = 0; i < nw; i++) out[i] |= live_in[(size_t)bl->succ[s] * nw + i];
}

uint32_t ws_reg_pressure(const ws_kernel *k)
{
    if (!k->nblocks || !k->nregs) return 1;
    size_t nw;
    word *in = ws_live_in(k, &nw);
    word *tmp = calloc(nw, sizeof(word));
    word *one = calloc(nw, sizeof(word)), *two = calloc(nw, sizeof(word));
    if (!in || !tmp || !one || !two) {
        free(in);
        free(tmp);
        free(one);
        free(two);
        return k->est_regs_per_thread;
    }
    for (uint32_t r = 0; r < k->nregs; r++) {
        int w = reg_weight(k, r);
        if (w >= 1) set_bit(one, r);
        if (w >= 2) set_bit(two, r);
    }
    /* the largest live set at any instruction boundary */
    int best = 0;
    for (uint32_t b = 0; b < k->nblocks; b++) {
        const ws_block *bl = &k->blocks[b];
        ws_live_out(k, in, nw, b, tmp);
        int w = live_weight(nw, tmp, one, two);   /* then kept up to date per register */
        for (uint32_t i = bl->last + 1; i-- > bl->first;) {
            /* after the instruction: what is live out, plus its own results
             * (a result nobody reads still needs a register); a source that
             * dies here can share its register with the result */
            const ws_inst *x = &k->insts[i];
            for (uint32_t j = 0; j < x->n_wr; j++) w += make_live(k, tmp, x->wr[j]);
            if (w > best) best = w;
            /* the same as step_back(), keeping the weight */
            if (x->guard == WS_NO_REG)
                for (uint32_t j = 0; j < x->n_wr; j++) w += make_dead(k, tmp, x->wr[j]);
            for (uint32_t j = 0; j < x->n_rd; j++) w += make_live(k, tmp, x->rd[j]);
        }
        if (w > best) best = w;   /* live into the block */
    }
    free(in);
    free(tmp);
    free(one);
    free(two);
    if (best < 1) best = 1;
    if (best > 255) best = 255;
    return (uint32_t)best;
}
