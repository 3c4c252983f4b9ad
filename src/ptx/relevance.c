/*
 * The registers whose values can matter (ws_reg_relevance, passes.h): read by
 * a branch, a guard, an address, an atomic's operands, a warp-level or
 * barrier instruction, or by a pure computation whose result matters (a fixed
 * point over the kernel). The others only ever flow into each other, into
 * store and red values: their values cannot change which instructions run,
 * where they access memory, or any register that matters. The livelock proof
 * with changing memory ignores them (src/sim/deadlock.c); register compaction
 * keeps the two kinds in separate rows (src/ptx/regcompact.c), so a row the
 * proof hashes never holds a value it may ignore.
 */
#include <string.h>
#include "warpsweep/ptx.h"
#include "warpsweep/passes.h"

static int get(const uint64_t *rel, uint32_t q) { return (int)(rel[q / 64] >> (q % 64) & 1); }

static int mark(const ws_kernel *k, uint64_t *rel, uint32_t q)
{
    if (q >= k->nregs || get(rel, q)) return 0;
    rel[q / 64] |= 1ull << (q % 64);
    return 1;
}

/* Registers named by an operand: a register, a vector's elements, or (addr =
 * 1) the base of an address. */
static int opnd_regs(const ws_operand *o, int addr, uint32_t *out)
{
    int n = 0;
    if (o->kind == WS_OK_REG && !addr) out[n++] = o->reg;
    else if (o->kind == WS_OK_VEC && !addr)
        for (int i = 0; i < o->nvec; i++) { if (o->vec[i] != WS_NO_REG) out[n++] = o->vec[i]; }
    else if (o->kind == WS_OK_ADDR && addr && o->reg != WS_NO_REG) out[n++] = o->reg;
    return n;
}

/* Side-effect-free computations: mov .. cvta in isa.def whose only result is
 * their destination registers.  One that writes the carry flag is not: the
 * flag may carry its inputs into a register that matters. */
static int is_pure(const ws_inst *in)
{
    _Static_assert(WS_OP_MOV == 0, "isa.def: mov must come first");
    return in->op <= WS_OP_CVTA && !(in->mods & WS_MOD_CC);
}

/* One pass: marks the registers `in` reads in a way that matters, given the
 * relevance of its destinations.  Returns the number newly marked. */
static uint32_t relevance_step(const ws_kernel *k, uint64_t *rel, const ws_inst *in)
{
    uint32_t regs[8];
    uint32_t changed = 0;
    int dst_rel = 0;
    for (int i = 0; i < in->ndst; i++) {
        int n = opnd_regs(&in->dst[i], 0, regs);
        for (int j = 0; j < n; j++) dst_rel |= regs[j] < k->nregs && get(rel, regs[j]);
    }
    int value_only = (is_pure(in) && !dst_rel) || in->op == WS_OP_ST || in->op == WS_OP_RED;
    if (in->guard != WS_NO_REG && (!is_pure(in) || dst_rel)) changed += (uint32_t)mark(k, rel, in->guard);
    for (int d = 0; d < 2; d++) {
        const ws_operand *ops = d ? in->src : in->dst;
        int nops = d ? in->nsrc : in->ndst;
        for (int i = 0; i < nops; i++) {
            int n = opnd_regs(&ops[i], 1, regs);        /* address bases always matter */
            for (int j = 0; j < n; j++) changed += (uint32_t)mark(k, rel, regs[j]);
            if (!d || value_only) continue;             /* destinations; values that only flow on */
            n = opnd_regs(&ops[i], 0, regs);
            for (int j = 0; j < n; j++) changed += (uint32_t)mark(k, rel, regs[j]);
        }
    }
    return changed;
}

uint32_t ws_reg_relevance(const ws_kernel *k, uint64_t *rel)
{
    memset(rel, 0, ((size_t)k->nregs + 63) / 64 * 8);
    uint32_t total = 0;
    for (uint32_t changed = 1; changed;) {
        changed = 0;
        for (uint32_t i = k->ninsts; i-- > 0;) changed += relevance_step(k, rel, &k->insts[i]);
        total += changed;
    }
    return total;
}
