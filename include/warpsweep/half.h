#ifndef WARPSWEEP_HALF_H
#define WARPSWEEP_HALF_H
/*
 * IEEE 754 binary16 (PTX .f16: 1 sign, 5 exponent, 10 fraction bits) and
 * bfloat16 (PTX .bf16: 1, 8, 7 -- the upper half of an f32), PTX ISA 5.2.1
 * and 9.7.4. Values travel as their 16 raw bits; the packed .f16x2/.bf16x2
 * hold element 0 in bits 15:0 and element 1 in bits 31:16.
 *
 * Rounding into a half type goes through one function, ws_half_round, from
 * a double. Its input must be the exact value, or the value rounded to odd
 * (ws_sum_odd): a double has 53 significant bits, at least two more than a
 * half, so a round-to-odd intermediate followed by any rounding into the
 * half is the correctly rounded result (Boldo and Melquiond, "Emulation of
 * FMA and correctly rounded sums: proved algorithms using rounding to odd",
 * IEEE Trans. Computers 57(4), 2008).
 */
#include <stdint.h>
#include <string.h>
#include <math.h>

enum { WS_HALF_F16 = 0, WS_HALF_BF16 = 1 };
/* rounding: WS_RND_RN/RZ/RM/RP (ptx.h); anything else is round-to-nearest-even */

#define WS_F16_QNAN  0x7fffu   /* the canonical NaN the PTX ISA gives half results */
#define WS_BF16_QNAN 0x7fffu

static inline int ws_half_ebits(int bf) { return bf ? 8 : 5; }
static inline int ws_half_mbits(int bf) { return bf ? 7 : 10; }

static inline int ws_half_isnan(uint16_t h, int bf)
{
    int m = ws_half_mbits(bf);
    uint16_t e = (uint16_t)(((1u << ws_half_ebits(bf)) - 1) << m);
    return (h & e) == e && (h & ((1u << m) - 1)) != 0;
}
static inline int ws_half_issub(uint16_t h, int bf)
{
    int m = ws_half_mbits(bf);
    uint16_t e = (uint16_t)(((1u << ws_half_ebits(bf)) - 1) << m);
    return (h & e) == 0 && (h & ((1u << m) - 1)) != 0;
}

/* The exact value of a half (every half is a double). */
static inline double ws_half_to_double(uint16_t h, int bf)
{
    int mb = ws_half_mbits(bf), eb = ws_half_ebits(bf);
    int bias = (1 << (eb - 1)) - 1;
    unsigned e = (h >> mb) & ((1u << eb) - 1), f = h & ((1u << mb) - 1);
    double v;
    if (e == (1u << eb) - 1) v = f ? NAN : INFINITY;
    else if (e == 0) v = ldexp((double)f, 1 - bias - mb);
    else v = ldexp((double)(f | (1u << mb)), (int)e - bias - mb);
    return (h & 0x8000u) ? -v : v;
}

/* v rounded into the half type bf with rounding rnd (1 rn, 2 rz, 3 rm, 4 rp:
 * ws_rnd's values); NaN -> the canonical NaN, overflow -> inf or the largest
 * finite value as the rounding direction says (IEEE 754 7.4). */
static inline uint16_t ws_half_round(double v, int bf, unsigned rnd)
{
    const int mb = ws_half_mbits(bf), eb = ws_half_ebits(bf);
    const int bias = (1 << (eb - 1)) - 1, emin = 1 - bias;
    const uint64_t inf = (uint64_t)((1u << eb) - 1) << mb;
    if (isnan(v)) return (uint16_t)(bf ? WS_BF16_QNAN : WS_F16_QNAN);
    uint16_t sign = signbit(v) ? 0x8000u : 0;
    double a = fabs(v);
    int neg = sign != 0;
    /* overflow goes to inf unless the rounding is towards zero for this sign */
    int to_inf = rnd == 2 ? 0 : rnd == 3 ? neg : rnd == 4 ? !neg : 1;
    if (isinf(a)) return (uint16_t)(sign | inf);
    if (a == 0.0) return sign;
    int ex;
    frexp(a, &ex);
    ex -= 1;                                   /* a = 1.f * 2^ex */
    int qexp = (ex < emin ? emin : ex) - mb;   /* the weight of the last fraction bit */
    if (ex > bias + 1) return (uint16_t)(sign | (to_inf ? inf : inf - 1));
    double q = ldexp(a, -qexp);                /* exact: a power-of-two scaling */
    double n = floor(q), frac = q - n;
    int up;
    switch (rnd) {
    case 2: up = 0; break;
    case 3: up = neg && frac > 0; break;
    case 4: up = !neg && frac > 0; break;
    default: up = frac > 0.5 || (frac == 0.5 && fmod(n, 2.0) != 0); break;
    }
    uint64_t m = (uint64_t)n + (uint64_t)up;
    /* subnormal: the bits are m (m == 2^mb is the smallest normal, encoded
     * alike); normal: the exponent field plus the fraction, a carry out of
     * the fraction steps the exponent */
    uint64_t bits = ex < emin ? m : ((uint64_t)(ex + bias) << mb) + (m - (1ull << mb));
    if (bits >= inf) return (uint16_t)(sign | (to_inf ? inf : inf - 1));
    return (uint16_t)(sign | bits);
}

/* a + b rounded to odd: the exact sum when it is a double, else the
 * truncated sum with its last bit set (TwoSum, Knuth TAOCP 4.2.2; needs the
 * host in round-to-nearest). */
static inline double ws_sum_odd(double a, double b)
{
    double s = a + b;
    if (isinf(s) || isnan(s)) return s;
    double bb = s - a;
    double err = (a - (s - bb)) + (b - bb);
    if (err == 0.0) return s;
    if ((err < 0) != (s < 0) && s != 0.0) s = nextafter(s, 0.0);   /* s was rounded away from zero */
    uint64_t u;
    memcpy(&u, &s, 8);
    u |= 1;
    memcpy(&s, &u, 8);
    return s;
}

/* An integer value as a double rounded to odd (exact below 2^53). */
static inline double ws_int_odd(uint64_t mag, int neg)
{
    int sh = 0;
    while ((mag >> sh) >= (1ull << 53)) sh++;
    uint64_t m = mag >> sh;
    if (sh && (mag & ((1ull << sh) - 1))) m |= 1;
    double d = ldexp((double)m, sh);
    return neg ? -d : d;
}

#endif
