/*
 * Warp-wide fast paths for the common instruction forms.
 *
 * ws_exec_fast_form looks at a decoded instruction once (ws_cfg_build stores
 * the answer in ws_inst.fast for every instruction of every kernel it builds)
 * and picks a handler for the forms that dominate real kernels: integer
 * add/sub/mul.lo/mad.lo/mul.wide/mad.wide/and/or/xor/not/shl/shr/min/max,
 * mov, selp, integer setp without a boolean combine or q output, cvta, cvt between
 * integer types, f32 add/sub/mul/fma/mad in round-to-nearest (with or without .ftz), bra,
 * with operands that are plain registers or immediates. Anything else --
 * .cc/.sat/.hi, vectors, special registers, negated or absent operands, the
 * sink "_" -- gets 0 and runs the generic families (exec_int.c, ...).
 *
 * A handler is one expression per lane, written exactly as the generic
 * family computes it, in one variant per operand pattern (r: register row,
 * i: immediate) so each loop is a plain loop over the lanes. When the
 * executed lanes are a prefix 0..n-1 (the common full or partial warp) the
 * loop covers them all and the compiler vectorises it; other masks walk
 * their set lanes. A destination row is either one of the source rows or
 * disjoint from them (rows are warp_size apart), so no loop carries a
 * dependence: FAST_IVDEP tells the compiler so.
 */
#include <math.h>
#include "exec_internal.h"

typedef void fast_fn(ws_warp *w, const ws_inst *in, uint64_t exec, unsigned ws, ws_effect *eff);

/* Operand i as a register row (r) or an immediate (i), and its value in lane l. */
#define OPND_r(i) const uint64_t *s##i = ws_reg_lanes(w, in->src[i].reg, ws);
#define OPND_i(i) const uint64_t s##i = (uint64_t)in->src[i].imm;
#define VAL_r(i) s##i[l]
#define VAL_i(i) s##i

#define PROLOGUE                                                   \
    uint64_t *d = ws_reg_lanes(w, in->dst[0].reg, ws);              \
    const unsigned bits = ws_ty_bits[in->type];                     \
    const uint64_t M = ws_mask_bits(bits);                          \
    const int ftz = (in->mods & WS_MOD_FTZ) != 0;                   \
    (void)bits; (void)M; (void)ftz; (void)eff;

/* d = EXPR(x, y): x = src[0], y = src[1]. */
#define BIN_VARIANT(name, pa, pb, EXPR)                                                       \
    static void name##_##pa##pb(ws_warp *w, const ws_inst *in, uint64_t exec, unsigned ws,     \
                                ws_effect *eff)                                                \
    {                                                                                          \
        PROLOGUE OPND_##pa(0) OPND_##pb(1)                                                     \
        FOR_EXEC_LANES(uint64_t x = VAL_##pa(0); uint64_t y = VAL_##pb(1); d[l] = (EXPR));   \
    }
#define BINARY(name, EXPR) \
    BIN_VARIANT(name, r, r, EXPR) BIN_VARIANT(name, r, i, EXPR) \
    BIN_VARIANT(name, i, r, EXPR) BIN_VARIANT(name, i, i, EXPR)

/* d = EXPR(x, y, z): z = src[2]. */
#define TER_VARIANT(name, pa, pb, pc, EXPR)                                                    \
    static void name##_##pa##pb##pc(ws_warp *w, const ws_inst *in, uint64_t exec, unsigned ws,  \
                                    ws_effect *eff)                                             \
    {                                                                                           \
        PROLOGUE OPND_##pa(0) OPND_##pb(1) OPND_##pc(2)                                         \
        FOR_EXEC_LANES(uint64_t x = VAL_##pa(0); uint64_t y = VAL_##pb(1);                      \
                       uint64_t z = VAL_##pc(2); d[l] = (EXPR));                                \
    }
#define TERNARY(name, EXPR) \
    TER_VARIANT(name, r, r, r, EXPR) TER_VARIANT(name, r, r, i, EXPR) \
    TER_VARIANT(name, r, i, r, EXPR) TER_VARIANT(name, r, i, i, EXPR) \
    TER_VARIANT(name, i, r, r, EXPR) TER_VARIANT(name, i, r, i, EXPR) \
    TER_VARIANT(name, i, i, r, EXPR) TER_VARIANT(name, i, i, i, EXPR)

/* d = EXPR(x). */
#define UN_VARIANT(name, pa, EXPR)                                                            \
    static void name##_##pa(ws_warp *w, const ws_inst *in, uint64_t exec, unsigned ws,         \
                            ws_effect *eff)                                                    \
    {                                                                                          \
        PROLOGUE OPND_##pa(0)                                                                  \
        FOR_EXEC_LANES(uint64_t x = VAL_##pa(0); d[l] = (EXPR));                              \
    }
#define UNARY(name, EXPR) UN_VARIANT(name, r, EXPR) UN_VARIANT(name, i, EXPR)

/* Unsigned a < b as 0/1 from the borrow of a - b (Hacker's Delight 2-12), without a
 * compare: SSE2 has no 64-bit compare, so this form keeps the loop vectorised. */
static inline uint64_t ltu(uint64_t a, uint64_t b) { return ((~a & b) | (~(a ^ b) & (a - b))) >> 63; }
static inline uint64_t equ(uint64_t a, uint64_t b) { uint64_t e = a ^ b; return ((e | (0 - e)) >> 63) ^ 1; }
/* The same for values below 2^32 (types of at most 32 bits): the sign of the 64-bit difference. */
static inline uint64_t ltu32(uint64_t a, uint64_t b) { return (a - b) >> 63; }
static inline uint64_t equ32(uint64_t a, uint64_t b) { return ((a ^ b) - 1) >> 63; }

/* The expressions: exec_int.c, exec_cmp.c and exec_mem.c's, for one lane. A signed
 * compare of bits-wide values is the unsigned compare with the sign bits flipped. */
#define SX(v) ((int64_t)ws_sext((v), bits))
#define SF(v) (((v) ^ (1ull << (bits - 1))) & M)
#define MIN_U(mx) ((mx) ? (((x & M) < (y & M)) ? y : x) : (((x & M) < (y & M)) ? x : y)) & M
#define MIN_S(mx) ((mx) ? ((SX(x) < SX(y)) ? y : x) : ((SX(x) < SX(y)) ? x : y)) & M
#define U32(v) ((v) & 0xffffffffull)

BINARY(add, (x + y) & M)
BINARY(sub, (x - y) & M)
BINARY(mullo, (x * y) & M)   /* the low bits of the product do not depend on signedness */
BINARY(mullo32, (U32(x) * U32(y)) & M)   /* bits <= 32: the low 32 bits of the 32 x 32 product */
BINARY(and, x & y & M)
BINARY(or, (x | y) & M)
BINARY(xor, (x ^ y) & M)
BINARY(shl, (uint32_t)y >= bits ? 0 : (x << (uint32_t)y) & M)
BINARY(shru, (uint32_t)y >= bits ? 0 : (x & M) >> (uint32_t)y)
BINARY(shrs, (uint64_t)(SX(x) >> ((uint32_t)y >= bits ? bits - 1 : (uint32_t)y)) & M)
BINARY(minu, MIN_U(0))
BINARY(maxu, MIN_U(1))
BINARY(mins, MIN_S(0))
BINARY(maxs, MIN_S(1))
/* mul.wide: the 2*bits-bit product of the extended operands */
BINARY(mulwu, (U32(x & M) * U32(y & M)) & ws_mask_bits(2 * bits))   /* bits <= 32 */
BINARY(mulws, (uint64_t)(SX(x) * SX(y)) & ws_mask_bits(2 * bits))
/* setp without .and/.or/.xor and q: cmp_int */
BINARY(seq, equ(x & M, y & M))
BINARY(sne, equ(x & M, y & M) ^ 1)
BINARY(sltu, ltu(x & M, y & M))
BINARY(sleu, ltu(y & M, x & M) ^ 1)
BINARY(sgtu, ltu(y & M, x & M))
BINARY(sgeu, ltu(x & M, y & M) ^ 1)
BINARY(slts, ltu(SF(x), SF(y)))
BINARY(sles, ltu(SF(y), SF(x)) ^ 1)
BINARY(sgts, ltu(SF(y), SF(x)))
BINARY(sges, ltu(SF(x), SF(y)) ^ 1)
BINARY(seq32, equ32(x & M, y & M))
BINARY(sne32, equ32(x & M, y & M) ^ 1)
BINARY(sltu32, ltu32(x & M, y & M))
BINARY(sleu32, ltu32(y & M, x & M) ^ 1)
BINARY(sgtu32, ltu32(y & M, x & M))
BINARY(sgeu32, ltu32(x & M, y & M) ^ 1)
BINARY(slts32, ltu32(SF(x), SF(y)))
BINARY(sles32, ltu32(SF(y), SF(x)) ^ 1)
BINARY(sgts32, ltu32(SF(y), SF(x)))
BINARY(sges32, ltu32(SF(x), SF(y)) ^ 1)
TERNARY(madlo, (x * y + z) & M)
TERNARY(madlo32, (U32(x) * U32(y) + z) & M)
TERNARY(madwu, (U32(x & M) * U32(y & M) + z) & ws_mask_bits(2 * bits))
TERNARY(madws, ((uint64_t)(SX(x) * SX(y)) + z) & ws_mask_bits(2 * bits))
#define SELP(z) ((z) ? x : y) & M
TER_VARIANT(selp, r, r, r, SELP(z)) TER_VARIANT(selp, r, i, r, SELP(z))
TER_VARIANT(selp, i, r, r, SELP(z)) TER_VARIANT(selp, i, i, r, SELP(z))
/* f32 arithmetic as exec_float.c computes it in round-to-nearest without .sat: the
 * operation in float with .ftz flushing inputs and result, NaN results canonical */
#define F(v) ws_in32((v), ftz)
BINARY(fadd, ws_out32(F(x) + F(y), ftz, 0))
BINARY(fsub, ws_out32(F(x) - F(y), ftz, 0))
BINARY(fmul, ws_out32(F(x) * F(y), ftz, 0))
TERNARY(ffma, ws_out32(fmaf(F(x), F(y), F(z)), ftz, 0))
UNARY(mov, x & M)
UNARY(not, ~x & M)

static uint64_t cvta_delta(const ws_inst *in)
{
    uint64_t delta = 0;
    if (in->space == WS_SP_SHARED) delta = WS_SHARED_WINDOW;
    else if (in->space == WS_SP_LOCAL) delta = WS_LOCAL_WINDOW;
    return in->mods & WS_MOD_TO ? 0 - delta : delta;
}
static void cvta_r(ws_warp *w, const ws_inst *in, uint64_t exec, unsigned ws, ws_effect *eff)
{
    PROLOGUE OPND_r(0)
    const uint64_t delta = cvta_delta(in);
    FOR_EXEC_LANES(d[l] = (s0[l] + delta) & M);
}
static void cvta_i(ws_warp *w, const ws_inst *in, uint64_t exec, unsigned ws, ws_effect *eff)
{
    PROLOGUE OPND_i(0)
    const uint64_t delta = cvta_delta(in);
    FOR_EXEC_LANES(d[l] = (s0 + delta) & M);
}

/* cvt between integer types without .sat (exec_cvt.c): the source extended from its own
 * width, cut to the destination's; selected only where no register widening follows
 * (a 64-bit or unsigned destination). */
static inline unsigned cvt_src_bits(const ws_inst *in) { return ws_ty_bits[in->type2 ? in->type2 : in->type]; }
#define CVT_VARIANT(name, pa, EXPR)                                                           \
    static void name##_##pa(ws_warp *w, const ws_inst *in, uint64_t exec, unsigned ws,         \
                            ws_effect *eff)                                                    \
    {                                                                                          \
        PROLOGUE OPND_##pa(0)                                                                  \
        const unsigned sbits = cvt_src_bits(in);                                               \
        const uint64_t SM = ws_mask_bits(sbits);                                               \
        (void)SM;                                                                              \
        FOR_EXEC_LANES(uint64_t x = VAL_##pa(0); d[l] = (EXPR));                              \
    }
CVT_VARIANT(cvts, r, (uint64_t)ws_sext(x, sbits) & M)
CVT_VARIANT(cvts, i, (uint64_t)ws_sext(x, sbits) & M)
CVT_VARIANT(cvtu, r, x & SM & M)
CVT_VARIANT(cvtu, i, x & SM & M)

static void bra(ws_warp *w, const ws_inst *in, uint64_t exec, unsigned ws, ws_effect *eff)
{
    (void)w; (void)in; (void)ws;
    eff->taken = exec;
}

/* ---- the table: handler 0 is "none"; each family's variants are consecutive ---- */
#define V2(n) n##_rr, n##_ri, n##_ir, n##_ii
#define V3(n) n##_rrr, n##_rri, n##_rir, n##_rii, n##_irr, n##_iri, n##_iir, n##_iii
enum {
    F_NONE = 0, F_BRA = 1,
    F_ADD = 2, F_SUB = F_ADD + 4, F_MULLO = F_SUB + 4, F_MULLO32 = F_MULLO + 4, F_AND = F_MULLO32 + 4, F_OR = F_AND + 4,
    F_XOR = F_OR + 4, F_SHL = F_XOR + 4, F_SHRU = F_SHL + 4, F_SHRS = F_SHRU + 4,
    F_MINU = F_SHRS + 4, F_MAXU = F_MINU + 4, F_MINS = F_MAXU + 4, F_MAXS = F_MINS + 4,
    F_MULWU = F_MAXS + 4, F_MULWS = F_MULWU + 4,
    F_SEQ = F_MULWS + 4, F_SNE = F_SEQ + 4, F_SLTU = F_SNE + 4, F_SLEU = F_SLTU + 4,
    F_SGTU = F_SLEU + 4, F_SGEU = F_SGTU + 4, F_SLTS = F_SGEU + 4, F_SLES = F_SLTS + 4,
    F_SGTS = F_SLES + 4, F_SGES = F_SGTS + 4,
    F_SETP32 = F_SGES + 4,         /* the ten setp families again for types of at most 32 bits */
    F_MADLO = F_SETP32 + 40, F_MADLO32 = F_MADLO + 8, F_MADWU = F_MADLO32 + 8, F_MADWS = F_MADWU + 8,
    F_SELP = F_MADWS + 8,          /* z (the predicate) is always a register: four variants */
    F_MOV = F_SELP + 4, F_NOT = F_MOV + 2, F_CVTA = F_NOT + 2, F_CVTS = F_CVTA + 2, F_CVTU = F_CVTS + 2,
    F_FADD = F_CVTU + 2, F_FSUB = F_FADD + 4, F_FMUL = F_FSUB + 4, F_FFMA = F_FMUL + 4,
    F_COUNT = F_FFMA + 8
};

static fast_fn *const fast_table[F_COUNT] = {
    NULL, bra,
    V2(add), V2(sub), V2(mullo), V2(mullo32), V2(and), V2(or), V2(xor), V2(shl), V2(shru), V2(shrs),
    V2(minu), V2(maxu), V2(mins), V2(maxs), V2(mulwu), V2(mulws),
    V2(seq), V2(sne), V2(sltu), V2(sleu), V2(sgtu), V2(sgeu), V2(slts), V2(sles), V2(sgts), V2(sges),
    V2(seq32), V2(sne32), V2(sltu32), V2(sleu32), V2(sgtu32), V2(sgeu32), V2(slts32), V2(sles32),
    V2(sgts32), V2(sges32),
    V3(madlo), V3(madlo32), V3(madwu), V3(madws),
    selp_rrr, selp_rir, selp_irr, selp_iir,
    mov_r, mov_i, not_r, not_i, cvta_r, cvta_i, cvts_r, cvts_i, cvtu_r, cvtu_i,
    V2(fadd), V2(fsub), V2(fmul), V3(ffma),
};
_Static_assert(F_COUNT <= 256, "ws_inst.fast is one byte");

void ws_exec_fast(ws_warp *w, const ws_inst *in, uint64_t exec, unsigned ws, ws_effect *eff)
{
    fast_table[in->fast](w, in, exec, ws, eff);
}

/* ---- selection ---- */

/* 1 for a plain register (not "_", not negated), 0 for an immediate, -1 otherwise. */
static int plain(const ws_operand *o)
{
    if (o->kind == WS_OK_IMM) return 0;
    if (o->kind == WS_OK_REG && o->reg != WS_NO_REG && !o->neg) return 1;
    return -1;
}

/* Variant offset of srcs 0..n-1 (pattern bits: an immediate in src i adds 2^(n-1-i)), -1 if
 * some operand is neither. */
static int pattern(const ws_inst *in, unsigned n)
{
    int v = 0;
    for (unsigned i = 0; i < n; i++) {
        int p = plain(&in->src[i]);
        if (p < 0) return -1;
        v = v * 2 + (p == 0);
    }
    return v;
}

static int int_type(unsigned t)
{
    switch (t) {
    case WS_TY_B16: case WS_TY_U16: case WS_TY_S16:
    case WS_TY_B32: case WS_TY_U32: case WS_TY_S32:
    case WS_TY_B64: case WS_TY_U64: case WS_TY_S64: return 1;
    default: return 0;
    }
}
static int cvt_int_type(unsigned t) { return int_type(t) || t == WS_TY_B8 || t == WS_TY_U8 || t == WS_TY_S8; }
static int logic_type(unsigned t) { return int_type(t) || t == WS_TY_PRED; }

/* f32 add/sub/mul/fma/mad in round-to-nearest with at most .ftz: the family, else F_NONE. */
static unsigned f32_family(const ws_inst *in)
{
    if ((in->mods & ~WS_MOD_FTZ) || (in->rnd != WS_RND_NONE && in->rnd != WS_RND_RN)) return F_NONE;
    switch (in->op) {
    case WS_OP_ADD: return F_FADD;
    case WS_OP_SUB: return F_FSUB;
    case WS_OP_MUL: return F_FMUL;
    case WS_OP_FMA: case WS_OP_MAD: return F_FFMA;
    default: return F_NONE;
    }
}

/* The family (first handler) of in, or F_NONE. Operands are checked by the caller. */
static unsigned family(const ws_inst *in)
{
    const unsigned t = in->type, m = in->mods;
    const int sg = t < WS_TY_COUNT && ws_ty_signed[t];
    if (t == WS_TY_F32 && in->op != WS_OP_MOV && in->op != WS_OP_SELP) return f32_family(in);
    switch (in->op) {
    case WS_OP_ADD: return int_type(t) && !m ? F_ADD : F_NONE;
    case WS_OP_SUB: return int_type(t) && !m ? F_SUB : F_NONE;
    case WS_OP_MUL:
        if (!int_type(t)) return F_NONE;
        if (!m || m == WS_MOD_LO) return ws_ty_bits[t] <= 32 ? F_MULLO32 : F_MULLO;
        if (m == WS_MOD_WIDE && ws_ty_bits[t] <= 32) return sg ? F_MULWS : F_MULWU;
        return F_NONE;
    case WS_OP_MAD:
        if (!int_type(t)) return F_NONE;
        if (!m || m == WS_MOD_LO) return ws_ty_bits[t] <= 32 ? F_MADLO32 : F_MADLO;
        if (m == WS_MOD_WIDE && ws_ty_bits[t] <= 32) return sg ? F_MADWS : F_MADWU;
        return F_NONE;
    case WS_OP_AND: return logic_type(t) && !m ? F_AND : F_NONE;
    case WS_OP_OR: return logic_type(t) && !m ? F_OR : F_NONE;
    case WS_OP_XOR: return logic_type(t) && !m ? F_XOR : F_NONE;
    case WS_OP_NOT: return logic_type(t) && !m ? F_NOT : F_NONE;
    case WS_OP_SHL: return int_type(t) && !m ? F_SHL : F_NONE;
    case WS_OP_SHR: return int_type(t) && !m ? (sg ? F_SHRS : F_SHRU) : F_NONE;
    case WS_OP_MIN: return int_type(t) && !m ? (sg ? F_MINS : F_MINU) : F_NONE;
    case WS_OP_MAX: return int_type(t) && !m ? (sg ? F_MAXS : F_MAXU) : F_NONE;
    case WS_OP_MOV: return t < WS_TY_COUNT && !m ? F_MOV : F_NONE;
    case WS_OP_SELP: return t < WS_TY_COUNT && !m ? F_SELP : F_NONE;
    case WS_OP_CVTA: return int_type(t) ? F_CVTA : F_NONE;
    case WS_OP_CVT: {
        const unsigned st = in->type2 ? in->type2 : t;
        if (in->subop || m || !cvt_int_type(t) || !cvt_int_type(st)) return F_NONE;
        if (ws_ty_signed[t] && ws_ty_bits[t] < 64) return F_NONE;   /* may widen to its register */
        return ws_ty_signed[st] ? F_CVTS : F_CVTU;
    }
    case WS_OP_SETP: {
        if (!int_type(t) || m || in->boolop != WS_BOOL_NONE) return F_NONE;
        const ws_operand *q = &in->dst[1];
        if (q->kind == WS_OK_REG && q->reg != WS_NO_REG) return F_NONE;
        const unsigned w32 = ws_ty_bits[t] <= 32 ? F_SETP32 - F_SEQ : 0;
        switch (in->cmp) {
        case WS_CMP_EQ: return w32 + (F_SEQ);
        case WS_CMP_NE: return w32 + (F_SNE);
        case WS_CMP_LT: return w32 + (sg ? F_SLTS : F_SLTU);
        case WS_CMP_LE: return w32 + (sg ? F_SLES : F_SLEU);
        case WS_CMP_GT: return w32 + (sg ? F_SGTS : F_SGTU);
        case WS_CMP_GE: return w32 + (sg ? F_SGES : F_SGEU);
        case WS_CMP_LO: return w32 + (F_SLTU);
        case WS_CMP_LS: return w32 + (F_SLEU);
        case WS_CMP_HI: return w32 + (F_SGTU);
        case WS_CMP_HS: return w32 + (F_SGEU);
        default: return F_NONE;
        }
    }
    default: return F_NONE;
    }
}

uint8_t ws_exec_fast_form(const ws_inst *in)
{
    if (in->op == WS_OP_BRA) return F_BRA;
    unsigned f = family(in);
    if (f == F_NONE) return F_NONE;
    const ws_operand *d = &in->dst[0];
    if (d->kind != WS_OK_REG || d->reg == WS_NO_REG) return F_NONE;
    int v;
    switch (f) {
    case F_MOV: case F_NOT: case F_CVTA: case F_CVTS: case F_CVTU: v = pattern(in, 1); break;
    case F_FFMA: case F_MADLO: case F_MADLO32: case F_MADWU: case F_MADWS: v = pattern(in, 3); break;
    case F_SELP:
        if (plain(&in->src[2]) != 1) return F_NONE;
        v = pattern(in, 2);
        break;
    default: v = pattern(in, 2); break;
    }
    return v < 0 ? F_NONE : (uint8_t)(f + (unsigned)v);
}

void ws_exec_fast_forms(struct ws_kernel *k)
{
    for (uint32_t i = 0; i < k->ninsts; i++) k->insts[i].fast = ws_exec_fast_form(&k->insts[i]);
}
