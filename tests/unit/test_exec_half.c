/* Half-precision semantics (issue 15): f16/bf16 and the packed pairs. Expected bit
 * patterns worked out by hand from IEEE 754 (binary16: 1-5-10, bias 15; bfloat16:
 * 1-8-7, bias 127) and the PTX ISA 9.7.4 / 9.7.9.21 rules; each case's comment
 * gives the arithmetic. */
#include "exec_harness.h"

static xh *H;

#define F16 WS_TY_F16
#define BF16 WS_TY_BF16
#define F16X2 WS_TY_F16X2
#define BF16X2 WS_TY_BF16X2

static uint64_t h2(unsigned op, unsigned ty, uint32_t mods, uint64_t a, uint64_t b)
{
    setall(H, 1, a); setall(H, 2, b);
    ws_inst in = inst3(op, ty, reg(0), reg(1), reg(2));
    in.rnd = WS_RND_RN; in.mods = mods;
    return run_r(H, &in, 0);
}
static uint64_t h3(unsigned op, unsigned ty, uint32_t mods, uint64_t a, uint64_t b, uint64_t c)
{
    setall(H, 1, a); setall(H, 2, b); setall(H, 3, c);
    ws_inst in = inst4(op, ty, reg(0), reg(1), reg(2), reg(3));
    in.rnd = WS_RND_RN; in.mods = mods;
    return run_r(H, &in, 0);
}
static uint64_t cvt(unsigned dt, unsigned st, unsigned rnd, uint32_t mods, uint64_t a)
{
    setall(H, 1, a);
    ws_inst in = inst2(WS_OP_CVT, dt, reg(0), reg(1));
    in.type2 = (uint8_t)st; in.rnd = (uint8_t)rnd; in.mods = mods;
    return run_r(H, &in, 0);
}

static void test_f16_add_rounding(void **s)
{
    (void)s;
    /* 1 + 2^-11: halfway between 0x3c00 and 0x3c01 -> even 0x3c00 */
    assert_int_equal(h2(WS_OP_ADD, F16, 0, 0x3c00, 0x1000), 0x3c00);
    /* (1 + 2^-10) + 2^-11: halfway between 0x3c01 and 0x3c02 -> even 0x3c02 */
    assert_int_equal(h2(WS_OP_ADD, F16, 0, 0x3c01, 0x1000), 0x3c02);
    /* 1 + 2^-11(1 + 2^-10): above the tie -> 0x3c01 */
    assert_int_equal(h2(WS_OP_ADD, F16, 0, 0x3c00, 0x1001), 0x3c01);
    /* subnormals: 2^-24 + 2^-24 = 0x0002; largest subnormal + 2^-24 = smallest normal 0x0400 */
    assert_int_equal(h2(WS_OP_ADD, F16, 0, 0x0001, 0x0001), 0x0002);
    assert_int_equal(h2(WS_OP_ADD, F16, 0, 0x03ff, 0x0001), 0x0400);
    /* 65504 + 32 = 65536 -> inf; 65504 + 16 = 65520, the tie with 2^16 -> inf (even);
     * 65504 + 15.99 -> 65504 */
    assert_int_equal(h2(WS_OP_ADD, F16, 0, 0x7bff, 0x5000), 0x7c00);
    assert_int_equal(h2(WS_OP_ADD, F16, 0, 0x7bff, 0x4c00), 0x7c00);
    assert_int_equal(h2(WS_OP_ADD, F16, 0, 0x7bff, 0x4bff), 0x7bff);
    /* NaN: canonical 0x7fff; inf - inf is NaN */
    assert_int_equal(h2(WS_OP_ADD, F16, 0, 0x7c00, 0xfc00), 0x7fff);
    assert_int_equal(h2(WS_OP_ADD, F16, 0, 0x7e01, 0x3c00), 0x7fff);
    /* signed zeros: -0 + -0 = -0, +0 + -0 = +0, 1 - 1 = +0 */
    assert_int_equal(h2(WS_OP_ADD, F16, 0, 0x8000, 0x8000), 0x8000);
    assert_int_equal(h2(WS_OP_ADD, F16, 0, 0x0000, 0x8000), 0x0000);
    assert_int_equal(h2(WS_OP_SUB, F16, 0, 0x3c00, 0x3c00), 0x0000);
    /* sub: 2^-14 - 2^-24 = the largest subnormal 0x03ff */
    assert_int_equal(h2(WS_OP_SUB, F16, 0, 0x0400, 0x0001), 0x03ff);
}

static void test_f16_ftz_sat_relu(void **s)
{
    (void)s;
    /* .ftz: subnormal inputs are zeros: 2^-24 + 2^-24 -> 0; 2^-14 - 2^-24 -> 2^-14 */
    assert_int_equal(h2(WS_OP_ADD, F16, WS_MOD_FTZ, 0x0001, 0x0001), 0x0000);
    assert_int_equal(h2(WS_OP_SUB, F16, WS_MOD_FTZ, 0x0400, 0x0001), 0x0400);
    /* .ftz on the result: 2^-14 * 0.5 = 2^-15, subnormal -> +0; -2^-14 * 0.5 -> -0 */
    assert_int_equal(h2(WS_OP_MUL, F16, 0, 0x0400, 0x3800), 0x0200);
    assert_int_equal(h2(WS_OP_MUL, F16, WS_MOD_FTZ, 0x0400, 0x3800), 0x0000);
    assert_int_equal(h2(WS_OP_MUL, F16, WS_MOD_FTZ, 0x8400, 0x3800), 0x8000);
    /* .sat: 2 + 1 -> 1.0; -1 + 0 -> +0; NaN -> +0 */
    assert_int_equal(h2(WS_OP_ADD, F16, WS_MOD_SAT, 0x4000, 0x3c00), 0x3c00);
    assert_int_equal(h2(WS_OP_ADD, F16, WS_MOD_SAT, 0xbc00, 0x0000), 0x0000);
    assert_int_equal(h2(WS_OP_ADD, F16, WS_MOD_SAT, 0x7c00, 0xfc00), 0x0000);
    /* fma.relu: 1 * -2 + 1 = -1 -> +0; 1 * 2 + 1 = 3 (0x4200); NaN stays NaN */
    assert_int_equal(h3(WS_OP_FMA, F16, WS_MOD_RELU, 0x3c00, 0xc000, 0x3c00), 0x0000);
    assert_int_equal(h3(WS_OP_FMA, F16, WS_MOD_RELU, 0x3c00, 0x4000, 0x3c00), 0x4200);
    assert_int_equal(h3(WS_OP_FMA, F16, WS_MOD_RELU, 0x7c00, 0x0000, 0x3c00), 0x7fff);
}

static void test_f16_mul_fma(void **s)
{
    (void)s;
    /* (1 + 2^-10)^2 = 1 + 2^-9 + 2^-20 -> 1 + 2^-9 = 0x3c02 */
    assert_int_equal(h2(WS_OP_MUL, F16, 0, 0x3c01, 0x3c01), 0x3c02);
    /* fused: (1 + 2^-10)^2 - (1 + 2^-9) = 2^-20 = 16 * 2^-24, subnormal 0x0010 */
    assert_int_equal(h3(WS_OP_FMA, F16, 0, 0x3c01, 0x3c01, 0xbc02), 0x0010);
    /* inf * 0 + 1 = NaN */
    assert_int_equal(h3(WS_OP_FMA, F16, 0, 0x7c00, 0x0000, 0x3c00), 0x7fff);
    /* 65504 * 2 - 65504 = 65504: no overflow inside the fma */
    assert_int_equal(h3(WS_OP_FMA, F16, 0, 0x7bff, 0x4000, 0xfbff), 0x7bff);
}

static void test_bf16(void **s)
{
    (void)s;
    /* 1 + 2^-8: halfway between 0x3f80 and 0x3f81 -> 0x3f80; (1 + 2^-7) + 2^-8 -> 0x3f82 */
    assert_int_equal(h2(WS_OP_ADD, BF16, 0, 0x3f80, 0x3b80), 0x3f80);
    assert_int_equal(h2(WS_OP_ADD, BF16, 0, 0x3f81, 0x3b80), 0x3f82);
    /* (1 + 2^-4)^2 = 1 + 2^-3 + 2^-8, the tie between 0x3f90 and 0x3f91 -> 0x3f90; plus 2^-100
     * (0x0d80) it is above the tie -> 0x3f91, minus 2^-100 below -> 0x3f90: the exact sum
     * spans 100 bits, more than a double (rounding twice would give 0x3f90 both times) */
    assert_int_equal(h3(WS_OP_FMA, BF16, 0, 0x3f88, 0x3f88, 0x0000), 0x3f90);
    assert_int_equal(h3(WS_OP_FMA, BF16, 0, 0x3f88, 0x3f88, 0x0d80), 0x3f91);
    assert_int_equal(h3(WS_OP_FMA, BF16, 0, 0x3f88, 0x3f88, 0x8d80), 0x3f90);
    /* the largest finite bf16 0x7f7f times 2 -> inf */
    assert_int_equal(h2(WS_OP_MUL, BF16, 0, 0x7f7f, 0x4000), 0x7f80);
    /* bf16x2: {1.0, 2.0} * {3.0, -0.5} = {3.0 (0x4040), -1.0 (0xbf80)} */
    assert_int_equal(h2(WS_OP_MUL, BF16X2, 0, 0x40003f80, 0xbf004040), 0xbf804040);
}

static void test_minmax_neg_abs(void **s)
{
    (void)s;
    /* -0 < +0 */
    assert_int_equal(h2(WS_OP_MIN, F16, 0, 0x0000, 0x8000), 0x8000);
    assert_int_equal(h2(WS_OP_MAX, F16, 0, 0x8000, 0x0000), 0x0000);
    /* NaN: the other operand; .NaN: the canonical NaN; both NaN: canonical NaN */
    assert_int_equal(h2(WS_OP_MIN, F16, 0, 0x7e00, 0x3c00), 0x3c00);
    assert_int_equal(h2(WS_OP_MAX, F16, 0, 0x3c00, 0x7e00), 0x3c00);
    assert_int_equal(h2(WS_OP_MIN, F16, WS_MOD_NAN, 0x7e00, 0x3c00), 0x7fff);
    assert_int_equal(h2(WS_OP_MIN, F16, 0, 0x7e00, 0xfe00), 0x7fff);
    /* max.relu(-1, -2) = +0; min(-inf, 65504) = -inf */
    assert_int_equal(h2(WS_OP_MAX, F16, WS_MOD_RELU, 0xbc00, 0xc000), 0x0000);
    assert_int_equal(h2(WS_OP_MIN, F16, 0, 0xfc00, 0x7bff), 0xfc00);
    /* min.f16x2 {1, -2} {-1, 3} = {-1, -2} */
    assert_int_equal(h2(WS_OP_MIN, F16X2, 0, 0xc0003c00, 0x4200bc00), 0xc000bc00);
    setall(H, 1, 0x3c00);
    ws_inst in = inst2(WS_OP_NEG, F16, reg(0), reg(1));
    assert_int_equal(run_r(H, &in, 0), 0xbc00);
    setall(H, 1, 0xfc00bc00);
    in = inst2(WS_OP_ABS, F16X2, reg(0), reg(1));
    assert_int_equal(run_r(H, &in, 0), 0x7c003c00);
    /* f16x2 add {1, 2} + {1, 1} = {2 (0x4000), 3 (0x4200)} */
    assert_int_equal(h2(WS_OP_ADD, F16X2, 0, 0x40003c00, 0x3c003c00), 0x42004000);
}

static void test_cvt_into_half(void **s)
{
    (void)s;
    /* f32 1 + 2^-11 (0x3f801000): the tie -> rn 0x3c00, rp 0x3c01, rz 0x3c00; negative rm -> 0xbc01 */
    assert_int_equal(cvt(F16, WS_TY_F32, WS_RND_RN, 0, 0x3f801000), 0x3c00);
    assert_int_equal(cvt(F16, WS_TY_F32, WS_RND_RP, 0, 0x3f801000), 0x3c01);
    assert_int_equal(cvt(F16, WS_TY_F32, WS_RND_RZ, 0, 0x3f801000), 0x3c00);
    assert_int_equal(cvt(F16, WS_TY_F32, WS_RND_RM, 0, 0xbf801000), 0xbc01);
    /* 65520 (0x477ff000): rn -> inf, rz -> 65504; -65520 rp -> -65504 */
    assert_int_equal(cvt(F16, WS_TY_F32, WS_RND_RN, 0, 0x477ff000), 0x7c00);
    assert_int_equal(cvt(F16, WS_TY_F32, WS_RND_RZ, 0, 0x477ff000), 0x7bff);
    assert_int_equal(cvt(F16, WS_TY_F32, WS_RND_RP, 0, 0xc77ff000), 0xfbff);
    /* subnormal ties: 2^-25 -> 0 (even), 3 * 2^-25 -> 2 * 2^-24 */
    assert_int_equal(cvt(F16, WS_TY_F32, WS_RND_RN, 0, 0x33000000), 0x0000);
    assert_int_equal(cvt(F16, WS_TY_F32, WS_RND_RN, 0, 0x33c00000), 0x0002);
    /* NaN -> canonical; f64 1/3 (0x3fd5555555555555) -> 0x3555 */
    assert_int_equal(cvt(F16, WS_TY_F32, WS_RND_RN, 0, 0x7fc00001), 0x7fff);
    assert_int_equal(cvt(F16, WS_TY_F64, WS_RND_RN, 0, 0x3fd5555555555555ull), 0x3555);
    /* bf16: 0x3f808000 is the tie -> 0x3f80, 0x3f818000 -> 0x3f82, 0x3f808001 -> 0x3f81 */
    assert_int_equal(cvt(BF16, WS_TY_F32, WS_RND_RN, 0, 0x3f808000), 0x3f80);
    assert_int_equal(cvt(BF16, WS_TY_F32, WS_RND_RN, 0, 0x3f818000), 0x3f82);
    assert_int_equal(cvt(BF16, WS_TY_F32, WS_RND_RN, 0, 0x3f808001), 0x3f81);
    assert_int_equal(cvt(BF16, WS_TY_F32, WS_RND_RZ, 0, 0x3f81ffff), 0x3f81);
    /* integers: 2049 -> 2048 (tie, even), 2051 -> 2052; 2^64 - 1 rn -> inf, rz -> 65504 */
    assert_int_equal(cvt(F16, WS_TY_S32, WS_RND_RN, 0, 2049), 0x6800);
    assert_int_equal(cvt(F16, WS_TY_S32, WS_RND_RN, 0, 2051), 0x6802);
    assert_int_equal(cvt(F16, WS_TY_U64, WS_RND_RN, 0, ~0ull), 0x7c00);
    assert_int_equal(cvt(F16, WS_TY_U64, WS_RND_RZ, 0, ~0ull), 0x7bff);
    /* 2^63 + 2^55 + 1 into bf16 (spacing 2^56 there): just above the tie -> 2^63 + 2^56 = 0x5f01
     * (a double holds 2^63 + 2^55: rounding through it would give 0x5f00) */
    assert_int_equal(cvt(BF16, WS_TY_U64, WS_RND_RN, 0, (1ull << 63) + (1ull << 55) + 1), 0x5f01);
    /* half to half: bf16 1.5 (0x3fc0) -> f16 0x3e00; cvt.rni.f16.f16 2.5 (0x4100) -> 2.0 (0x4000) */
    assert_int_equal(cvt(F16, BF16, WS_RND_RN, 0, 0x3fc0), 0x3e00);
    assert_int_equal(cvt(F16, F16, WS_RND_RNI, 0, 0x4100), 0x4000);
    /* .relu: -1.0f -> +0; .sat: 2.0f -> 1.0 */
    assert_int_equal(cvt(F16, WS_TY_F32, WS_RND_RN, WS_MOD_RELU, 0xbf800000), 0x0000);
    assert_int_equal(cvt(F16, WS_TY_F32, WS_RND_RN, WS_MOD_SAT, 0x40000000), 0x3c00);
}

static void test_cvt_out_of_half(void **s)
{
    (void)s;
    /* f16 2^-24 -> f32 0x33800000; 65504 -> 0x477fe000; -inf; NaN -> canonical f32 NaN */
    assert_int_equal(cvt(WS_TY_F32, F16, 0, 0, 0x0001), 0x33800000);
    assert_int_equal(cvt(WS_TY_F32, F16, 0, 0, 0x7bff), 0x477fe000);
    assert_int_equal(cvt(WS_TY_F32, F16, 0, 0, 0xfc00), 0xff800000);
    assert_int_equal(cvt(WS_TY_F32, F16, 0, 0, 0x7e00), 0x7fffffff);
    /* bf16 0x3f81 -> f32 0x3f810000; f16 -> f64 1/3-ish 0x3555 = 1365/4096 */
    assert_int_equal(cvt(WS_TY_F32, BF16, 0, 0, 0x3f81), 0x3f810000);
    assert_int_equal(cvt(WS_TY_F64, F16, 0, 0, 0x3555), dbits(1365.0 / 4096.0));
    /* cvt.rni.s32.f16: 2.5 -> 2, 3.5 -> 4, -2.5 -> -2; .rzi -2.5 -> -2; f16 inf -> INT_MAX */
    assert_int_equal(cvt(WS_TY_S32, F16, WS_RND_RNI, 0, 0x4100), 2);
    assert_int_equal(cvt(WS_TY_S32, F16, WS_RND_RNI, 0, 0x4300), 4);
    assert_int_equal(cvt(WS_TY_S32, F16, WS_RND_RNI, 0, 0xc100) & 0xffffffffu, 0xfffffffeu);
    assert_int_equal(cvt(WS_TY_S32, F16, WS_RND_RZI, 0, 0xc100) & 0xffffffffu, 0xfffffffeu);
    assert_int_equal(cvt(WS_TY_S32, F16, WS_RND_RNI, 0, 0x7c00), 0x7fffffff);
}

static void test_cvt_pair(void **s)
{
    (void)s;
    /* cvt.rn.f16x2.f32 d, a, b: a = 1.0f -> upper half, b = 2.0f -> lower half */
    setall(H, 1, 0x3f800000); setall(H, 2, 0x40000000);
    ws_inst in = inst3(WS_OP_CVT, F16X2, reg(0), reg(1), reg(2));
    in.type2 = WS_TY_F32; in.rnd = WS_RND_RN;
    assert_int_equal(run_r(H, &in, 0), 0x3c004000);
    /* bf16x2 with .relu: a = -3.0f -> +0 upper, b = 0x3f808001 -> 0x3f81 lower */
    setall(H, 1, 0xc0400000); setall(H, 2, 0x3f808001);
    in.type = BF16X2; in.mods = WS_MOD_RELU;
    assert_int_equal(run_r(H, &in, 0), 0x00003f81);
}

static void test_compare(void **s)
{
    (void)s;
    /* setp.lt.f16x2 p|q, {1.0, NaN}, {2.0, 1.0}: p (low) = 1, q (high) = 0; .ltu: q = 1 */
    setall(H, 1, 0x7e003c00); setall(H, 2, 0x3c004000);
    ws_inst in = inst3(WS_OP_SETP, F16X2, reg(0), reg(1), reg(2));
    in.dst[1] = reg(4); in.cmp = WS_CMP_LT;
    assert_int_equal(xrun(H, &in), WS_EXEC_OK);
    assert_int_equal(getr(H, 0, 0), 1);
    assert_int_equal(getr(H, 4, 0), 0);
    in.cmp = WS_CMP_LTU;
    assert_int_equal(xrun(H, &in), WS_EXEC_OK);
    assert_int_equal(getr(H, 0, 0), 1);
    assert_int_equal(getr(H, 4, 0), 1);
    /* setp.lt.and.f16x2 p|q, a, b, c with c false: both 0 */
    setall(H, 3, 0);
    in = inst4(WS_OP_SETP, F16X2, reg(0), reg(1), reg(2), reg(3));
    in.dst[1] = reg(4); in.cmp = WS_CMP_LTU; in.boolop = WS_BOOL_AND;
    assert_int_equal(xrun(H, &in), WS_EXEC_OK);
    assert_int_equal(getr(H, 0, 0), 0);
    assert_int_equal(getr(H, 4, 0), 0);
    /* set.lt.f16x2.f16x2: 1.0 (0x3c00) in the low half only; set.ltu.u32.f16x2: 0xffff per half */
    in = inst3(WS_OP_SET, F16X2, reg(0), reg(1), reg(2));
    in.type2 = F16X2; in.cmp = WS_CMP_LT;
    assert_int_equal(run_r(H, &in, 0), 0x00003c00);
    in.type = WS_TY_U32; in.cmp = WS_CMP_LTU;
    assert_int_equal(run_r(H, &in, 0), 0xffffffff);
    /* setp.eq.f16: -0 == +0; setp.lt.bf16 1.0 < 1 + 2^-7; set.lt.bf16.bf16 -> 1.0 = 0x3f80 */
    setall(H, 1, 0x8000); setall(H, 2, 0x0000);
    in = inst3(WS_OP_SETP, F16, reg(0), reg(1), reg(2));
    in.cmp = WS_CMP_EQ;
    assert_int_equal(run_r(H, &in, 0), 1);
    setall(H, 1, 0x3f80); setall(H, 2, 0x3f81);
    in.type = BF16; in.cmp = WS_CMP_LT;
    assert_int_equal(run_r(H, &in, 0), 1);
    in = inst3(WS_OP_SET, BF16, reg(0), reg(1), reg(2));
    in.type2 = BF16; in.cmp = WS_CMP_LT;
    assert_int_equal(run_r(H, &in, 0), 0x3f80);
}

static void test_parse(void **s)
{
    (void)s;
    const char *text =
        ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
        ".reg .f16 %h<3>;\n.reg .f16x2 %x<2>;\n.reg .b32 %r<2>;\n.reg .f32 %f<3>;\n"
        "add.rn.f16 %h1, %h2, 0x3C00;\n"          /* integer: the raw bits */
        "mul.f16 %h1, %h2, 0f3F000000;\n"         /* f32 literal rounded into f16: 0.5 = 0x3800 */
        "cvt.rn.f16x2.f32 %x1, %f1, %f2;\n"
        "mov.b32 %r1, {0, %h1};\n"                /* nvcc's bf16 -> f32 */
        "fma.rn.relu.bf16x2 %r1, %r1, %r1, %r1;\n"
        "min.NaN.f16x2 %x0, %x1, %x0;\n"
        "ret;\n}\n";
    ws_error err;
    ws_kernel *k = ws_ptx_parse(text, "t.ptx", NULL, &err);
    assert_non_null(k);
    assert_int_equal(k->insts[0].type, F16);
    assert_int_equal(k->insts[0].src[1].imm, 0x3c00);
    assert_int_equal(k->insts[1].src[1].imm, 0x3800);
    assert_int_equal(k->insts[2].nsrc, 2);
    assert_int_equal(k->insts[2].type, F16X2);
    assert_int_equal(k->insts[3].src[0].kind, WS_OK_VEC);
    assert_int_equal(k->insts[3].src[0].vec[0], WS_NO_REG);
    assert_true(k->insts[4].mods & WS_MOD_RELU);
    assert_int_equal(k->insts[4].type, BF16X2);
    assert_true(k->insts[5].mods & WS_MOD_NAN);
    assert_int_equal(k->insts[5].unit, WS_UNIT_FP32);
    ws_kernel_free(k);
    /* refused: a float literal for a packed operand, .relu on an integer type */
    const char *bad = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
                      ".reg .b32 %r<2>;\nadd.f16x2 %r1, %r1, 0f3F800000;\nret;\n}\n";
    assert_null(ws_ptx_parse(bad, "b.ptx", NULL, &err));
    assert_non_null(strstr(err.msg, "b.ptx:7:"));
    assert_non_null(strstr(err.msg, "float literal cannot be a .f16x2 operand"));
}

int main(void)
{
    H = xh_new(32);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f16_add_rounding),
        cmocka_unit_test(test_f16_ftz_sat_relu),
        cmocka_unit_test(test_f16_mul_fma),
        cmocka_unit_test(test_bf16),
        cmocka_unit_test(test_minmax_neg_abs),
        cmocka_unit_test(test_cvt_into_half),
        cmocka_unit_test(test_cvt_out_of_half),
        cmocka_unit_test(test_cvt_pair),
        cmocka_unit_test(test_compare),
        cmocka_unit_test(test_parse),
    };
    int r = cmocka_run_group_tests(tests, NULL, NULL);
    free(H);
    return r;
}
