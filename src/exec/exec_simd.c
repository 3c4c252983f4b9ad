/*
 * Sub-word and bit-manipulation instructions of sm_61 and later, as NVIDIA's
 * PTX ISA defines them (section numbers of PTX ISA 8.x):
 *   dp4a, dp2a        9.7.1.26/27  integer dot products of packed bytes/halves
 *   fns               9.7.1.22     find the n-th set bit
 *   bmsk              9.7.1.23     bit-field mask
 *   szext             9.7.1.24     sign/zero extension from a bit position
 *   lop3              9.7.8.6      arbitrary three-input logic by truth table
 *   cvt.pack.sat      9.7.9.22     saturate two s32 values and pack them
 *   vop2, vop4        9.7.16.2     SIMD video (vadd2 vsub2 vavrg2 vabsdiff2 vmin2
 *                                  vmax2 and the 4-way forms) with the default
 *                                  selectors (.asel .h10/.b3210, .bsel .h32/.b7654)
 *                                  and mask (.h10/.b3210): element i of a with
 *                                  element i of b
 *   vshl, vshr        9.7.16.1     scalar video shifts: .asel/.bsel byte or half
 *                                  selection, .clamp/.wrap, .sat, a secondary
 *                                  .add/.min/.max or a data merge into d.dsel
 * All are 32-bit: operands are read as their low 32 bits, results stored
 * zero-extended.
 */
#include "exec_internal.h"

static inline int64_t field(uint32_t v, unsigned i, unsigned bits, int sg)
{
    uint64_t f = (v >> (i * bits)) & ws_mask_bits(bits);
    return sg ? ws_sext(f, bits) : (int64_t)f;
}

/* dp4a: d = c + sum a.byte[i] * b.byte[i]; dp2a: d = c + sum a.half[i] * b.byte[sel + i],
 * sel 0 (.lo) or 2 (.hi); each element sign- or zero-extended by .atype/.btype */
static uint32_t dot(uint32_t a, uint32_t b, uint32_t c, unsigned op, int sa, int sb, int hi)
{
    uint32_t d = c;
    if (op == WS_OP_DP4A) {
        for (unsigned i = 0; i < 4; i++) d += (uint32_t)(field(a, i, 8, sa) * field(b, i, 8, sb));
    } else {
        unsigned sel = hi ? 2 : 0;
        for (unsigned i = 0; i < 2; i++) d += (uint32_t)(field(a, i, 16, sa) * field(b, sel + i, 8, sb));
    }
    return d;
}

/* fns.b32 d, mask, base, offset (ISA pseudocode; base > 31 is undefined there: not found) */
static uint32_t fns(uint32_t mask, int32_t base, int32_t offset)
{
    if (offset == 0) return base >= 0 && base < 32 && ((mask >> base) & 1) ? (uint32_t)base : 0xffffffffu;
    int64_t count = (offset > 0 ? (int64_t)offset : -(int64_t)offset) - 1;
    int inc = offset > 0 ? 1 : -1;
    for (int64_t pos = base; pos >= 0 && pos < 32; pos += inc) {
        if (!((mask >> pos) & 1)) continue;
        if (count == 0) return (uint32_t)pos;
        count--;
    }
    return 0xffffffffu;
}

/* bmsk.mode.b32 d, a (start), b (width) */
static uint32_t bmsk(uint32_t a, uint32_t b, int clamp)
{
    uint32_t a1 = a & 0x1f, b1 = b & 0x1f, sum = a1 + b1;
    uint32_t mask0 = ~0u << a1;
    uint32_t mask1 = sum >= 32 ? 0 : ~0u << sum;
    int overflow = sum >= 32;
    if (clamp && a >= 32) { mask0 = 0; overflow = 1; }
    if (clamp && b >= 32) overflow = 1;
    if (overflow) mask1 = 0;
    else if (b1 == 0) mask1 = ~0u;
    return mask0 & ~mask1;
}

/* szext.mode.type d, a, b: the low N bits of a (N = b & 31, or with .clamp b >= 32: all of a)
 * sign- (.s32) or zero-extended (.u32); N = 0 gives 0 */
static uint32_t szext(uint32_t a, uint32_t b, int clamp, int sg)
{
    uint32_t b1 = b & 0x1f;
    int too_large = clamp && b >= 32;
    uint32_t mask = too_large ? 0 : ~0u << b1;
    int sign = !(b1 == 0 || too_large || !sg) && ((a >> ((b1 - 1) & 0x1f)) & 1);
    return (a & ~mask) | (sign ? mask : 0);
}

/* lop3.b32 d, a, b, c, immLut: bit k of d is bit (a_k << 2 | b_k << 1 | c_k) of immLut */
static uint32_t lop3(uint32_t a, uint32_t b, uint32_t c, uint32_t lut)
{
    uint32_t d = 0;
    for (unsigned idx = 0; idx < 8; idx++) {
        if (!((lut >> idx) & 1)) continue;
        d |= ((idx & 4) ? a : ~a) & ((idx & 2) ? b : ~b) & ((idx & 1) ? c : ~c);
    }
    return d;
}

static const struct { int8_t bits, sg; } pack_fmt[] = {
    [WS_PACK_U2] = {2, 0}, [WS_PACK_S2] = {2, 1}, [WS_PACK_U4] = {4, 0}, [WS_PACK_S4] = {4, 1},
    [WS_PACK_U8] = {8, 0}, [WS_PACK_S8] = {8, 1}, [WS_PACK_U16] = {16, 0}, [WS_PACK_S16] = {16, 1},
};

static inline int64_t clamp64(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

/* cvt.pack.sat.T.s32[.b32] d, a, b[, c]: d = c << 2n | sat(a) << n | sat(b), n = bits of T;
 * the 16-bit forms have no c */
static uint32_t cvt_pack(int32_t a, int32_t b, uint32_t c, unsigned fmt)
{
    unsigned n = (unsigned)pack_fmt[fmt].bits;
    int64_t lo = pack_fmt[fmt].sg ? -(1ll << (n - 1)) : 0;
    int64_t hi = pack_fmt[fmt].sg ? (1ll << (n - 1)) - 1 : (1ll << n) - 1;
    uint64_t em = ws_mask_bits(n);
    uint64_t d = ((uint64_t)clamp64(b, lo, hi) & em) | (((uint64_t)clamp64(a, lo, hi) & em) << n);
    if (n < 16) d |= (uint64_t)c << (2 * n);
    return (uint32_t)d;
}

/* one element of a SIMD video operation, before saturation */
static int64_t video_elem(unsigned op, int64_t va, int64_t vb)
{
    switch (op) {
    case WS_OP_VADD2: case WS_OP_VADD4: return va + vb;
    case WS_OP_VSUB2: case WS_OP_VSUB4: return va - vb;
    case WS_OP_VAVRG2: case WS_OP_VAVRG4: return va + vb >= 0 ? (va + vb + 1) >> 1 : (va + vb) >> 1;
    case WS_OP_VABSDIFF2: case WS_OP_VABSDIFF4: return va > vb ? va - vb : vb - va;
    case WS_OP_VMIN2: case WS_OP_VMIN4: return va < vb ? va : vb;
    default: return va > vb ? va : vb;
    }
}

static uint32_t video(const ws_inst *in, uint32_t a, uint32_t b, uint32_t c)
{
    unsigned op = in->op, n = op >= WS_OP_VADD4 ? 4 : 2, eb = 32 / n;
    int sa = in->type2 == WS_TY_S32, sb = in->subop == WS_TY_S32, sd = in->type == WS_TY_S32;
    int sat = (in->mods & WS_MOD_SAT) != 0, add = (in->mods & WS_MOD_ADD) != 0;
    int64_t lo = sd ? -(1ll << (eb - 1)) : 0, hi = sd ? (1ll << (eb - 1)) - 1 : (1ll << eb) - 1;
    uint32_t d = add ? c : 0;
    for (unsigned i = 0; i < n; i++) {
        int64_t t = video_elem(op, field(a, i, eb, sa), field(b, i, eb, sb));
        if (sat) t = clamp64(t, lo, hi);
        if (add) d += (uint32_t)t;
        else d |= (uint32_t)(((uint64_t)t & ws_mask_bits(eb)) << (i * eb));
    }
    return d;
}

/* a video operand: the whole word, or the byte/half-word its selector names, sign- or
 * zero-extended (PTX ISA 9.7.16.1: the .s33 input values) */
static int64_t video_part(uint32_t v, unsigned sel, int sg)
{
    if (sel >= WS_VSEL_H0) return field(v, sel - WS_VSEL_H0, 16, sg);
    if (sel >= WS_VSEL_B0) return field(v, sel - WS_VSEL_B0, 8, sg);
    return sg ? (int32_t)v : (int64_t)v;
}

/* vshl/vshr.dtype.atype.u32{.sat}.mode{.op2} d{.dsel}, a{.asel}, b{.bsel}{, c} (PTX ISA
 * 9.7.16.1.2 and the optSaturate/optSecOp/optMerge pseudocode of 9.7.16.1): the shift amount
 * is clamped to 32 (.clamp) or taken mod 32 (.wrap); vshl fills with zeros, vshr with the
 * sign of a signed a; .sat clamps to the destination (or the merged byte/half-word) range
 * of .dtype; the secondary operation takes c with .dtype's sign */
static uint32_t video_shift(const ws_inst *in, uint32_t a, uint32_t b, uint32_t c)
{
    unsigned asel = in->cmp & 15, bsel = in->cmp >> 4, op2 = in->boolop & 15, dsel = in->boolop >> 4;
    int sd = in->type == WS_TY_S32;
    int64_t ta = video_part(a, asel, in->type2 == WS_TY_S32);
    int64_t tb = video_part(b, bsel, 0);
    tb = in->subop == WS_BMODE_CLAMP ? (tb > 32 ? 32 : tb) : tb & 31;
    __int128 t = in->op == WS_OP_VSHL ? (__int128)ta * ((__int128)1 << tb) : (__int128)(ta >> tb);
    if (in->mods & WS_MOD_SAT) {
        unsigned eb = dsel >= WS_VSEL_H0 ? 16 : dsel ? 8 : 32;
        __int128 lo = sd ? -((__int128)1 << (eb - 1)) : 0, hi = sd ? ((__int128)1 << (eb - 1)) - 1 : ((__int128)1 << eb) - 1;
        t = t < lo ? lo : t > hi ? hi : t;
    }
    /* the pseudocode's .s33 intermediate: a wider shifted value wraps (only min/max see bit 32) */
    int64_t tv = ws_sext((uint64_t)t & ws_mask_bits(33), 33);
    int64_t vc = sd ? (int32_t)c : (int64_t)c;
    switch (op2) {
    case WS_VOP2_ADD: return (uint32_t)((uint64_t)tv + (uint64_t)vc);
    case WS_VOP2_MIN: return (uint32_t)(tv < vc ? tv : vc);
    case WS_VOP2_MAX: return (uint32_t)(tv > vc ? tv : vc);
    default: break;
    }
    if (dsel >= WS_VSEL_H0) {
        unsigned sh = 16 * (dsel - WS_VSEL_H0);
        return (uint32_t)(((uint64_t)tv & 0xffff) << sh) | (c & ~(0xffffu << sh));
    }
    if (dsel) {
        unsigned sh = 8 * (dsel - WS_VSEL_B0);
        return (uint32_t)(((uint64_t)tv & 0xff) << sh) | (c & ~(0xffu << sh));
    }
    return (uint32_t)(uint64_t)tv;
}

int ws_exec_simd(ws_xctx *x)
{
    const ws_inst *in = x->in;
    ws_src a = ws_opnd(x, &in->src[0], 0);
    ws_src b = ws_opnd(x, &in->src[1], 1);
    ws_src c = ws_opnd(x, &in->src[2], 2);
    ws_src e = ws_opnd(x, &in->src[3], 3);
    uint64_t *d = ws_dst(x, &in->dst[0]);
    unsigned op = in->op;
    int clamp = in->subop == WS_BMODE_CLAMP;
    LANE_LOOP(x->exec) {
        unsigned l = LANE;
        uint32_t va = (uint32_t)SV(a, l), vb = (uint32_t)SV(b, l), vc = (uint32_t)SV(c, l);
        uint32_t r;
        switch (op) {
        case WS_OP_DP4A: case WS_OP_DP2A:
            r = dot(va, vb, vc, op, in->type == WS_TY_S32, in->type2 == WS_TY_S32, (in->mods & WS_MOD_HI) != 0);
            break;
        case WS_OP_FNS: r = fns(va, (int32_t)vb, (int32_t)vc); break;
        case WS_OP_BMSK: r = bmsk(va, vb, clamp); break;
        case WS_OP_SZEXT: r = szext(va, vb, clamp, in->type == WS_TY_S32); break;
        case WS_OP_LOP3: r = lop3(va, vb, vc, (uint32_t)SV(e, l) & 0xff); break;
        case WS_OP_CVT_PACK: r = cvt_pack((int32_t)va, (int32_t)vb, vc, in->subop); break;
        case WS_OP_VSHL: case WS_OP_VSHR: r = video_shift(in, va, vb, vc); break;
        default: r = video(in, va, vb, vc); break;
        }
        d[l] = r;
    }
    return WS_EXEC_OK;
}
