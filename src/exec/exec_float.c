/*
 * Floating-point instructions on f32/f64: add sub mul fma mad div rcp sqrt
 * rsqrt ex2 lg2 sin cos abs neg min max copysign testp.
 *
 * IEEE forms (.rn/.rz/.rm/.rp, default .rn) compute in the type with the
 * host's rounding mode set accordingly; .approx/.full forms are computed in
 * double with libm and rounded to the type (deterministic, well within the
 * PTX error bounds). mad is fused (as mad.rn.f32 on sm_20+). .ftz flushes
 * subnormal inputs and results to sign-preserving zero; .sat clamps to
 * [0, 1] with NaN -> 0; NaN results are canonical. min/max return the
 * non-NaN operand (canonical NaN if both are NaN) and order -0 < +0.
 */
#pragma GCC optimize("rounding-math")
#include <math.h>
#include "exec_internal.h"

static inline float fmin32(float a, float b, int mx)
{
    if (isnan(a)) return b;
    if (isnan(b)) return a;
    if (a == b) {  /* equal, possibly +0 / -0 */
        int sa = signbit(a) != 0;
        return mx ? (sa ? b : a) : (sa ? a : b);
    }
    return mx ? (a > b ? a : b) : (a < b ? a : b);
}
static inline double fmin64(double a, double b, int mx)
{
    if (isnan(a)) return b;
    if (isnan(b)) return a;
    if (a == b) {
        int sa = signbit(a) != 0;
        return mx ? (sa ? b : a) : (sa ? a : b);
    }
    return mx ? (a > b ? a : b) : (a < b ? a : b);
}

/* classification in the operand's own precision (an f32 subnormal is a
 * normal double) */
#define TESTP_BODY(v, op) \
    switch (op) { \
    case WS_TESTP_FINITE: return isfinite(v) != 0; \
    case WS_TESTP_INFINITE: return isinf(v) != 0;   /* glibc: -1 for -inf */ \
    case WS_TESTP_NUMBER: return !isnan(v); \
    case WS_TESTP_NOTANUMBER: return isnan(v) != 0; \
    case WS_TESTP_NORMAL: return isnormal(v) != 0; \
    case WS_TESTP_SUBNORMAL: return fpclassify(v) == FP_SUBNORMAL; \
    default: return 0; \
    }
static inline int testp32(float v, unsigned op) { TESTP_BODY(v, op) }
static inline int testp64(double v, unsigned op) { TESTP_BODY(v, op) }

static int exec_f32(ws_xctx *x)
{
    const ws_inst *in = x->in;
    const uint64_t E = x->exec;
    const int ftz = (in->mods & WS_MOD_FTZ) != 0, sat = (in->mods & WS_MOD_SAT) != 0;
    const int approx = (in->mods & (WS_MOD_APPROX | WS_MOD_FULL)) != 0;
    ws_src a = ws_opnd(x, &in->src[0], 0);
    ws_src b = ws_opnd(x, &in->src[1], 1);
    ws_src c = ws_opnd(x, &in->src[2], 2);
    uint64_t *d = ws_dst(x, &in->dst[0]);
    int old = ws_rnd_enter(in->rnd);

#define L1(expr) LANE_LOOP(E) { unsigned l = LANE; float A = ws_in32(SV(a, l), ftz); (void)A; d[l] = ws_out32((expr), ftz, sat); }
#define L2(expr) LANE_LOOP(E) { unsigned l = LANE; float A = ws_in32(SV(a, l), ftz), B = ws_in32(SV(b, l), ftz); d[l] = ws_out32((expr), ftz, sat); }
    switch (in->op) {
    case WS_OP_ADD: L2(A + B); break;
    case WS_OP_SUB: L2(A - B); break;
    case WS_OP_MUL: L2(A * B); break;
    case WS_OP_FMA:
    case WS_OP_MAD:
        LANE_LOOP(E) {
            unsigned l = LANE;
            float A = ws_in32(SV(a, l), ftz), B = ws_in32(SV(b, l), ftz), C = ws_in32(SV(c, l), ftz);
            d[l] = ws_out32(fmaf(A, B, C), ftz, sat);
        }
        break;
    case WS_OP_DIV:
        if (approx) { L2((float)((double)A / (double)B)); }
        else { L2(A / B); }
        break;
    case WS_OP_RCP:
        if (approx) { L1((float)(1.0 / (double)A)); }
        else { L1(1.0f / A); }
        break;
    case WS_OP_SQRT:
        if (approx) { L1((float)sqrt((double)A)); }
        else { L1(sqrtf(A)); }
        break;
    case WS_OP_RSQRT: L1((float)(1.0 / sqrt((double)A))); break;
    case WS_OP_EX2: L1((float)exp2((double)A)); break;
    case WS_OP_LG2: L1((float)log2((double)A)); break;
    case WS_OP_SIN: L1((float)sin((double)A)); break;
    case WS_OP_COS: L1((float)cos((double)A)); break;
    case WS_OP_TANH: L1((float)tanh((double)A)); break;
    case WS_OP_ABS:
        LANE_LOOP(E) { unsigned l = LANE; d[l] = ws_bits32(ws_in32(SV(a, l), ftz)) & 0x7fffffffu; }
        break;
    case WS_OP_NEG:
        LANE_LOOP(E) { unsigned l = LANE; d[l] = ws_bits32(ws_in32(SV(a, l), ftz)) ^ 0x80000000u; }
        break;
    case WS_OP_MIN: L2(fmin32(A, B, 0)); break;
    case WS_OP_MAX: L2(fmin32(A, B, 1)); break;
    case WS_OP_COPYSIGN:
        LANE_LOOP(E) {
            unsigned l = LANE;
            d[l] = ((SV(a, l) & 0x80000000u) | (SV(b, l) & 0x7fffffffu)) & 0xffffffffu;
        }
        break;
    case WS_OP_TESTP:
        LANE_LOOP(E) { unsigned l = LANE; d[l] = (uint64_t)testp32(ws_in32(SV(a, l), ftz), in->subop); }
        break;
    default:
        ws_rnd_leave(old);
        return ws_xfault(x, (unsigned)__builtin_ctzll(E), "%s.f32: not supported", ws_opcode_name(in->op));
    }
#undef L1
#undef L2
    ws_rnd_leave(old);
    return WS_EXEC_OK;
}

static int exec_f64(ws_xctx *x)
{
    const ws_inst *in = x->in;
    const uint64_t E = x->exec;
    const int ftz = (in->mods & WS_MOD_FTZ) != 0, sat = (in->mods & WS_MOD_SAT) != 0;
    ws_src a = ws_opnd(x, &in->src[0], 0);
    ws_src b = ws_opnd(x, &in->src[1], 1);
    ws_src c = ws_opnd(x, &in->src[2], 2);
    uint64_t *d = ws_dst(x, &in->dst[0]);
    int old = ws_rnd_enter(in->rnd);

#define L1(expr) LANE_LOOP(E) { unsigned l = LANE; double A = ws_in64(SV(a, l), ftz); d[l] = ws_out64((expr), ftz, sat); }
#define L2(expr) LANE_LOOP(E) { unsigned l = LANE; double A = ws_in64(SV(a, l), ftz), B = ws_in64(SV(b, l), ftz); d[l] = ws_out64((expr), ftz, sat); }
    switch (in->op) {
    case WS_OP_ADD: L2(A + B); break;
    case WS_OP_SUB: L2(A - B); break;
    case WS_OP_MUL: L2(A * B); break;
    case WS_OP_FMA:
    case WS_OP_MAD:
        LANE_LOOP(E) {
            unsigned l = LANE;
            double A = ws_in64(SV(a, l), ftz), B = ws_in64(SV(b, l), ftz), C = ws_in64(SV(c, l), ftz);
            d[l] = ws_out64(fma(A, B, C), ftz, sat);
        }
        break;
    case WS_OP_DIV: L2(A / B); break;
    case WS_OP_RCP: L1(1.0 / A); break;
    case WS_OP_SQRT: L1(sqrt(A)); break;
    case WS_OP_RSQRT: L1(1.0 / sqrt(A)); break;
    case WS_OP_EX2: L1(exp2(A)); break;
    case WS_OP_LG2: L1(log2(A)); break;
    case WS_OP_SIN: L1(sin(A)); break;
    case WS_OP_COS: L1(cos(A)); break;
    case WS_OP_ABS:
        LANE_LOOP(E) { unsigned l = LANE; d[l] = ws_bits64(ws_in64(SV(a, l), ftz)) & 0x7fffffffffffffffull; }
        break;
    case WS_OP_NEG:
        LANE_LOOP(E) { unsigned l = LANE; d[l] = ws_bits64(ws_in64(SV(a, l), ftz)) ^ 0x8000000000000000ull; }
        break;
    case WS_OP_MIN: L2(fmin64(A, B, 0)); break;
    case WS_OP_MAX: L2(fmin64(A, B, 1)); break;
    case WS_OP_COPYSIGN:
        LANE_LOOP(E) {
            unsigned l = LANE;
            d[l] = (SV(a, l) & 0x8000000000000000ull) | (SV(b, l) & 0x7fffffffffffffffull);
        }
        break;
    case WS_OP_TESTP:
        LANE_LOOP(E) { unsigned l = LANE; d[l] = (uint64_t)testp64(ws_in64(SV(a, l), ftz), in->subop); }
        break;
    default:
        ws_rnd_leave(old);
        return ws_xfault(x, (unsigned)__builtin_ctzll(E), "%s.f64: not supported", ws_opcode_name(in->op));
    }
#undef L1
#undef L2
    ws_rnd_leave(old);
    return WS_EXEC_OK;
}

int ws_exec_float(ws_xctx *x)
{
    switch (x->in->type) {
    case WS_TY_F32: return exec_f32(x);
    case WS_TY_F64: return exec_f64(x);
    case WS_TY_F16: case WS_TY_BF16: case WS_TY_F16X2: case WS_TY_BF16X2: return ws_exec_half(x);
    default:
        return ws_xfault(x, (unsigned)__builtin_ctzll(x->exec), "%s: float type %u not supported (f16/bf16/f32/f64 and the packed halves)",
                         ws_opcode_name(x->in->op), x->in->type);
    }
}
