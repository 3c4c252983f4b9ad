/*
 * cvt between all integer and float types (in->type = destination,
 * in->type2 = source), per the PTX ISA:
 *  - int -> int: sign-/zero-extension from the source type, truncation to the
 *    destination; .sat clamps to the destination range.
 *  - float -> int: .rni/.rzi/.rmi/.rpi (.rzi when none is given; .rn/.rz/...
 *    are taken as their integer forms), NaN -> 0, always saturating to the
 *    destination range (PTX: .sat is implied); .ftz flushes a subnormal f32 input.
 *  - int -> float: .rn (default) / .rz / .rm / .rp.
 *  - f32 -> f64 exact; f64 -> f32 with the rounding mode; same-type with an
 *    integer rounding rounds to an integral value; .ftz and .sat as for
 *    arithmetic.
 * A signed destination narrower than its register is sign-extended to the
 * register's declared size.
 */
#pragma GCC optimize("rounding-math")
#include <math.h>
#include "exec_internal.h"

static inline double round_int(double v, unsigned rnd)
{
    switch (rnd) {
    case WS_RND_RNI: case WS_RND_RN: return nearbyint(v);   /* ties to even under the default mode */
    case WS_RND_RMI: case WS_RND_RM: return floor(v);
    case WS_RND_RPI: case WS_RND_RP: return ceil(v);
    default: return trunc(v);
    }
}

static inline uint64_t f2i(double r, unsigned dt)
{
    unsigned bits = ws_ty_bits[dt];
    if (isnan(r)) return 0;
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

int ws_exec_cvt(ws_xctx *x)
{
    const ws_inst *in = x->in;
    const unsigned dt = in->type, st = in->type2 ? in->type2 : in->type;
    const uint64_t E = x->exec;
    const int ftz = (in->mods & WS_MOD_FTZ) != 0, sat = (in->mods & WS_MOD_SAT) != 0;
    const unsigned dbits = ws_ty_bits[dt];
    const uint64_t DM = ws_mask_bits(dbits);
    const int dfl = ws_ty_float[dt], sfl = ws_ty_float[st];

    if (dt == WS_TY_F16 || st == WS_TY_F16)
        return ws_xfault(x, (unsigned)__builtin_ctzll(E), "cvt with .f16 not supported");

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
            uint64_t v = f2i(round_int(f, rnd), dt) & DM;
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
