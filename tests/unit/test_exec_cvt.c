/* cvt semantics: integer widening/narrowing and saturation, float -> int
 * rounding and saturation (the NaN results), int -> float rounding, f32 <-> f64,
 * round-to-integral, .ftz and .sat. Values worked out by hand. */
#include "exec_harness.h"
#include "cvt_f2i_table.h"

static xh *H;

static uint64_t cvt(unsigned dt, unsigned st, unsigned rnd, uint32_t mods, uint64_t a)
{
    setall(H, 1, a);
    ws_inst in = inst2(WS_OP_CVT, dt, reg(0), reg(1));
    in.type2 = (uint8_t)st; in.rnd = (uint8_t)rnd; in.mods = mods;
    return run_r(H, &in, 0);
}

#define S32 WS_TY_S32
#define U32 WS_TY_U32
#define F32 WS_TY_F32
#define F64 WS_TY_F64

static void test_float_to_int(void **s)
{
    (void)s;
    assert_int_equal(cvt(S32, F32, WS_RND_RZI, 0, fbits(3.7f)), 3);
    assert_int_equal(cvt(S32, F32, WS_RND_RNI, 0, fbits(3.7f)), 4);
    assert_int_equal(cvt(S32, F32, WS_RND_RMI, 0, fbits(3.7f)), 3);
    assert_int_equal(cvt(S32, F32, WS_RND_RPI, 0, fbits(3.7f)), 4);
    assert_int_equal(cvt(S32, F32, WS_RND_RNI, 0, fbits(-3.5f)), 0xfffffffc);   /* -4: ties to even */
    assert_int_equal(cvt(S32, F32, WS_RND_RNI, 0, fbits(-2.5f)), 0xfffffffe);   /* -2 */
    assert_int_equal(cvt(S32, F32, WS_RND_RNI, 0, fbits(0.5f)), 0);
    assert_int_equal(cvt(S32, F32, WS_RND_RZI, 0, fbits(-3.7f)), 0xfffffffd);   /* -3 */
    assert_int_equal(cvt(S32, F32, WS_RND_RMI, 0, fbits(-3.2f)), 0xfffffffc);   /* -4 */
    assert_int_equal(cvt(S32, F32, WS_RND_RPI, 0, fbits(-3.7f)), 0xfffffffd);   /* -3 */
    assert_int_equal(cvt(S32, F32, WS_RND_NONE, 0, fbits(3.7f)), 3);            /* default rzi */
    /* saturation to the destination range, NaN -> 0 */
    assert_int_equal(cvt(S32, F32, WS_RND_RZI, 0, fbits(1e10f)), 0x7fffffff);
    assert_int_equal(cvt(S32, F32, WS_RND_RZI, 0, fbits(-1e10f)), 0x80000000);
    assert_int_equal(cvt(S32, F32, WS_RND_RZI, 0, 0x7fc00000), 0);
    assert_int_equal(cvt(S32, F32, WS_RND_RZI, 0, 0x7f800000), 0x7fffffff);
    assert_int_equal(cvt(S32, F32, WS_RND_RZI, 0, fbits(2147483648.0f)), 0x7fffffff);
    assert_int_equal(cvt(S32, F32, WS_RND_RZI, 0, fbits(-2147483648.0f)), 0x80000000);
    assert_int_equal(cvt(U32, F32, WS_RND_RZI, 0, fbits(-1.0f)), 0);
    assert_int_equal(cvt(U32, F32, WS_RND_RZI, 0, fbits(5e9f)), 0xffffffff);
    assert_int_equal(cvt(U32, F32, WS_RND_RZI, 0, fbits(4294967040.0f)), 0xffffff00);
    assert_int_equal(cvt(WS_TY_U8, F32, WS_RND_RNI, 0, fbits(300.0f)), 0xff);
    assert_int_equal(cvt(WS_TY_S8, F32, WS_RND_RNI, 0, fbits(-300.0f)), 0x80);
    assert_int_equal(cvt(WS_TY_S64, F64, WS_RND_RZI, 0, dbits(1e19)), 0x7fffffffffffffffull);
    assert_int_equal(cvt(WS_TY_S64, F64, WS_RND_RZI, 0, dbits(-9.0e18)), (uint64_t)(-9000000000000000000ll));
    assert_int_equal(cvt(WS_TY_S64, F64, WS_RND_RZI, 0, dbits(-9.5e18)), 0x8000000000000000ull);  /* < -2^63 */
    assert_int_equal(cvt(WS_TY_U64, F64, WS_RND_RZI, 0, dbits(1.8446744073709552e19)), ~0ull);
    assert_int_equal(cvt(WS_TY_U64, F32, WS_RND_RZI, 0, fbits(1e19f)), 9999999980506447872ull);
    /* .ftz flushes a subnormal input: rpi of 2^-149 is 1, flushed it is 0 */
    assert_int_equal(cvt(S32, F32, WS_RND_RPI, 0, 0x00000001), 1);
    assert_int_equal(cvt(S32, F32, WS_RND_RPI, WS_MOD_FTZ, 0x00000001), 0);
}

/* every float -> integer pair, rounding, .sat and .ftz over edge inputs, against the
 * table of tests/unit/cvt_f2i_model.py (a model of the PTX ISA rules: clamping; NaN -> 0, or
 * 1 << (bits - 1) from .f64 or into 64 bits) */
static void test_float_to_int_table(void **s)
{
    (void)s;
    unsigned bad = 0;
    for (size_t i = 0; i < sizeof f2i_cases / sizeof f2i_cases[0]; i++) {
        const struct f2i_case *c = &f2i_cases[i];
        H->reg_types[0] = c->dt;          /* the register has the destination's width */
        uint64_t got = cvt(c->dt, c->st, c->rnd, c->mods, c->in);
        if (got != c->out && bad++ < 10)
            print_error("case %zu: cvt type %u <- type %u rnd %u mods 0x%x of 0x%llx: got 0x%llx, want 0x%llx\n",
                        i, c->dt, c->st, c->rnd, c->mods, c->in, (unsigned long long)got, c->out);
    }
    H->reg_types[0] = 0;
    assert_int_equal(bad, 0);
}

/* NaN (PTX ISA, cvt, Integer Notes): 0 unless the source is .f64 or the destination 64-bit,
 * then 1 << (bits - 1). nvcc's __half2ll_rz is cvt.rzi.s64.f16 (cuda_fp16.hpp); the CUDA Math
 * API: "NaN inputs return a long long int with hex value of 0x8000000000000000" */
static void test_nan_to_int(void **s)
{
    (void)s;
    assert_int_equal(cvt(WS_TY_S64, WS_TY_F16, WS_RND_RZI, 0, 0x7e00), 0x8000000000000000ull);
    assert_int_equal(cvt(WS_TY_U64, WS_TY_BF16, WS_RND_RZI, 0, 0x7fc0), 0x8000000000000000ull);
    assert_int_equal(cvt(WS_TY_S64, F32, WS_RND_RNI, 0, 0x7fc00000), 0x8000000000000000ull);
    assert_int_equal(cvt(WS_TY_U64, F64, WS_RND_RMI, 0, 0xfff8000000000000ull), 0x8000000000000000ull);
    assert_int_equal(cvt(S32, WS_TY_F16, WS_RND_RZI, 0, 0x7e00), 0);
    assert_int_equal(cvt(U32, F32, WS_RND_RZI, 0, 0x7fc00000), 0);
    assert_int_equal(cvt(U32, F64, WS_RND_RZI, 0, 0x7ff8000000000000ull), 0x80000000);
    assert_int_equal(cvt(WS_TY_U16, F64, WS_RND_RNI, 0, 0xfff8000000000001ull), 0x8000);
    H->reg_types[0] = WS_TY_S8;
    assert_int_equal(cvt(WS_TY_S8, F64, WS_RND_RPI, 0, 0x7ff0000000000001ull), 0x80);
    H->reg_types[0] = 0;
}

static void test_int_to_int(void **s)
{
    (void)s;
    assert_int_equal(cvt(U32, S32, 0, WS_MOD_SAT, 0xffffffff), 0);
    assert_int_equal(cvt(U32, S32, 0, 0, 0xffffffff), 0xffffffff);
    assert_int_equal(cvt(S32, U32, 0, WS_MOD_SAT, 0xffffffff), 0x7fffffff);
    assert_int_equal(cvt(WS_TY_S8, S32, 0, WS_MOD_SAT, 300), 0x7f);
    assert_int_equal(cvt(WS_TY_S8, S32, 0, WS_MOD_SAT, (uint32_t)-300), 0x80);
    assert_int_equal(cvt(WS_TY_U8, S32, 0, WS_MOD_SAT, (uint32_t)-5), 0);
    assert_int_equal(cvt(WS_TY_U16, WS_TY_U64, 0, WS_MOD_SAT, 0x100000000ull), 0xffff);
    assert_int_equal(cvt(WS_TY_S64, WS_TY_U64, 0, WS_MOD_SAT, ~0ull), 0x7fffffffffffffffull);
    assert_int_equal(cvt(WS_TY_U64, WS_TY_S64, 0, WS_MOD_SAT, ~0ull), 0);
    assert_int_equal(cvt(S32, WS_TY_S8, 0, 0, 0x80), 0xffffff80);
    assert_int_equal(cvt(S32, WS_TY_S8, 0, 0, 0x17f), 0x7f);
    assert_int_equal(cvt(U32, WS_TY_S8, 0, 0, 0xff), 0xffffffff);
    assert_int_equal(cvt(U32, WS_TY_U8, 0, 0, 0xff), 0xff);
    assert_int_equal(cvt(WS_TY_U16, U32, 0, 0, 0x12345), 0x2345);
    assert_int_equal(cvt(WS_TY_S64, S32, 0, 0, 0x80000000), 0xffffffff80000000ull);
    assert_int_equal(cvt(WS_TY_U64, U32, 0, 0, 0x80000000), 0x80000000);
    assert_int_equal(cvt(WS_TY_U64, S32, 0, 0, 0x80000000), 0xffffffff80000000ull);
    assert_int_equal(cvt(S32, WS_TY_S64, 0, 0, 0x123456789ull), 0x23456789);
    /* a signed destination narrower than its register is sign-extended to the register */
    H->reg_types[0] = WS_TY_S32;
    assert_int_equal(cvt(WS_TY_S8, S32, 0, 0, 0x1ff), 0xffffffff);
    assert_int_equal(cvt(WS_TY_U8, S32, 0, 0, 0x1ff), 0xff);
    H->reg_types[0] = WS_TY_NONE;
}

static void test_int_to_float(void **s)
{
    (void)s;
    /* 2^64 - 1 -> 2^64 (0x5f800000) under rn, 0x5f7fffff under rz */
    assert_int_equal(cvt(F32, WS_TY_U64, WS_RND_RN, 0, ~0ull), 0x5f800000);
    assert_int_equal(cvt(F32, WS_TY_U64, WS_RND_RZ, 0, ~0ull), 0x5f7fffff);
    assert_int_equal(cvt(F32, WS_TY_S64, WS_RND_RN, 0, ~0ull), fbits(-1.0f));
    /* 2^24 + 1: a tie -> 2^24 (even); rp -> 2^24 + 2 */
    assert_int_equal(cvt(F32, S32, WS_RND_RN, 0, 16777217), 0x4b800000);
    assert_int_equal(cvt(F32, S32, WS_RND_RP, 0, 16777217), 0x4b800001);
    assert_int_equal(cvt(F32, S32, WS_RND_RM, 0, (uint32_t)-16777217), 0xcb800001);
    assert_int_equal(cvt(F32, U32, WS_RND_RN, 0, 0xffffffff), 0x4f800000);
    assert_int_equal(cvt(F32, S32, WS_RND_RN, 0, 0x80000000), 0xcf000000);
    assert_int_equal(cvt(F64, WS_TY_S64, WS_RND_RN, 0, ~0ull), dbits(-1.0));
    assert_int_equal(cvt(F64, WS_TY_U64, WS_RND_RZ, 0, ~0ull), 0x43efffffffffffffull);
    assert_int_equal(cvt(F32, WS_TY_S16, WS_RND_RN, 0, 0x8000), fbits(-32768.0f));
    assert_int_equal(cvt(F32, WS_TY_U8, WS_RND_RN, WS_MOD_SAT, 200), fbits(1.0f));
}

static void test_float_to_float(void **s)
{
    (void)s;
    assert_int_equal(cvt(F64, F32, 0, 0, 0x3dcccccd), 0x3fb99999a0000000ull);
    assert_int_equal(cvt(F32, F64, WS_RND_RN, 0, dbits(0.1)), 0x3dcccccd);
    assert_int_equal(cvt(F32, F64, WS_RND_RZ, 0, dbits(0.1)), 0x3dcccccc);
    assert_int_equal(cvt(F32, F64, WS_RND_RN, 0, dbits(1e300)), 0x7f800000);
    assert_int_equal(cvt(F32, F64, WS_RND_RZ, 0, dbits(1e300)), 0x7f7fffff);
    assert_int_equal(cvt(F32, F64, WS_RND_RN, 0, 0x7ff8000000000000ull), 0x7fffffff);
    /* 1e-40 is an f32 subnormal: kept, or flushed with .ftz */
    assert_int_not_equal(cvt(F32, F64, WS_RND_RN, 0, dbits(1e-40)), 0);
    assert_int_equal(cvt(F32, F64, WS_RND_RN, WS_MOD_FTZ, dbits(1e-40)), 0);
    assert_int_equal(cvt(F64, F32, 0, WS_MOD_FTZ, 0x80000001), 0x8000000000000000ull);
    /* round to integral in the same type */
    assert_int_equal(cvt(F32, F32, WS_RND_RNI, 0, fbits(2.5f)), fbits(2.0f));
    assert_int_equal(cvt(F32, F32, WS_RND_RNI, 0, fbits(3.5f)), fbits(4.0f));
    assert_int_equal(cvt(F32, F32, WS_RND_RMI, 0, fbits(-0.5f)), fbits(-1.0f));
    assert_int_equal(cvt(F32, F32, WS_RND_RZI, 0, fbits(-0.5f)), 0x80000000);
    assert_int_equal(cvt(F32, F32, WS_RND_RPI, 0, fbits(1.25f)), fbits(2.0f));
    assert_int_equal(cvt(F64, F64, WS_RND_RNI, 0, dbits(-7.5)), dbits(-8.0));
    assert_int_equal(cvt(F32, F32, 0, WS_MOD_SAT, fbits(1.5f)), fbits(1.0f));
    assert_int_equal(cvt(F32, F32, 0, WS_MOD_SAT, fbits(-1.5f)), 0);
}

/* cvt.rna.tf32.f32 (PTX ISA 9.7.9.21): tf32 keeps 10 fraction bits (the f32 bit pattern with
 * its low 13 bits zero), .rna = round to nearest, ties away from zero. At 1.0 the tf32 ulp is
 * 2^-10 (bit 13), so 1 + 2^-11 (0x3f801000) is a tie: away gives 1 + 2^-10 (0x3f802000), where
 * ties-to-even would give 1.0; one f32 ulp less rounds down. */
static uint64_t tf32(uint32_t a)
{
    setall(H, 1, a);
    ws_inst in = inst2(WS_OP_CVT, WS_TY_B32, reg(0), reg(1));
    in.type2 = F32;
    in.subop = WS_CVT_TF32_RNA;
    return run_r(H, &in, 0);
}

static void test_f32_to_tf32(void **s)
{
    (void)s;
    assert_int_equal(tf32(0x3f801000), 0x3f802000);   /* tie, away from zero */
    assert_int_equal(tf32(0xbf801000), 0xbf802000);   /* the negative tie: away (more negative) */
    assert_int_equal(tf32(0x3f800fff), 0x3f800000);   /* below the tie */
    assert_int_equal(tf32(0x3f801001), 0x3f802000);   /* above it */
    assert_int_equal(tf32(0x3f803000), 0x3f804000);   /* the tie above an odd tf32 value (ties-to-even agrees) */
    assert_int_equal(tf32(0x3fbfffff), 0x3fc00000);   /* the carry into the next fraction bit */
    assert_int_equal(tf32(0x3fffffff), 0x40000000);   /* ... and into the exponent */
    assert_int_equal(tf32(0x7f7ff000), 0x7f800000);   /* half way from the largest tf32 to 2^128: infinity */
    assert_int_equal(tf32(0x7f7fefff), 0x7f7fe000);   /* the largest tf32 */
    assert_int_equal(tf32(0x00001000), 0x00002000);   /* a subnormal tie */
    assert_int_equal(tf32(0x80000000), 0x80000000);   /* -0 */
    assert_int_equal(tf32(0xff800000), 0xff800000);   /* -inf */
    assert_int_equal(tf32(0x40490fdb), 0x40490000);   /* pi: fraction bits 0x0fdb below the tie */
}

int main(void)
{
    H = xh_new(32);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_float_to_int),
        cmocka_unit_test(test_float_to_int_table),
        cmocka_unit_test(test_nan_to_int),
        cmocka_unit_test(test_int_to_int),
        cmocka_unit_test(test_int_to_float),
        cmocka_unit_test(test_float_to_float),
        cmocka_unit_test(test_f32_to_tf32),
    };
    int r = cmocka_run_group_tests(tests, NULL, NULL);
    free(H);
    return r;
}
