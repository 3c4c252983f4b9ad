/*
 * cvt between all integer and float types (in->type = destination,
 * in->type2 = source), per the PTX ISA:
 *  - int -> int: sign-/zero-extension from the source type, truncation to the
 *    destination; .sat clamps to the destination range.
 *  - float -> int: .rni/.rzi/.rmi/.rpi (.rzi when none is given; .rn/.rz/...
 *    are taken as their integer forms), always saturating to the destination
 *    range (PTX: .sat is implied; +-inf give the range's ends); NaN -> 0 when
 *    neither the source is .f64 nor the destination .s64/.u64, else
 *    1 << (bits - 1) (PTX ISA, cvt, Integer Notes; the CUDA Math API's
 *    __half2ll_rz(NaN) = 0x8000000000000000 agrees); .ftz flushes a subnormal
 *    f32 input.
 *  - int -> float: .rn (default) / .rz / .rm / .rp.
 *  - f32 -> f64 exact; f64 -> f32 with the rounding mode; same-type with an
 *    integer rounding rounds to an integral value; .ftz and .sat as for
 *    arithmetic.
 * A signed destination narrower than its register is sign-extended to the
 * register's declared size.
 *
 * Half types (.f16 .bf16, PTX ISA 9.7.9.21): into a half, the exact source
 * value (an integer above 2^53 rounded to odd) is rounded once with .rn (the
 * default) .rz .rm .rp -- round-to-nearest-even is bit-exact -- or, half to
 * half, to an integral value with .rni .rzi .rmi .rpi; .sat clamps to [0, 1],
 * .relu negative results to +0, NaN becomes the canonical 0x7fff. Out of a
 * half, the value is exact in f32/f64 and rounded as any float for integers.
 * cvt.rn{.relu}.f16x2.f32 / .bf16x2.f32 d, a, b puts cvt(a) in the upper half
 * of d and cvt(b) in the lower half.
 */
#pragma GCC optimize("rounding-math")
#include <math.h>
#include "exec_internal.h"
#include "warpsweep/half.h"

static inline double round_int(double v, unsigned rnd)
{
    switch (rnd) {
    case WS_RND_RNI: case WS_RND_RN: return nearbyint(v);   /* ties to even under the default mode */
    case WS_RND_RMI: case WS_RND_RM: return floor(v);
    case WS_RND_RPI: case WS_RND_RP: return ceil(v);
    default: return trunc(v);
    }
}

/* NaN into an integer (PTX ISA, cvt, Integer Notes): "Zero if source is not .f64 and
 * destination is not .s64, .u64. Otherwise 1 << (BitWidth(dst) - 1)" (MININT for a signed
 * destination, (MAXINT >> 1) + 1 for an unsigned one) */
static inline uint64_t f2i_nan(unsigned bits, int src_f64)
{
    return src_f64 || bits == 64 ? 1ull << (bits - 1) : 0;
}

static inline uint64_t f2i(double r, unsigned dt, int src_f64)
{
    unsigned bits = ws_ty_bits[dt];
    if (isnan(r)) return f2i_nan(bits, src_f64);
    if (ws_ty_signed[dt]) {
        double lim = ldexp(1.0, (int)bits - 1);
        int64_t hi = (int64_t)ws_mask_bits(bits - 1);
        if (r >= lim) return (uint64_t)hi;
        if (r < -lim) return (uint64_t)(-hi - 1);
        return (uint64_t)(int64_t)r;
    } else {
        double lim = ldexp(1.0, (int)bits);
        if (r <= 0.0) return 0;
        if (r >= lim) return ws_mask_bits(bits);
        return (uint64_t)r;
    }
}

/* the source value of lane l as a double: exact, or rounded to odd for a 64-bit integer */
static inline double cvt_source(uint64_t v, unsigned st, int ftz)
{
    if (ws_ty_half(st)) return ws_half_value(v, st, 0, 0);
    if (st == WS_TY_F32) return (double)ws_in32(v, ftz);
    if (st == WS_TY_F64) return ws_in64(v, ftz);
    if (ws_ty_signed[st]) {
        int64_t s = (int64_t)ws_ext(v, st);
        return ws_int_odd(s < 0 ? 0 - (uint64_t)s : (uint64_t)s, s < 0);
    }
    return ws_int_odd(ws_ext(v, st), 0);
}

static inline uint64_t to_half(double f, unsigned dt, unsigned rnd, int sat, int relu)
{
    int bf = dt == WS_TY_BF16 || dt == WS_TY_BF16X2;
    if (isnan(f)) return sat ? 0 : WS_F16_QNAN;
    if (rnd >= WS_RND_RNI) f = round_int(f, rnd);
    if (sat) { if (!(f > 0.0)) f = 0.0; else if (f > 1.0) f = 1.0; }
    if (relu && f < 0.0) f = 0.0;
    return ws_half_round(f, bf, rnd >= WS_RND_RNI ? WS_RND_RN : rnd);
}

static int cvt_half(ws_xctx *x)
{
    const ws_inst *in = x->in;
    const unsigned dt = in->type, st = in->type2 ? in->type2 : in->type;
    const int ftz = (in->mods & WS_MOD_FTZ) != 0, sat = (in->mods & WS_MOD_SAT) != 0;
    const int relu = (in->mods & WS_MOD_RELU) != 0;
    ws_src a = ws_opnd(x, &in->src[0], 0);
    uint64_t *d = ws_dst(x, &in->dst[0]);
    if (ws_ty_pair(dt)) {
        ws_src b = ws_opnd(x, &in->src[1], 1);
        LANE_LOOP(x->exec) {
            unsigned l = LANE;
            d[l] = to_half(cvt_source(SV(a, l), st, ftz), dt, in->rnd, sat, relu) << 16 |
                   to_half(cvt_source(SV(b, l), st, ftz), dt, in->rnd, sat, relu);
        }
        return WS_EXEC_OK;
    }
    if (ws_ty_half(dt)) {
        LANE_LOOP(x->exec) { unsigned l = LANE; d[l] = to_half(cvt_source(SV(a, l), st, ftz), dt, in->rnd, sat, relu); }
        return WS_EXEC_OK;
    }
    /* out of a half: f32/f64 exactly, integers as from any float */
    const unsigned dbits = ws_ty_bits[dt];
    unsigned rbits = in->dst[0].kind == WS_OK_REG ? ws_reg_bits(x, in->dst[0].reg) : dbits;
    int rext = !ws_ty_float[dt] && ws_ty_signed[dt] && rbits > dbits;
    LANE_LOOP(x->exec) {
        unsigned l = LANE;
        double f = ws_half_value(SV(a, l), st, 0, 0);
        if (dt == WS_TY_F32) { d[l] = ws_out32((float)f, ftz, sat); continue; }
        if (dt == WS_TY_F64) { d[l] = ws_out64(f, ftz, sat); continue; }
        uint64_t v = f2i(round_int(f, in->rnd), dt, 0) & ws_mask_bits(dbits);
        d[l] = rext ? (uint64_t)ws_sext(v, dbits) & ws_mask_bits(rbits) : v;
    }
    return WS_EXEC_OK;
}

/* cvt.rna.tf32.f32 (PTX ISA 9.7.9.21): a to tf32 (8 exponent bits, 10 fraction bits) rounding
 * to nearest, ties away from zero, held as an f32 bit pattern whose low 13 bits are zero.
 * Adding half a tf32 ulp to the magnitude bits and truncating is exactly that rounding
 * (a carry out of the fraction bumps the exponent; the largest values round to infinity).
 * A NaN becomes the canonical NaN 0x7fffffff (the model's choice: rounding its payload
 * could turn it into an infinity). */
static int cvt_tf32(ws_xctx *x)
{
    ws_src a = ws_opnd(x, &x->in->src[0], 0);
    uint64_t *d = ws_dst(x, &x->in->dst[0]);
    LANE_LOOP(x->exec) {
        unsigned l = LANE;
        uint32_t b = (uint32_t)SV(a, l);
        d[l] = (b & 0x7fffffffu) > 0x7f800000u ? 0x7fffffffu : ((b + 0x1000u) & 0xffffe000u);
    }
    return WS_EXEC_OK;
}

int ws_exec_cvt(ws_xctx *x)
{
    if (x->in->subop == WS_CVT_TF32_RNA) return cvt_tf32(x);
    const ws_inst *in = x->in;
    const unsigned dt = in->type, st = in->type2 ? in->type2 : in->type;
    const uint64_t E = x->exec;
    const int ftz = (in->mods & WS_MOD_FTZ) != 0, sat = (in->mods & WS_MOD_SAT) != 0;
    const unsigned dbits = ws_ty_bits[dt];
    const uint64_t DM = ws_mask_bits(dbits);
    const int dfl = ws_ty_float[dt], sfl = ws_ty_float[st];

    if (ws_ty_half(dt) || ws_ty_half(st)) return cvt_half(x);

    ws_src a = ws_opnd(x, &in->src[0], 0);
    uint64_t *d = ws_dst(x, &in->dst[0]);
    /* register extension for a signed destination narrower than its register */
    unsigned rbits = in->dst[0].kind == WS_OK_REG ? ws_reg_bits(x, in->dst[0].reg) : dbits;
    int rext = !dfl && ws_ty_signed[dt] && rbits > dbits;
    uint64_t RM = ws_mask_bits(rbits);

    if (!dfl && !sfl) {                       /* int -> int */
        int ss = ws_ty_signed[st], ds = ws_ty_signed[dt];
        __int128 lo = ds ? -(__int128)ws_mask_bits(dbits - 1) - 1 : 0;
        __int128 hi = ds ? (__int128)ws_mask_bits(dbits - 1) : (__int128)DM;
        LANE_LOOP(E) {
            unsigned l = LANE;
            uint64_t v = ws_ext(SV(a, l), st);
            if (sat) {
                __int128 s = ss ? (__int128)(int64_t)v : (__int128)v;
                if (s < lo) s = lo;
                if (s > hi) s = hi;
                v = (uint64_t)s;
            }
            v &= DM;
            d[l] = rext ? (uint64_t)ws_sext(v, dbits) & RM : v;
        }
        return WS_EXEC_OK;
    }
    if (!dfl && sfl) {                        /* float -> int */
        unsigned rnd = in->rnd;
        LANE_LOOP(E) {
            unsigned l = LANE;
            double f = st == WS_TY_F32 ? (double)ws_in32(SV(a, l), ftz) : ws_in64(SV(a, l), ftz);
            uint64_t v = f2i(round_int(f, rnd), dt, st == WS_TY_F64) & DM;
            d[l] = rext ? (uint64_t)ws_sext(v, dbits) & RM : v;
        }
        return WS_EXEC_OK;
    }
    if (dfl && !sfl) {                        /* int -> float */
        int ss = ws_ty_signed[st];
        int old = ws_rnd_enter(in->rnd);
        if (dt == WS_TY_F32) {
            if (ss) { LANE_LOOP(E) { unsigned l = LANE; volatile float r = (float)(int64_t)ws_ext(SV(a, l), st); d[l] = ws_out32(r, ftz, sat); } }
            else { LANE_LOOP(E) { unsigned l = LANE; volatile float r = (float)ws_ext(SV(a, l), st); d[l] = ws_out32(r, ftz, sat); } }
        } else {
            if (ss) { LANE_LOOP(E) { unsigned l = LANE; volatile double r = (double)(int64_t)ws_ext(SV(a, l), st); d[l] = ws_out64(r, ftz, sat); } }
            else { LANE_LOOP(E) { unsigned l = LANE; volatile double r = (double)ws_ext(SV(a, l), st); d[l] = ws_out64(r, ftz, sat); } }
        }
        ws_rnd_leave(old);
        return WS_EXEC_OK;
    }
    /* float -> float */
    unsigned rnd = in->rnd;
    int intround = rnd >= WS_RND_RNI;
    if (st == WS_TY_F64 && dt == WS_TY_F32 && !intround) {
        int old = ws_rnd_enter(rnd);
        LANE_LOOP(E) {
            unsigned l = LANE;
            volatile float r = (float)ws_in64(SV(a, l), 0);
            d[l] = ws_out32(r, ftz, sat);
        }
        ws_rnd_leave(old);
        return WS_EXEC_OK;
    }
    LANE_LOOP(E) {
        unsigned l = LANE;
        double f = st == WS_TY_F32 ? (double)ws_in32(SV(a, l), ftz) : ws_in64(SV(a, l), ftz);
        if (intround) f = round_int(f, rnd);
        d[l] = dt == WS_TY_F32 ? ws_out32((float)f, ftz, sat) : ws_out64(f, ftz, sat);
    }
    return WS_EXEC_OK;
}
