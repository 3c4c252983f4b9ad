/*
 * Lowering: the SASS instructions ptxas makes of each PTX instruction, as
 * issue slots (lowering=ptxas; docs/model.md "Lowering").
 *
 * The hardware runs SASS, not PTX. ptxas expands some PTX instructions into
 * sequences (IEEE division and roots, integer division, 64-bit arithmetic),
 * folds others into their consumers (parameters become constant-bank
 * operands, a multiply feeding an add becomes one FFMA, an address's
 * mul.wide + add.s64 one IMAD.WIDE) and predicates short forward branches
 * (if-conversion). Per instruction of the kernel a run executes, this pass
 * computes
 *   slots   SASS instructions the warp issues when it issues the PTX
 *           instruction: 0 = folded (it costs no issue slot, no unit, no
 *           latency: its consumers read its sources), 1 = one, n = an
 *           expansion that holds the scheduler's issue port n cycles
 *           (issue_width 1);
 *   ifconv  for a branch ptxas if-converts: the slots of the predicated body,
 *           issued when the whole warp jumps over it (the hardware issues
 *           the predicated instructions whatever the predicate); the
 *           branch itself is 0 slots;
 *   unit    of an expansion, the SASS instructions on the PTX instruction's
 *           own unit: it occupies the unit that many initiation intervals
 *           (0: the unit's interval or the cost class's, as without lowering);
 *   xu      a conversion: it occupies the SFU (the XU, MUFU's pipe) instead of
 *           its ALU unit.
 * The per-form counts are lowering.def's rows (measured with ptxas); the
 * context rules below are measured the same way (bench/lowering/README.md).
 */
#include <stdlib.h>
#include <string.h>
#include "core_internal.h"

enum { LT_ANY, LT_F32, LT_F64, LT_I32, LT_U32, LT_S32, LT_I64, LT_U64, LT_S64 };
enum { LM_ANY, LM_IEEE, LM_APPROX, LM_FULL, LM_FTZAPPROX, LM_FTZFULL, LM_FTZ, LM_HI, LM_LO, LM_TO, LM_PARAM };

static const struct lower_row {
    uint16_t op;
    uint8_t dst, src, mod;
    int8_t slots;
    uint8_t unit;
    uint8_t mix[WS_LMIX_N];
} rows[] = {
#define X(F, FM, D, I, IM, S, SQ) {F, FM, D, I, IM, S, SQ}
#define L(OP, D, S, M, N, U, MIX, SASS) {WS_OP_##OP, LT_##D, LT_##S, LM_##M, N, U, MIX},
#include "warpsweep/lowering.def"
#undef L
#undef X
};

/* Does type t belong to class cls (LT_*)? */
static int type_class_is(int cls, int t)
{
    if (cls == LT_ANY) return 1;
    const int bits = ws_type_bits((ws_type)t);
    if (cls == LT_F32) return t == WS_TY_F32;
    if (cls == LT_F64) return t == WS_TY_F64;
    if (ws_type_is_float((ws_type)t) || t == WS_TY_PRED || t == WS_TY_NONE) return 0;
    const int sgn = ws_type_is_signed((ws_type)t);
    switch (cls) {
    case LT_I32: return bits > 0 && bits <= 32;
    case LT_U32: return bits > 0 && bits <= 32 && !sgn;
    case LT_S32: return bits > 0 && bits <= 32 && sgn;
    case LT_I64: return bits == 64;
    case LT_U64: return bits == 64 && !sgn;
    case LT_S64: return bits == 64 && sgn;
    default:     return 0;
    }
}

static int mod_is(int m, const ws_inst *in)
{
    switch (m) {
    case LM_IEEE:   return !(in->mods & (WS_MOD_APPROX | WS_MOD_FULL));
    case LM_APPROX: return (in->mods & WS_MOD_APPROX) != 0;
    case LM_FULL:   return (in->mods & WS_MOD_FULL) != 0;
    case LM_HI:     return (in->mods & WS_MOD_HI) != 0;
    case LM_LO:     return !(in->mods & (WS_MOD_HI | WS_MOD_WIDE));   /* .lo, or no width modifier */
    case LM_TO:     return (in->mods & WS_MOD_TO) != 0;
    case LM_FTZAPPROX: return (in->mods & WS_MOD_FTZ) && (in->mods & WS_MOD_APPROX);
    case LM_FTZFULL:   return (in->mods & WS_MOD_FTZ) && (in->mods & WS_MOD_FULL);
    case LM_FTZ:    return (in->mods & WS_MOD_FTZ) != 0;
    case LM_PARAM:  return in->space == WS_SP_PARAM;
    default:        return 1;
    }
}

/* lowering.def's row for `in` alone; NULL when none matches (one slot, the unit's interval). */
static const struct lower_row *form_row(const ws_inst *in)
{
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const struct lower_row *w = &rows[i];
        if (w->op != in->op || w->slots < 0) continue;
        if (!type_class_is(w->dst, in->type) || !type_class_is(w->src, in->op == WS_OP_CVT ? in->type2 : WS_TY_NONE))
            continue;
        if (!mod_is(w->mod, in)) continue;
        return w;
    }
    return NULL;
}

int ws_lower_form_slots(const ws_inst *in)
{
    const struct lower_row *w = form_row(in);
    return w ? w->slots : 1;
}

int ws_lower_form_mix(const ws_inst *in, uint8_t mix[WS_LMIX_N])
{
    const struct lower_row *w = form_row(in);
    if (!w || w->slots < 2) return 0;
    int any = 0;
    for (int c = 0; c < WS_LMIX_N; c++) any |= w->mix[c];
    if (!any) return 0;
    memcpy(mix, w->mix, WS_LMIX_N);
    return w->slots;
}

/* Reads and definitions of every register in the kernel, and the one
 * reader where there is exactly one. */
typedef struct du {
    uint32_t *nuse, *ndef, *user;
} du;

static int du_build(const ws_kernel *k, du *d)
{
    size_t n = k->nregs ? k->nregs : 1;
    d->nuse = calloc(n, sizeof *d->nuse);
    d->ndef = calloc(n, sizeof *d->ndef);
    d->user = calloc(n, sizeof *d->user);
    if (!d->nuse || !d->ndef || !d->user) return -1;
    for (uint32_t pc = 0; pc < k->ninsts; pc++) {
        const ws_inst *in = &k->insts[pc];
        for (uint32_t q = 0; q < in->n_rd; q++)
            if (in->rd[q] < n) { d->nuse[in->rd[q]]++; d->user[in->rd[q]] = pc; }
        for (uint32_t q = 0; q < in->n_wr; q++)
            if (in->wr[q] < n) d->ndef[in->wr[q]]++;
    }
    return 0;
}

static void du_free(du *d)
{
    free(d->nuse);
    free(d->ndef);
    free(d->user);
}

/* The instruction that alone reads what `in` (at pc) alone writes, later
 * in its basic block; UINT32_MAX when there is none. */
static uint32_t sole_consumer(const ws_kernel *k, const du *d, uint32_t pc)
{
    const ws_inst *in = &k->insts[pc];
    if (in->n_wr != 1 || in->guard != WS_NO_REG) return UINT32_MAX;
    uint32_t reg = in->wr[0];
    if (reg >= k->nregs || d->ndef[reg] != 1 || d->nuse[reg] != 1) return UINT32_MAX;
    uint32_t u = d->user[reg];
    if (u <= pc || k->block_of[u] != k->block_of[pc]) return UINT32_MAX;
    return u;
}

/* Contraction (PTX ISA 9.7.3.x, mul/add: "mul/add sequences with no rounding
 * modifiers may be optimized to use fused-multiply-add instructions on the
 * target device"): an f32/f64 mul without a rounding modifier whose result
 * only an add/sub without one reads becomes that add's FFMA/DFMA. */
static int contracted(const ws_kernel *k, const du *d, uint32_t pc)
{
    const ws_inst *in = &k->insts[pc];
    if (in->op != WS_OP_MUL || in->rnd || (in->type != WS_TY_F32 && in->type != WS_TY_F64)) return 0;
    if (in->mods & WS_MOD_SAT) return 0;
    uint32_t u = sole_consumer(k, d, pc);
    if (u == UINT32_MAX) return 0;
    const ws_inst *c = &k->insts[u];
    return (c->op == WS_OP_ADD || c->op == WS_OP_SUB) && c->type == in->type && !c->rnd && !(c->mods & WS_MOD_SAT);
}

/* The instruction before pc in its block that alone writes reg, when reg is
 * written once and read once (by pc); UINT32_MAX when there is none. */
static uint32_t sole_producer(const ws_kernel *k, const du *d, uint32_t pc, uint32_t reg)
{
    if (reg >= k->nregs || d->ndef[reg] != 1 || d->nuse[reg] != 1) return UINT32_MAX;
    for (uint32_t p = pc; p-- > 0 && k->block_of[p] == k->block_of[pc];) {
        const ws_inst *pr = &k->insts[p];
        if (pr->n_wr == 1 && pr->wr[0] == reg) return p;
    }
    return UINT32_MAX;
}

/* Address arithmetic: an add.s64/u64 reading a mul.wide's result that only
 * it reads is the addend of that IMAD.WIDE (0 slots; the mul.wide keeps its
 * one). 1 when the add at pc folds so. */
static int address_add_folds(const ws_kernel *k, const du *d, uint32_t pc)
{
    const ws_inst *in = &k->insts[pc];
    if (in->op != WS_OP_ADD || !type_class_is(LT_I64, in->type)) return 0;
    for (uint32_t q = 0; q < 2; q++) {
        if (in->src[q].kind != WS_OK_REG) continue;
        uint32_t p = sole_producer(k, d, pc, in->src[q].reg);
        if (p != UINT32_MAX && k->insts[p].op == WS_OP_MUL && (k->insts[p].mods & WS_MOD_WIDE)) return 1;
    }
    return 0;
}

/* A shl.b64 or cvt.u64.u32 only an add.s64 reads: the add's LEA pair does it. */
static int folded_into_address(const ws_kernel *k, const du *d, uint32_t pc)
{
    const ws_inst *in = &k->insts[pc];
    int shl = in->op == WS_OP_SHL && type_class_is(LT_I64, in->type) && in->src[1].kind == WS_OK_IMM;
    int widen = in->op == WS_OP_CVT && type_class_is(LT_I64, in->type) && type_class_is(LT_I32, in->type2) &&
                !ws_type_is_float((ws_type)in->type2);
    if (!shl && !widen) return 0;
    uint32_t u = sole_consumer(k, d, pc);
    if (u == UINT32_MAX) return 0;
    const ws_inst *c = &k->insts[u];
    if (c->op == WS_OP_ADD && type_class_is(LT_I64, c->type)) return 1;
    if (widen && c->op == WS_OP_SHL && type_class_is(LT_I64, c->type)) return folded_into_address(k, d, u);
    return 0;
}

/* Operand modifiers: a float neg/abs only a later float add, sub, mul, fma, min/max, setp or cvt
 * reads is that instruction's -R / |R| operand (FADD/FMUL/FFMA/FSETP/F2F take both; the F2F of
 * bench/lowering/kernels/half takes its negated source so). 1 when the instruction at pc folds. */
static int operand_modifier(const ws_kernel *k, const du *d, uint32_t pc)
{
    const ws_inst *in = &k->insts[pc];
    if ((in->op != WS_OP_NEG && in->op != WS_OP_ABS) || (in->type != WS_TY_F32 && in->type != WS_TY_F64)) return 0;
    uint32_t u = sole_consumer(k, d, pc);
    if (u == UINT32_MAX) return 0;
    const ws_inst *c = &k->insts[u];
    switch (c->op) {
    case WS_OP_ADD: case WS_OP_SUB: case WS_OP_MUL: case WS_OP_FMA: case WS_OP_MAD:
    case WS_OP_MIN: case WS_OP_MAX: case WS_OP_SETP:
        return c->type == in->type;
    case WS_OP_CVT:
        return c->type2 == in->type;
    default:
        return 0;
    }
}

/* A conversion the XU performs (I2F, F2I, F2F; the MUFU's pipe at its rate: 16 per clock per SM
 * on compute capability 7.x and 8.x against 64 for FP32 and INT32, NVIDIA CUDA C++ Programming
 * Guide, "Arithmetic Instructions" throughput table): cvt between an integer and a float type or
 * between float types of different widths. */
static int xu_conversion(const ws_inst *in)
{
    if (in->op != WS_OP_CVT) return 0;
    const ws_type d = (ws_type)in->type, s = (ws_type)in->type2;
    if (!ws_type_bits(d) || !ws_type_bits(s)) return 0;
    const int fd = ws_type_is_float(d), fs = ws_type_is_float(s);
    return fd != fs || (fd && fs && ws_type_bits(d) != ws_type_bits(s));
}

/* Moves: a special register read is S2R (one slot) unless it is a launch
 * constant (%ntid, %nctaid: constant-bank operands, WARP_SZ an immediate); a
 * copy or an immediate into a register defined once is propagated into its
 * consumers; one into a register defined several times (a loop-carried
 * value) stays a MOV. */
static int move_slots(const ws_kernel *k, const du *d, const ws_inst *in)
{
    if (in->op != WS_OP_MOV || in->nsrc != 1 || in->n_wr != 1) return -1;
    const ws_operand *s = &in->src[0];
    if (s->kind == WS_OK_SREG) {
        switch (s->sreg) {
        case WS_SR_NTID_X: case WS_SR_NTID_Y: case WS_SR_NTID_Z:
        case WS_SR_NCTAID_X: case WS_SR_NCTAID_Y: case WS_SR_NCTAID_Z:
        case WS_SR_WARP_SZ:
            return 0;
        default:
            return 1;
        }
    }
    if (s->kind != WS_OK_REG && s->kind != WS_OK_IMM) return -1;
    if (in->guard != WS_NO_REG || in->wr[0] >= k->nregs) return -1;
    return d->ndef[in->wr[0]] == 1 ? 0 : 1;
}

static int is_logic32(const ws_inst *in)
{
    return (in->op == WS_OP_AND || in->op == WS_OP_OR || in->op == WS_OP_XOR || in->op == WS_OP_NOT) &&
           type_class_is(LT_I32, in->type) && in->type != WS_TY_PRED;
}

/* The three-input family of a 32-bit integer instruction: 1 logic (LOP3),
 * 2 add/sub (IADD3, sm_70+), 0 neither. */
static int family3(const ws_inst *in)
{
    if (in->mods & (WS_MOD_CC | WS_MOD_SAT)) return 0;
    if (is_logic32(in)) return 1;
    if ((in->op == WS_OP_ADD || in->op == WS_OP_SUB) && type_class_is(LT_I32, in->type)) return 2;
    return 0;
}

static uint8_t imm_sources(const ws_inst *in)
{
    uint8_t n = 0;
    for (uint32_t q = 0; q < in->nsrc; q++) n += in->src[q].kind == WS_OK_IMM;
    return n;
}

/* Three-input instructions (LOP3.LUT: any logic function of three inputs;
 * IADD3: a three-input add, sm_70+): a 32-bit and/or/xor/not (add/sub) only
 * a later one of its family reads, their operands three at most together and
 * one of them an immediate at most, is one LOP3 (IADD3) with it. `inputs`
 * and `imms` hold, per instruction already passed, the operands and
 * immediates of the instruction it heads. Returns 1 when the instruction at
 * pc folds into its consumer. A setp.eq/ne of a logic result against 0 is
 * the LOP3's predicate output (setp_folds). */
static int lop3_folds(const ws_kernel *k, const du *d, uint32_t pc, uint8_t *inputs, uint8_t *imms)
{
    const ws_inst *in = &k->insts[pc];
    const int fam = family3(in);
    if (!fam) return 0;
    if (!inputs[pc]) { inputs[pc] = in->nsrc; imms[pc] = imm_sources(in); }
    uint32_t u = sole_consumer(k, d, pc);
    if (u == UINT32_MAX) return 0;
    const ws_inst *c = &k->insts[u];
    if (family3(c) != fam) return 0;
    if (!inputs[u]) { inputs[u] = c->nsrc; imms[u] = imm_sources(c); }
    uint32_t n = (uint32_t)inputs[pc] + inputs[u] - 1, ni = (uint32_t)imms[pc] + imms[u];
    if (n > 3 || ni > 1) return 0;   /* three operands, one of them an immediate */
    inputs[u] = (uint8_t)n;
    imms[u] = (uint8_t)ni;
    return 1;
}

/* setp.eq/ne.{b,s,u}32 x, 0 of a logic result only it reads: LOP3's predicate output. */
static int setp_folds(const ws_kernel *k, const du *d, uint32_t pc)
{
    const ws_inst *c = &k->insts[pc];
    if (c->op != WS_OP_SETP || (c->cmp != WS_CMP_EQ && c->cmp != WS_CMP_NE) || !type_class_is(LT_I32, c->type) ||
        c->boolop || c->src[1].kind != WS_OK_IMM || c->src[1].imm != 0 || c->src[0].kind != WS_OK_REG)
        return 0;
    uint32_t p = sole_producer(k, d, pc, c->src[0].reg);
    return p != UINT32_MAX && is_logic32(&k->insts[p]) && k->insts[p].guard == WS_NO_REG;
}

/* Is register reg written by no instruction of the innermost loop holding
 * pc (a backward branch's [target, branch] range), and pc in a loop? *head:
 * the loop's first instruction. */
static int loop_invariant(const ws_kernel *k, uint32_t pc, uint32_t reg, uint32_t *head)
{
    uint32_t lo = 0, hi = UINT32_MAX;
    for (uint32_t b = pc; b < k->ninsts; b++) {
        const ws_inst *x = &k->insts[b];
        if (x->is_backedge && x->target <= pc && x->target < k->ninsts && b - x->target < hi - lo) {
            lo = x->target;
            hi = b;
        }
    }
    if (hi == UINT32_MAX) return 0;
    for (uint32_t p = lo; p <= hi; p++)
        for (uint32_t q = 0; q < k->insts[p].n_wr; q++)
            if (k->insts[p].wr[q] == reg) return 0;
    *head = lo;
    return 1;
}

/* Integer division by a loop-invariant divisor: ptxas hoists the divisor's
 * reciprocal estimate (I2F, MUFU.RCP, F2I and its Newton step) out of the
 * loop; the loop keeps the quotient estimate and its corrections. Counts
 * from bench/lowering/kernels/idivu32 and idivs32 (sm_75 SASS, loop bodies
 * counted by hand, README.md); the rest of the form's count is issued once,
 * before the loop (*head: its first instruction). Returns -1 when the rule
 * does not apply. */
static int invariant_divisor_slots(const ws_kernel *k, uint32_t pc, uint32_t *head)
{
    const ws_inst *in = &k->insts[pc];
    if ((in->op != WS_OP_DIV && in->op != WS_OP_REM) || !type_class_is(LT_I32, in->type)) return -1;
    const ws_operand *dv = &in->src[1];
    if (dv->kind != WS_OK_REG || !loop_invariant(k, pc, dv->reg, head)) return -1;
    const int sgn = ws_type_is_signed((ws_type)in->type);
    if (in->op == WS_OP_DIV) return sgn ? 12 : 9;   /* IMAD.HI IMAD.MOV IMAD ISETP x2 IADD3 x3 SEL (+IABS, sign fix-ups) */
    return sgn ? 10 : 8;                             /* all on the INT unit */
}

/* An FFMA/IMAD takes one immediate or constant-bank operand; a second one is
 * moved into a register first (the IMAD.MOV in bench/lowering/kernels/fdiv's
 * loop; an f64 one takes two, bench/lowering/kernels/dfma). Returns the
 * MOVs an fma/mad needs. */
static int constant_moves(const ws_kernel *k, const ws_inst *in, const uint8_t *param)
{
    if (in->op != WS_OP_FMA && in->op != WS_OP_MAD) return 0;
    int n = 0;
    for (uint32_t q = 0; q < in->nsrc; q++)
        n += in->src[q].kind == WS_OK_IMM || (in->src[q].kind == WS_OK_REG && in->src[q].reg < k->nregs && param[in->src[q].reg]);
    return n > 1 ? (n - 1) * (in->type == WS_TY_F64 ? 2 : 1) : 0;   /* f64: a register pair, two MOVs */
}

/* If-conversion (measured, bench/lowering/README.md): ptxas predicates a
 * conditional forward branch over at most WS_IFCONV_MAX instructions of one
 * block without a load, atomic, barrier, call or other branch; the branch
 * disappears. Returns the body's slots, or -1 when it stays a branch. */
#define WS_IFCONV_MAX 8
static int ifconv_body(const ws_kernel *k, uint32_t pc, const ws_lowered *out)
{
    const ws_inst *in = &k->insts[pc];
    if (in->op != WS_OP_BRA || in->guard == WS_NO_REG || in->target <= pc + 1) return -1;
    uint32_t first = pc + 1, end = in->target;
    if (end - first > WS_IFCONV_MAX || end > k->ninsts) return -1;
    uint32_t b = k->block_of[first];
    if (k->block_of[end - 1] != b || k->blocks[b].first != first) return -1;
    int n = 0;
    for (uint32_t p = first; p < end; p++) {
        const ws_inst *x = &k->insts[p];
        unsigned f = ws_opcode_flags(x->op);
        if (f & (WS_OPF_LOAD | WS_OPF_ATOMIC | WS_OPF_REDUCE | WS_OPF_CTABAR | WS_OPF_CPASYNC | WS_OPF_FENCE |
                 WS_OPF_SLEEP | WS_OPF_DIVOP | WS_OPF_TEXP))
            return -1;
        if (x->unit == WS_UNIT_CTRL || ws_warp_membermask(x) || ws_warp_aligned(x)) return -1;
        n += out[p].slots;
    }
    return n;
}

int ws_lower_kernel(const ws_kernel *k, ws_lowered *out)
{
    du d = {0};
    const size_t n = k->ninsts ? k->ninsts : 1;
    uint8_t *inputs = calloc(n, 1), *imms = calloc(n, 1), *param = calloc(k->nregs ? k->nregs : 1, 1);
    uint32_t *hoisted = calloc(n, sizeof *hoisted);
    if (!inputs || !imms || !param || !hoisted || du_build(k, &d) < 0) {
        free(hoisted);
        free(inputs);
        free(imms);
        free(param);
        du_free(&d);
        return -1;
    }
    for (uint32_t pc = 0; pc < k->ninsts; pc++) {   /* registers holding a parameter: constant-bank operands */
        const ws_inst *in = &k->insts[pc];
        if ((in->op == WS_OP_LD || in->op == WS_OP_LDU) && in->space == WS_SP_PARAM && in->n_wr == 1 &&
            in->wr[0] < k->nregs && d.ndef[in->wr[0]] == 1)
            param[in->wr[0]] = 1;
    }
    for (uint32_t pc = 0; pc < k->ninsts; pc++) {
        const ws_inst *in = &k->insts[pc];
        const struct lower_row *row = form_row(in);
        const int form = row ? row->slots : 1;
        int s = move_slots(k, &d, in), unit = row ? row->unit : 0;
        uint32_t head = 0;
        if (s < 0 && (s = invariant_divisor_slots(k, pc, &head)) >= 0) {
            if (head > 0) hoisted[head - 1] += (uint32_t)(form - s);   /* the reciprocal, before the loop */
            unit = s;
        }
        if (s < 0) s = form + constant_moves(k, in, param);
        if (contracted(k, &d, pc) || folded_into_address(k, &d, pc) || address_add_folds(k, &d, pc) ||
            lop3_folds(k, &d, pc, inputs, imms) || setp_folds(k, &d, pc) || operand_modifier(k, &d, pc))
            s = 0;
        out[pc].slots = (uint8_t)(s > 255 ? 255 : s);
        out[pc].unit = (uint8_t)(s ? unit : 0);
        out[pc].xu = (uint8_t)(s && xu_conversion(in));
        out[pc].ifconv = 0;
    }
    for (uint32_t pc = 0; pc < k->ninsts; pc++) {   /* code hoisted out of a loop: before it */
        uint32_t v = out[pc].slots + hoisted[pc];
        out[pc].slots = (uint8_t)(v > 255 ? 255 : v);
    }
    for (uint32_t pc = 0; pc < k->ninsts; pc++) {   /* bodies' slots known: the branches */
        int n = ifconv_body(k, pc, out);
        if (n < 0) continue;
        out[pc].slots = 0;
        out[pc].ifconv = (uint8_t)(n > 255 ? 255 : n);
    }
    du_free(&d);
    free(inputs);
    free(imms);
    free(param);
    free(hoisted);
    return 0;
}
