/*
 * The FP8 conversions of cvt (PTX ISA 9.7.9.21, sm_89 / PTX ISA 7.8+):
 *   cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f32   d, a, b   d = {fp8(a) in bits 15:8, fp8(b) in 7:0}
 *   cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f16x2 d, a      the halves of a, element for element
 *   cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.bf16x2 d, a     likewise (PTX ISA 9.1, sm_100f)
 *   cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2}           d, a      the bytes of a, element for element
 * Encoding and rounding: include/warpsweep/fp8.h (OCP OFP8 rules, round-to-nearest-even,
 * satfinite). .relu (PTX ISA: "clamps the result to 0 if negative; NaN results are converted
 * to canonical NaN") makes a negative result +0 and a NaN the canonical NaN (E4M3/E5M2 0x7f,
 * f16 0x7fff). Decoding is exact (every FP8 value is an f16); a NaN becomes the canonical f16
 * NaN 0x7fff, as cuda_fp8.hpp's __nv_cvt_fp8_to_halfraw documents.
 */
#include "exec_internal.h"
#include "warpsweep/half.h"
#include "warpsweep/fp8.h"

static int is_fp8x2(unsigned t) { return t == WS_TY_E4M3X2 || t == WS_TY_E5M2X2; }

/* one element into FP8; nan_frac2: the source's two leading fraction bits */
static uint64_t to_fp8(double v, int e5m2, unsigned nan_frac2, int relu)
{
    if (relu && isnan(v)) return 0x7f;
    if (relu && v < 0.0) v = 0.0;
    return ws_fp8_round(v, e5m2, nan_frac2);
}

static uint64_t from_fp8(uint8_t b, int e5m2, int relu)
{
    double v = ws_fp8_value(b, e5m2);
    if (isnan(v)) return WS_F16_QNAN;
    if (relu && v < 0.0) v = 0.0;
    return ws_half_round(v, WS_HALF_F16, WS_RND_RN);   /* exact */
}

static uint64_t f32_to_fp8(uint64_t bits, int e5m2, int relu)
{
    return to_fp8((double)ws_f32(bits), e5m2, (unsigned)(bits >> 21) & 3, relu);
}

/* a half (bf: bfloat16) to FP8; its two leading fraction bits are bits 9:8 (bf16: 6:5) */
static uint64_t half_to_fp8(uint64_t h, int bf, int e5m2, int relu)
{
    h &= 0xffff;
    return to_fp8(ws_half_to_double((uint16_t)h, bf), e5m2, (unsigned)(h >> (bf ? 5 : 8)) & 3, relu);
}

int ws_exec_cvt_fp8(ws_xctx *x)
{
    const ws_inst *in = x->in;
    const int relu = (in->mods & WS_MOD_RELU) != 0;
    ws_src a = ws_opnd(x, &in->src[0], 0);
    uint64_t *d = ws_dst(x, &in->dst[0]);
    if (is_fp8x2(in->type2)) {   /* f16x2 <- f8x2 */
        const int e5 = in->type2 == WS_TY_E5M2X2;
        LANE_LOOP(x->exec) {
            unsigned l = LANE;
            uint64_t v = SV(a, l);
            d[l] = from_fp8((uint8_t)(v >> 8), e5, relu) << 16 | from_fp8((uint8_t)v, e5, relu);
        }
        return WS_EXEC_OK;
    }
    const int e5 = in->type == WS_TY_E5M2X2;
    if (in->type2 == WS_TY_F16X2 || in->type2 == WS_TY_BF16X2) {
        const int bf = in->type2 == WS_TY_BF16X2;
        LANE_LOOP(x->exec) {
            unsigned l = LANE;
            uint64_t v = SV(a, l);
            d[l] = half_to_fp8(v >> 16, bf, e5, relu) << 8 | half_to_fp8(v, bf, e5, relu);
        }
        return WS_EXEC_OK;
    }
    ws_src b = ws_opnd(x, &in->src[1], 1);
    LANE_LOOP(x->exec) {
        unsigned l = LANE;
        d[l] = f32_to_fp8(SV(a, l), e5, relu) << 8 | f32_to_fp8(SV(b, l), e5, relu);
    }
    return WS_EXEC_OK;
}
