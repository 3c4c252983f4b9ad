#ifndef WARPSWEEP_FP8_H
#define WARPSWEEP_FP8_H
/*
 * The 8-bit floating-point formats of PTX .e4m3 and .e5m2 (PTX ISA 5.2.5 "Alternate
 * Floating-Point Data Formats"), which are those of the OCP 8-bit Floating Point
 * Specification (OFP8) rev. 1.0, 2023:
 *   E4M3: 1 sign, 4 exponent (bias 7), 3 fraction bits; no infinities, S.1111.111 is NaN,
 *         largest finite 0x7e = 448, smallest subnormal 2^-9;
 *   E5M2: 1 sign, 5 exponent (bias 15), 2 fraction bits; IEEE 754-like: S.11111.00 is
 *         infinity, S.11111.{01,10,11} NaN, largest finite 0x7b = 57344, smallest
 *         subnormal 2^-16.
 * Conversions into them (cvt ... .satfinite, PTX ISA 9.7.9.21) round to nearest even with
 * subnormals and clamp finite results beyond the largest finite value (and infinities) to
 * it; a NaN stays NaN: E4M3 0x7f, E5M2 0x7e | the two leading fraction bits of the source
 * (its quiet bit set), with the source's sign, as the host path of CUDA's cuda_fp8.hpp
 * (__nv_cvt_double_to_fp8, which mirrors the sm_89 instruction) encodes it.
 */
#include <stdint.h>
#include <math.h>

static inline int ws_fp8_mbits(int e5m2) { return e5m2 ? 2 : 3; }
static inline int ws_fp8_bias(int e5m2) { return e5m2 ? 15 : 7; }
static inline uint8_t ws_fp8_maxfinite(int e5m2) { return e5m2 ? 0x7b : 0x7e; }

static inline int ws_fp8_isnan(uint8_t v, int e5m2)
{
    return e5m2 ? (v & 0x7f) > 0x7c : (v & 0x7f) == 0x7f;
}

/* The exact value of an FP8 code (every FP8 value is a double); NaN codes give NAN. */
static inline double ws_fp8_value(uint8_t v, int e5m2)
{
    const int mb = ws_fp8_mbits(e5m2), bias = ws_fp8_bias(e5m2);
    const unsigned e = (v & 0x7fu) >> mb, f = v & ((1u << mb) - 1);
    double a;
    if (ws_fp8_isnan(v, e5m2)) return NAN;
    if (e5m2 && (v & 0x7f) == 0x7c) a = INFINITY;
    else if (e == 0) a = ldexp((double)f, 1 - bias - mb);
    else a = ldexp((double)(f | (1u << mb)), (int)e - bias - mb);
    return (v & 0x80) ? -a : a;
}

/* v (exact, or rounded to odd in at least 6 more bits) to FP8, round-to-nearest-even,
 * satfinite. nan_frac2: the two leading fraction bits of the source when v is a NaN
 * (E5M2 keeps them). */
static inline uint8_t ws_fp8_round(double v, int e5m2, unsigned nan_frac2)
{
    const int mb = ws_fp8_mbits(e5m2), bias = ws_fp8_bias(e5m2), emin = 1 - bias;
    const uint8_t sign = signbit(v) ? 0x80 : 0, maxf = ws_fp8_maxfinite(e5m2);
    if (isnan(v)) return (uint8_t)(sign | (e5m2 ? 0x7e | (nan_frac2 & 1) : 0x7f));
    double a = fabs(v);
    if (isinf(a)) return (uint8_t)(sign | maxf);
    if (a == 0.0) return sign;
    int ex;
    frexp(a, &ex);
    ex -= 1;                                   /* a = 1.f * 2^ex */
    if (ex > 16) return (uint8_t)(sign | maxf);   /* far beyond both formats */
    const int qexp = (ex < emin ? emin : ex) - mb;   /* the weight of the last fraction bit */
    double q = ldexp(a, -qexp), n = floor(q), frac = q - n;
    unsigned m = (unsigned)n + (frac > 0.5 || (frac == 0.5 && fmod(n, 2.0) != 0));
    /* subnormal: the bits are m (m == 2^mb is the smallest normal, encoded alike); normal:
     * the exponent field plus the fraction, a carry out of the fraction steps the exponent */
    unsigned bits = ex < emin ? m : ((unsigned)(ex + bias) << mb) + (m - (1u << mb));
    if (bits > maxf) bits = maxf;
    return (uint8_t)(sign | bits);
}

#endif
