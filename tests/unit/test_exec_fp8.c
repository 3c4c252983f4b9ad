/* FP8 conversions (issue 24, PTX ISA 9.7.9.21; OCP OFP8 rev. 1.0): values worked out by hand.
 * E4M3: bias 7, 3 fraction bits, max 448 = 0x7e, smallest subnormal 2^-9 = 0x01, NaN 0x7f;
 * E5M2: bias 15, 2 fraction bits, max 57344 = 0x7b, infinity 0x7c. */
#include <math.h>
#include "exec_harness.h"

static xh *H;

/* cvt.rn.satfinite{.relu}.dt.f32 d, a, b: d = {fp8(a) 15:8, fp8(b) 7:0}, on lane 0 */
static uint64_t to8(unsigned dt, float a, float b, int relu)
{
    ws_inst in = inst3(WS_OP_CVT, dt, reg(0), reg(1), reg(2));
    in.type2 = WS_TY_F32; in.subop = WS_CVT_FP8; in.rnd = WS_RND_RN;
    in.mods = WS_MOD_SAT | (relu ? WS_MOD_RELU : 0);
    setr(H, 1, 0, fbits(a));
    setr(H, 2, 0, fbits(b));
    return run_r(H, &in, 0);
}

static void test_e4m3_from_f32(void **s)
{
    (void)s;
    assert_int_equal(to8(WS_TY_E4M3X2, 1.0f, -2.0f, 0), 0x38c0);        /* 1 = 0.0111.000, -2 = 1.1000.000 */
    assert_int_equal(to8(WS_TY_E4M3X2, 464.0f, 1e30f, 0), 0x7e7e);      /* 464: tie 448|480 -> even 448; clamp */
    assert_int_equal(to8(WS_TY_E4M3X2, -INFINITY, 0x1p-10f, 0), 0xfe00); /* -inf -> -448; 2^-10: tie 0|2^-9 -> 0 */
    assert_int_equal(to8(WS_TY_E4M3X2, 0x3p-10f, 0x5p-10f, 0), 0x0202);  /* 1.5 and 2.5 x 2^-9: ties to even 2 */
    assert_int_equal(to8(WS_TY_E4M3X2, 17.0f, 19.0f, 0), 0x585a);       /* 17: tie 16|18 -> 16 (0x58); 19: tie 18|20 -> 20 */
    assert_int_equal(to8(WS_TY_E4M3X2, NAN, -0.0f, 0) & 0x7fff, 0x7f80); /* NaN stays NaN; -0 = 0x80 */
    assert_int_equal(to8(WS_TY_E4M3X2, -3.0f, NAN, 1), 0x007f);         /* .relu: -3 -> +0, NaN -> 0x7f */
}

static void test_e5m2_from_f32(void **s)
{
    (void)s;
    assert_int_equal(to8(WS_TY_E5M2X2, 1.0f, 61440.0f, 0), 0x3c7b);     /* 61440: tie 57344|65536 -> clamp */
    assert_int_equal(to8(WS_TY_E5M2X2, INFINITY, 0x1p-16f, 0), 0x7b01); /* satfinite inf -> max; min subnormal */
    assert_int_equal(to8(WS_TY_E5M2X2, 0x1p-17f, 0x3p-17f, 0), 0x0002); /* ties: 0 and 2 x 2^-16 */
}

/* cvt.rn{.relu}.f16x2.dt d, a: the two codes of a to f16, exactly */
static void test_f16x2_from_fp8(void **s)
{
    (void)s;
    ws_inst in = inst2(WS_OP_CVT, WS_TY_F16X2, reg(0), reg(1));
    in.type2 = WS_TY_E4M3X2; in.subop = WS_CVT_FP8; in.rnd = WS_RND_RN;
    setr(H, 1, 0, 0x7e01);    /* 448 = 0x5f00, 2^-9 = 0x1800 (f16 normal) */
    assert_int_equal(run_r(H, &in, 0), 0x5f001800);
    setr(H, 1, 0, 0xff80);    /* NaN -> 0x7fff, -0 -> 0x8000 */
    assert_int_equal(run_r(H, &in, 0), 0x7fff8000);
    in.type2 = WS_TY_E5M2X2;
    setr(H, 1, 0, 0xfc7b);    /* -inf = 0xfc00, 57344 = 0x7b00 */
    assert_int_equal(run_r(H, &in, 0), 0xfc007b00);
    in.mods = WS_MOD_RELU;    /* -inf -> 0 */
    assert_int_equal(run_r(H, &in, 0), 0x00007b00);
}

/* cvt.rn.satfinite.e4m3x2.f16x2: the high half to bits 15:8 */
static void test_e4m3_from_f16x2(void **s)
{
    (void)s;
    ws_inst in = inst2(WS_OP_CVT, WS_TY_E4M3X2, reg(0), reg(1));
    in.type2 = WS_TY_F16X2; in.subop = WS_CVT_FP8; in.rnd = WS_RND_RN; in.mods = WS_MOD_SAT;
    setr(H, 1, 0, 0x7c00bc00);   /* +inf -> 0x7e, -1.0 -> 0xb8 */
    assert_int_equal(run_r(H, &in, 0), 0x7eb8);
}

/* cvt.rn.satfinite.e5m2x2.bf16x2 (PTX ISA 9.1): 0x4780 = bf16 65536 -> clamp 0x7b; 0x3f40 = 0.75 =
 * 1.1 x 2^-1 -> e5m2 exponent 14, fraction 10 -> 0x3a */
static void test_e5m2_from_bf16x2(void **s)
{
    (void)s;
    ws_inst in = inst2(WS_OP_CVT, WS_TY_E5M2X2, reg(0), reg(1));
    in.type2 = WS_TY_BF16X2; in.subop = WS_CVT_FP8; in.rnd = WS_RND_RN; in.mods = WS_MOD_SAT;
    setr(H, 1, 0, 0x47803f40);
    assert_int_equal(run_r(H, &in, 0), 0x7b3a);
}

int main(void)
{
    H = xh_new(32);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_e4m3_from_f32),
        cmocka_unit_test(test_e5m2_from_f32),
        cmocka_unit_test(test_f16x2_from_fp8),
        cmocka_unit_test(test_e4m3_from_f16x2),
        cmocka_unit_test(test_e5m2_from_bf16x2),
    };
    int r = cmocka_run_group_tests(tests, NULL, NULL);
    free(H);
    return r;
}
