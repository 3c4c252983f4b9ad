/*
 * Half-precision arithmetic (PTX ISA 9.7.4): add sub mul fma neg abs min max
 * ex2.approx tanh.approx on .f16 .bf16 .f16x2 .bf16x2.
 *
 * Each element is computed exactly (sums and products of two halves are
 * doubles) or rounded to odd (ws_sum_odd: fma, and bf16 sums whose exponents
 * lie far apart) and then rounded once into the half type, so every result is
 * the correctly rounded one (include/warpsweep/half.h). The ISA gives these
 * instructions only .rn. The modifiers:
 *   .ftz   subnormal inputs and results become a zero of the same sign
 *   .sat   the result is clamped to [0, 1], NaN becomes +0
 *   .relu  a negative result becomes +0 (fma, min, max; NaN stays NaN)
 *   .NaN   min/max: a NaN operand gives the canonical NaN (without it, the
 *          other operand; both NaN -> canonical NaN), -0 orders below +0
 * NaN results are the canonical 0x7fff. neg/abs flip or clear the sign bit.
 * ex2/tanh are computed in double and rounded to the type: deterministic and
 * within the ISA's error bounds for .approx.
 */
#include <math.h>
#include "exec_internal.h"
#include "warpsweep/half.h"

typedef struct hmode { int bf, ftz, sat, relu, nan; } hmode;

static inline uint16_t hflush(uint16_t h, const hmode *m)
{
    return m->ftz && ws_half_issub(h, m->bf) ? (uint16_t)(h & 0x8000u) : h;
}

static inline double hin(uint16_t h, const hmode *m) { return ws_half_to_double(hflush(h, m), m->bf); }

/* r: the exact result or its round-to-odd double */
static inline uint16_t hout(double r, const hmode *m)
{
    if (isnan(r)) return m->sat ? 0 : WS_F16_QNAN;   /* .sat: NaN -> +0 */
    if (m->sat) { if (!(r > 0.0)) r = 0.0; else if (r > 1.0) r = 1.0; }
    if (m->relu && r < 0.0) r = 0.0;
    return hflush(ws_half_round(r, m->bf, WS_RND_RN), m);
}

/* min/max select an operand: no rounding */
static inline uint16_t hminmax(uint16_t a, uint16_t b, int mx, const hmode *m)
{
    a = hflush(a, m);
    b = hflush(b, m);
    int na = ws_half_isnan(a, m->bf), nb = ws_half_isnan(b, m->bf);
    uint16_t r;
    if (na && nb) return WS_F16_QNAN;
    if ((na || nb) && m->nan) return WS_F16_QNAN;
    if (na) r = b;
    else if (nb) r = a;
    else {
        double x = ws_half_to_double(a, m->bf), y = ws_half_to_double(b, m->bf);
        int a_first;   /* a orders before b */
        if (x == y) a_first = (a & 0x8000u) != 0;   /* -0 < +0 */
        else a_first = x < y;
        r = (a_first != mx) ? a : b;
    }
    if (m->relu && (r & 0x8000u) && !ws_half_isnan(r, m->bf)) r = 0;
    return r;
}

static uint16_t helem(unsigned op, uint16_t a, uint16_t b, uint16_t c, const hmode *m)
{
    switch (op) {
    case WS_OP_ADD: return hout(ws_sum_odd(hin(a, m), hin(b, m)), m);
    case WS_OP_SUB: return hout(ws_sum_odd(hin(a, m), -hin(b, m)), m);
    case WS_OP_MUL: return hout(hin(a, m) * hin(b, m), m);   /* 22 (bf16: 16) significant bits: exact */
    case WS_OP_FMA: case WS_OP_MAD: return hout(ws_sum_odd(hin(a, m) * hin(b, m), hin(c, m)), m);
    case WS_OP_NEG: return (uint16_t)(hflush(a, m) ^ 0x8000u);
    case WS_OP_ABS: return (uint16_t)(hflush(a, m) & 0x7fffu);
    case WS_OP_MIN: return hminmax(a, b, 0, m);
    case WS_OP_MAX: return hminmax(a, b, 1, m);
    case WS_OP_EX2: return hout(exp2(hin(a, m)), m);
    case WS_OP_TANH: return hout(tanh(hin(a, m)), m);
    default: return WS_F16_QNAN;
    }
}

int ws_exec_half(ws_xctx *x)
{
    const ws_inst *in = x->in;
    const unsigned t = in->type;
    hmode m = { t == WS_TY_BF16 || t == WS_TY_BF16X2, (in->mods & WS_MOD_FTZ) != 0, (in->mods & WS_MOD_SAT) != 0,
                (in->mods & WS_MOD_RELU) != 0, (in->mods & WS_MOD_NAN) != 0 };
    const int pairs = t == WS_TY_F16X2 || t == WS_TY_BF16X2;
    switch (in->op) {
    case WS_OP_ADD: case WS_OP_SUB: case WS_OP_MUL: case WS_OP_FMA: case WS_OP_MAD: case WS_OP_NEG:
    case WS_OP_ABS: case WS_OP_MIN: case WS_OP_MAX: case WS_OP_EX2: case WS_OP_TANH: break;
    default:
        return ws_xfault(x, (unsigned)__builtin_ctzll(x->exec), "%s.%s: not supported", ws_opcode_name(in->op),
                         ws_type_name((ws_type)t));
    }
    ws_src a = ws_opnd(x, &in->src[0], 0);
    ws_src b = ws_opnd(x, &in->src[1], 1);
    ws_src c = ws_opnd(x, &in->src[2], 2);
    uint64_t *d = ws_dst(x, &in->dst[0]);
    const unsigned op = in->op;
    LANE_LOOP(x->exec) {
        unsigned l = LANE;
        uint64_t va = SV(a, l), vb = SV(b, l), vc = SV(c, l);
        uint64_t r = helem(op, (uint16_t)va, (uint16_t)vb, (uint16_t)vc, &m);
        if (pairs)
            r |= (uint64_t)helem(op, (uint16_t)(va >> 16), (uint16_t)(vb >> 16), (uint16_t)(vc >> 16), &m) << 16;
        d[l] = r;
    }
    return WS_EXEC_OK;
}

/* atom.add.noftz on a half type (PTX ISA 9.7.13.5): element-wise, .rn, no flushing */
uint64_t ws_half_atom_add(uint64_t old, uint64_t v, unsigned t)
{
    hmode m = { t == WS_TY_BF16 || t == WS_TY_BF16X2, 0, 0, 0, 0 };
    uint64_t r = helem(WS_OP_ADD, (uint16_t)old, (uint16_t)v, 0, &m);
    if (t == WS_TY_F16X2 || t == WS_TY_BF16X2)
        r |= (uint64_t)helem(WS_OP_ADD, (uint16_t)(old >> 16), (uint16_t)(v >> 16), 0, &m) << 16;
    return r;
}

/* the value of element e (0: bits 15:0, 1: bits 31:16) of a half type, for setp/set/cvt */
double ws_half_value(uint64_t v, unsigned t, unsigned e, int ftz)
{
    hmode m = { t == WS_TY_BF16 || t == WS_TY_BF16X2, ftz, 0, 0, 0 };
    return hin((uint16_t)(v >> (16 * e)), &m);
}
