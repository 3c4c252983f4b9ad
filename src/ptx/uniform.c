/*
 * Uniformity (divergence) analysis: which branches take the same direction for
 * every active thread of a warp. See passes.h for the rules.
 *
 * A forward data-flow over registers (no SSA: a register is varying if ANY of
 * its definitions is), plus control (sync) dependence: every definition inside
 * the region of a varying branch (the blocks reachable from it before its
 * immediate post-dominator) is varying, since only some lanes executed it.
 * The varying set only grows, so iterating to a fixed point terminates.
 */
#include <stdlib.h>
#include <string.h>
#include "warpsweep/ptx.h"
#include "warpsweep/passes.h"

static int sreg_varying(unsigned s)
{
    switch (s) {
    case WS_SR_NTID_X: case WS_SR_NTID_Y: case WS_SR_NTID_Z:
    case WS_SR_CTAID_X: case WS_SR_CTAID_Y: case WS_SR_CTAID_Z:
    case WS_SR_NCTAID_X: case WS_SR_NCTAID_Y: case WS_SR_NCTAID_Z:
    case WS_SR_NWARPID: case WS_SR_NSMID: case WS_SR_GRIDID: case WS_SR_WARP_SZ:
        return 0;
    default:   /* tid, laneid, warpid, smid, clock, clock64, lanemask_* */
        return 1;
    }
}

/* The result of this instruction differs across lanes whatever its inputs. */
static int inherently_varying(const ws_inst *in)
{
    switch (in->op) {
    case WS_OP_LD:
        return !(in->space == WS_SP_PARAM || in->space == WS_SP_CONST);
    case WS_OP_LDU: case WS_OP_ATOM: case WS_OP_SHFL: case WS_OP_VOTE:
    case WS_OP_MATCH: case WS_OP_ACTIVEMASK: case WS_OP_BAR: case WS_OP_BARRIER: case WS_OP_MMA:
    case WS_OP_LDMATRIX: case WS_OP_MOVMATRIX: case WS_OP_ELECT: case WS_OP_MBARRIER: case WS_OP_WMMA_LOAD:
    case WS_OP_TEX: case WS_OP_TLD4: case WS_OP_SULD:
        return 1;
    default:
        return 0;
    }
}

static int reads_carry(const ws_inst *in)
{
    return in->op == WS_OP_ADDC || in->op == WS_OP_SUBC || in->op == WS_OP_MADC;
}

static int reg_var(const uint8_t *var, uint32_t nregs, uint32_t r)
{
    return r != WS_NO_REG && r < nregs && var[r];
}

/* Does the instruction read a varying register or special register? */
static int reads_varying(const ws_kernel *k, const ws_inst *in, const uint8_t *var)
{
    uint32_t nr = k->nregs;
    if (reg_var(var, nr, in->guard)) return 1;
    for (unsigned j = 0; j < in->n_rd && j < 16; j++)
        if (reg_var(var, nr, in->rd[j])) return 1;
    for (unsigned j = 0; j < in->nsrc && j < WS_MAX_SRC; j++) {
        const ws_operand *o = &in->src[j];
        switch (o->kind) {
        case WS_OK_REG: case WS_OK_ADDR:
            if (reg_var(var, nr, o->reg)) return 1;
            break;
        case WS_OK_SREG:
            if (sreg_varying(o->sreg)) return 1;
            break;
        case WS_OK_VEC:
            for (unsigned v = 0; v < o->nvec && v < 8; v++)
                if (reg_var(var, nr, o->vec[v])) return 1;
            break;
        default:
            break;
        }
    }
    /* st/atom address operands may sit in dst[] in some decoders: addresses
     * are reads, but those instructions write no register anyway. */
    return 0;
}

/* Marks every register the instruction writes; returns 1 if something changed. */
static int mark_writes(const ws_kernel *k, const ws_inst *in, uint8_t *var)
{
    int ch = 0;
    uint32_t nr = k->nregs;
#define MARK(r) do { uint32_t r_ = (r); if (r_ != WS_NO_REG && r_ < nr && !var[r_]) { var[r_] = 1; ch = 1; } } while (0)
    for (unsigned j = 0; j < in->n_wr && j < WS_MAX_WR; j++) MARK(in->wr[j]);
    if (in->op != WS_OP_ST && in->op != WS_OP_RED)
        for (unsigned j = 0; j < in->ndst && j < WS_MAX_DST; j++) {
            const ws_operand *o = &in->dst[j];
            if (o->kind == WS_OK_REG) MARK(o->reg);
            else if (o->kind == WS_OK_VEC)
                for (unsigned v = 0; v < o->nvec && v < 8; v++) MARK(o->vec[v]);
        }
#undef MARK
    return ch;
}

/* Uniform by the registers alone: no guard, or a guard (brx: any operand)
 * the analysis did not find varying. honour_uni: PTX's .uni, the
 * programmer's word that the branch is the same for the warp's threads,
 * counts too (warp-level uniformity; not a proof for a whole CTA). */
static int branch_uniform(const ws_kernel *k, const ws_inst *in, const uint8_t *var, int honour_uni)
{
    if (honour_uni && (in->mods & WS_MOD_UNI)) return 1;
    if (in->op == WS_OP_BRA) return in->guard == WS_NO_REG || !reg_var(var, k->nregs, in->guard);
    if (in->op == WS_OP_BRX) return !reads_varying(k, in, var);
    return 0;
}

/* The varying registers (var) of k to a fixed point, with the regions of the
 * branches that are not uniform (branch_uniform with honour_uni) control-
 * dependent. The scratch arrays are nb long (var: nregs); all are cleared. */
static void analyse(const ws_kernel *k, int honour_uni, uint8_t *var, uint8_t *cdep, uint8_t *done, uint32_t *stack,
                    uint8_t *seen)
{
    uint32_t n = k->ninsts, nb = k->nblocks;
    memset(var, 0, k->nregs ? k->nregs : 1);
    memset(cdep, 0, nb);
    memset(done, 0, nb);
    int carry_var = 0;
    int changed = 1;
    while (changed) {
        changed = 0;
        for (uint32_t i = 0; i < n; i++) {
            const ws_inst *in = &k->insts[i];
            int v = cdep[k->block_of[i]] || inherently_varying(in) || reads_varying(k, in, var) ||
                    (reads_carry(in) && carry_var);
            if (v) {
                if (mark_writes(k, in, var)) changed = 1;
                if ((in->mods & WS_MOD_CC) && !carry_var) { carry_var = 1; changed = 1; }
            }
        }
        /* control dependence: regions of varying branches */
        for (uint32_t b = 0; b < nb; b++) {
            const ws_block *bl = &k->blocks[b];
            const ws_inst *in = &k->insts[bl->last];
            if (done[b] || (in->op != WS_OP_BRA && in->op != WS_OP_BRX)) continue;
            if (branch_uniform(k, in, var, honour_uni)) continue;
            done[b] = 1;
            memset(seen, 0, nb);
            uint32_t sp = 0, p = bl->ipdom;
            for (uint32_t j = 0; j < bl->nsucc; j++) {
                uint32_t s = bl->succ[j];
                if (s != WS_PC_EXIT && s != p && !seen[s]) { seen[s] = 1; stack[sp++] = s; }
            }
            while (sp) {
                uint32_t u = stack[--sp];
                if (!cdep[u]) { cdep[u] = 1; changed = 1; }
                for (uint32_t j = 0; j < k->blocks[u].nsucc; j++) {
                    uint32_t s = k->blocks[u].succ[j];
                    if (s != WS_PC_EXIT && s != p && !seen[s]) { seen[s] = 1; stack[sp++] = s; }
                }
            }
        }
    }
}

void ws_uniformity(ws_kernel *k)
{
    uint32_t n = k->ninsts, nb = k->nblocks;
    for (uint32_t i = 0; i < n; i++) k->insts[i].uniform = k->insts[i].cta_uniform = 0;
    if (n == 0 || !k->blocks || !k->block_of) return;

    uint8_t *var = calloc(k->nregs ? k->nregs : 1, 1);
    uint8_t *cdep = calloc(nb, 1);           /* block control-dependent on a varying branch */
    uint8_t *done = calloc(nb, 1);           /* branch blocks whose region is already marked */
    uint32_t *stack = malloc(nb * sizeof *stack);
    uint8_t *seen = malloc(nb);
    if (!var || !cdep || !done || !stack || !seen) goto out;   /* leaves every branch non-uniform */

    analyse(k, 1, var, cdep, done, stack, seen);
    int uni_varies = 0;   /* a .uni branch the registers do not prove uniform */
    for (uint32_t i = 0; i < n; i++) {
        ws_inst *in = &k->insts[i];
        if (in->op != WS_OP_BRA && in->op != WS_OP_BRX) continue;
        in->uniform = (uint8_t)branch_uniform(k, in, var, 1);
        uni_varies |= (in->mods & WS_MOD_UNI) && !branch_uniform(k, in, var, 0);
    }
    /* CTA-uniform: by the registers, with the regions of such .uni branches control-dependent too */
    if (uni_varies) analyse(k, 0, var, cdep, done, stack, seen);
    for (uint32_t i = 0; i < n; i++) {
        ws_inst *in = &k->insts[i];
        if (in->op == WS_OP_BRA || in->op == WS_OP_BRX) in->cta_uniform = (uint8_t)branch_uniform(k, in, var, 0);
    }
out:
    free(var); free(cdep); free(done); free(stack); free(seen);
}
