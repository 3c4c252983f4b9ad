/* Float arithmetic and comparison semantics (f32/f64), with rounding modes,
 * NaN and infinities, .ftz and .sat. Expected bit patterns worked out by hand
 * (see the comments) from IEEE 754 and the PTX ISA. */
#include "exec_harness.h"

static xh *H;

static uint64_t f2(unsigned op, unsigned ty, unsigned rnd, uint32_t mods, uint64_t a, uint64_t b)
{
    setall(H, 1, a); setall(H, 2, b);
    ws_inst in = inst3(op, ty, reg(0), reg(1), reg(2));
    in.rnd = (uint8_t)rnd; in.mods = mods;
    return run_r(H, &in, 0);
}
static uint64_t f1(unsigned op, unsigned ty, unsigned rnd, uint32_t mods, uint64_t a)
{
    setall(H, 1, a);
    ws_inst in = inst2(op, ty, reg(0), reg(1));
    in.rnd = (uint8_t)rnd; in.mods = mods;
    return run_r(H, &in, 0);
}
static uint64_t f3(unsigned op, unsigned ty, unsigned rnd, uint64_t a, uint64_t b, uint64_t c)
{
    setall(H, 1, a); setall(H, 2, b); setall(H, 3, c);
    ws_inst in = inst4(op, ty, reg(0), reg(1), reg(2), reg(3));
    in.rnd = (uint8_t)rnd;
    return run_r(H, &in, 0);
}

#define F32 WS_TY_F32
#define F64 WS_TY_F64
#define QNAN 0x7fffffffu

static void test_f32_rounding(void **s)
{
    (void)s;
    /* 0.1f = 0x3dcccccd = 13421773*2^-27, 0.2f = 0x3e4ccccd = 26843546*2^-27;
     * sum = 40265319*2^-27 = 10066329.75*2^-25: rn -> 10066330 (0x3e99999a), rz/rm -> 0x3e999999 */
    assert_int_equal(f2(WS_OP_ADD, F32, WS_RND_RN, 0, 0x3dcccccd, 0x3e4ccccd), 0x3e99999a);
    assert_int_equal(f2(WS_OP_ADD, F32, WS_RND_NONE, 0, 0x3dcccccd, 0x3e4ccccd), 0x3e99999a);
    assert_int_equal(f2(WS_OP_ADD, F32, WS_RND_RZ, 0, 0x3dcccccd, 0x3e4ccccd), 0x3e999999);
    assert_int_equal(f2(WS_OP_ADD, F32, WS_RND_RM, 0, 0x3dcccccd, 0x3e4ccccd), 0x3e999999);
    assert_int_equal(f2(WS_OP_ADD, F32, WS_RND_RP, 0, 0x3dcccccd, 0x3e4ccccd), 0x3e99999a);
    /* negative: rm rounds away from zero, rz towards */
    assert_int_equal(f2(WS_OP_ADD, F32, WS_RND_RM, 0, 0xbdcccccd, 0xbe4ccccd), 0xbe99999a);
    assert_int_equal(f2(WS_OP_ADD, F32, WS_RND_RZ, 0, 0xbdcccccd, 0xbe4ccccd), 0xbe999999);
    /* 1/3: 0x3eaaaaab (rn), 0x3eaaaaaa (rz) */
    assert_int_equal(f2(WS_OP_DIV, F32, WS_RND_RN, 0, fbits(1.0f), fbits(3.0f)), 0x3eaaaaab);
    assert_int_equal(f2(WS_OP_DIV, F32, WS_RND_RZ, 0, fbits(1.0f), fbits(3.0f)), 0x3eaaaaaa);
    assert_int_equal(f2(WS_OP_DIV, F32, WS_RND_NONE, WS_MOD_FULL, fbits(1.0f), fbits(3.0f)), 0x3eaaaaab);
    assert_int_equal(f2(WS_OP_DIV, F32, WS_RND_NONE, WS_MOD_APPROX, fbits(6.0f), fbits(3.0f)), fbits(2.0f));
    assert_int_equal(f2(WS_OP_SUB, F32, WS_RND_RN, 0, fbits(1.0f), fbits(3.0f)), fbits(-2.0f));
    assert_int_equal(f2(WS_OP_MUL, F32, WS_RND_RN, 0, fbits(1.5f), fbits(-4.0f)), fbits(-6.0f));
    /* the host rounding mode is restored afterwards */
    assert_int_equal(f2(WS_OP_ADD, F32, WS_RND_NONE, 0, 0x3dcccccd, 0x3e4ccccd), 0x3e99999a);
    /* fma is fused: a = 1+2^-12 (0x3f800800), a*a = 1+2^-11+2^-24 (a tie when rounded
     * alone, to 1+2^-11); fma(a, a, -(1+2^-11)) = 2^-24 = 0x33800000 */
    assert_int_equal(f3(WS_OP_FMA, F32, WS_RND_RN, 0x3f800800, 0x3f800800, 0xbf801000), 0x33800000);
    assert_int_equal(f3(WS_OP_MAD, F32, WS_RND_RN, 0x3f800800, 0x3f800800, 0xbf801000), 0x33800000);
    assert_int_equal(f2(WS_OP_MUL, F32, WS_RND_RN, 0, 0x3f800800, 0x3f800800), 0x3f801000);
}

static void test_f32_special(void **s)
{
    (void)s;
    const uint64_t inf = 0x7f800000, ninf = 0xff800000;
    assert_int_equal(f2(WS_OP_ADD, F32, 0, 0, 0x7fc00001, fbits(1.0f)), QNAN);
    assert_int_equal(f2(WS_OP_ADD, F32, 0, 0, inf, ninf), QNAN);
    assert_int_equal(f2(WS_OP_MUL, F32, 0, 0, inf, 0), QNAN);
    assert_int_equal(f2(WS_OP_ADD, F32, 0, 0, inf, fbits(1.0f)), inf);
    assert_int_equal(f2(WS_OP_DIV, F32, WS_RND_RN, 0, fbits(1.0f), 0), inf);
    assert_int_equal(f2(WS_OP_DIV, F32, WS_RND_RN, 0, fbits(-1.0f), 0), ninf);
    assert_int_equal(f1(WS_OP_SQRT, F32, WS_RND_RN, 0, fbits(-1.0f)), QNAN);
    assert_int_equal(f1(WS_OP_SQRT, F32, WS_RND_RN, 0, fbits(4.0f)), fbits(2.0f));
    assert_int_equal(f1(WS_OP_SQRT, F32, 0, WS_MOD_APPROX, fbits(9.0f)), fbits(3.0f));
    /* min/max: the non-NaN operand; both NaN -> NaN; -0 < +0 */
    assert_int_equal(f2(WS_OP_MIN, F32, 0, 0, 0x7fc00000, fbits(1.0f)), fbits(1.0f));
    assert_int_equal(f2(WS_OP_MAX, F32, 0, 0, fbits(1.0f), 0x7fc00000), fbits(1.0f));
    assert_int_equal(f2(WS_OP_MIN, F32, 0, 0, 0x7fc00000, 0xffc00000), QNAN);
    assert_int_equal(f2(WS_OP_MIN, F32, 0, 0, 0x00000000, 0x80000000), 0x80000000);
    assert_int_equal(f2(WS_OP_MAX, F32, 0, 0, 0x80000000, 0x00000000), 0x00000000);
    assert_int_equal(f2(WS_OP_MIN, F32, 0, 0, fbits(-3.0f), fbits(2.0f)), fbits(-3.0f));
    assert_int_equal(f2(WS_OP_MAX, F32, 0, 0, ninf, fbits(2.0f)), fbits(2.0f));
    /* rcp, rsqrt, ex2, lg2, sin, cos */
    assert_int_equal(f1(WS_OP_RCP, F32, WS_RND_RN, 0, fbits(3.0f)), 0x3eaaaaab);
    assert_int_equal(f1(WS_OP_RCP, F32, 0, WS_MOD_APPROX, fbits(4.0f)), fbits(0.25f));
    assert_int_equal(f1(WS_OP_RCP, F32, WS_RND_RN, 0, 0x80000000), ninf);
    assert_int_equal(f1(WS_OP_RSQRT, F32, 0, WS_MOD_APPROX, fbits(4.0f)), fbits(0.5f));
    assert_int_equal(f1(WS_OP_EX2, F32, 0, WS_MOD_APPROX, fbits(3.0f)), fbits(8.0f));
    assert_int_equal(f1(WS_OP_EX2, F32, 0, WS_MOD_APPROX, ninf), 0);
    assert_int_equal(f1(WS_OP_LG2, F32, 0, WS_MOD_APPROX, fbits(8.0f)), fbits(3.0f));
    assert_int_equal(f1(WS_OP_LG2, F32, 0, WS_MOD_APPROX, 0), ninf);
    assert_int_equal(f1(WS_OP_LG2, F32, 0, WS_MOD_APPROX, fbits(-1.0f)), QNAN);
    assert_int_equal(f1(WS_OP_SIN, F32, 0, WS_MOD_APPROX, 0), 0);
    assert_int_equal(f1(WS_OP_COS, F32, 0, WS_MOD_APPROX, 0), fbits(1.0f));
    assert_int_equal(f1(WS_OP_SIN, F32, 0, WS_MOD_APPROX, inf), QNAN);
    /* tanh.approx.f32 (tanhf under --use_fast_math, sm_75+) */
    assert_int_equal(f1(WS_OP_TANH, F32, 0, WS_MOD_APPROX, 0), 0);
    assert_int_equal(f1(WS_OP_TANH, F32, 0, WS_MOD_APPROX, 0x80000000), 0x80000000);
    assert_int_equal(f1(WS_OP_TANH, F32, 0, WS_MOD_APPROX, inf), fbits(1.0f));
    assert_int_equal(f1(WS_OP_TANH, F32, 0, WS_MOD_APPROX, ninf), fbits(-1.0f));
    assert_int_equal(f1(WS_OP_TANH, F32, 0, WS_MOD_APPROX, fbits(20.0f)), fbits(1.0f));
    assert_int_equal(f1(WS_OP_TANH, F32, 0, WS_MOD_APPROX, fbits(0.5f)), fbits(0.46211716f));
    assert_int_equal(f1(WS_OP_TANH, F32, 0, WS_MOD_APPROX, QNAN), QNAN);
    /* abs/neg/copysign are sign operations; copysign takes the sign of a */
    assert_int_equal(f1(WS_OP_ABS, F32, 0, 0, fbits(-2.0f)), fbits(2.0f));
    assert_int_equal(f1(WS_OP_NEG, F32, 0, 0, fbits(2.0f)), fbits(-2.0f));
    assert_int_equal(f1(WS_OP_NEG, F32, 0, 0, 0), 0x80000000);
    assert_int_equal(f2(WS_OP_COPYSIGN, F32, 0, 0, fbits(-1.0f), fbits(2.0f)), fbits(-2.0f));
    assert_int_equal(f2(WS_OP_COPYSIGN, F32, 0, 0, fbits(1.0f), fbits(-2.0f)), fbits(2.0f));
}

static void test_f32_ftz_sat(void **s)
{
    (void)s;
    /* subnormal input 0x00000001 (2^-149) */
    assert_int_equal(f2(WS_OP_ADD, F32, 0, 0, 0x00000001, 0), 0x00000001);
    assert_int_equal(f2(WS_OP_ADD, F32, 0, WS_MOD_FTZ, 0x00000001, 0), 0);
    assert_int_equal(f2(WS_OP_ADD, F32, 0, WS_MOD_FTZ, 0x80000001, 0x80000000), 0x80000000);
    /* subnormal result: 2^-100 (0x0d800000) * 2^-30 (0x30800000) = 2^-130 = 2^19 * 2^-149 */
    assert_int_equal(f2(WS_OP_MUL, F32, 0, 0, 0x0d800000, 0x30800000), 0x00080000);
    assert_int_equal(f2(WS_OP_MUL, F32, 0, WS_MOD_FTZ, 0x0d800000, 0x30800000), 0);
    assert_int_equal(f2(WS_OP_MUL, F32, 0, WS_MOD_FTZ, 0x8d800000, 0x30800000), 0x80000000);
    assert_int_equal(f1(WS_OP_NEG, F32, 0, WS_MOD_FTZ, 0x00000001), 0x80000000);
    assert_int_equal(f2(WS_OP_MIN, F32, 0, WS_MOD_FTZ, 0x00000001, 0x00000002), 0);
    /* sat: clamp to [0, 1], NaN -> 0 */
    assert_int_equal(f2(WS_OP_ADD, F32, 0, WS_MOD_SAT, fbits(0.75f), fbits(0.5f)), fbits(1.0f));
    assert_int_equal(f2(WS_OP_ADD, F32, 0, WS_MOD_SAT, fbits(-2.0f), fbits(1.0f)), 0);
    assert_int_equal(f2(WS_OP_ADD, F32, 0, WS_MOD_SAT, 0x7fc00000, fbits(1.0f)), 0);
    assert_int_equal(f2(WS_OP_MUL, F32, 0, WS_MOD_SAT, fbits(0.5f), fbits(0.5f)), fbits(0.25f));
}

static void test_f64(void **s)
{
    (void)s;
    /* 0.1 + 0.2 = 0.30000000000000004 (0x3fd3333333333334) under rn, ...333 under rz */
    assert_int_equal(f2(WS_OP_ADD, F64, WS_RND_RN, 0, dbits(0.1), dbits(0.2)), 0x3fd3333333333334ull);
    assert_int_equal(f2(WS_OP_ADD, F64, WS_RND_RZ, 0, dbits(0.1), dbits(0.2)), 0x3fd3333333333333ull);
    assert_int_equal(f2(WS_OP_DIV, F64, WS_RND_RN, 0, dbits(1.0), dbits(3.0)), 0x3fd5555555555555ull);
    assert_int_equal(f2(WS_OP_DIV, F64, WS_RND_RP, 0, dbits(1.0), dbits(3.0)), 0x3fd5555555555556ull);
    assert_int_equal(f1(WS_OP_SQRT, F64, WS_RND_RN, 0, dbits(2.0)), 0x3ff6a09e667f3bcdull);
    assert_int_equal(f1(WS_OP_SQRT, F64, WS_RND_RN, 0, dbits(-1.0)), 0x7fffffffffffffffull);
    assert_int_equal(f1(WS_OP_RCP, F64, WS_RND_RN, 0, dbits(4.0)), dbits(0.25));
    assert_int_equal(f2(WS_OP_MIN, F64, 0, 0, 0x7ff8000000000000ull, dbits(1.0)), dbits(1.0));
    assert_int_equal(f3(WS_OP_FMA, F64, WS_RND_RN, dbits(2.0), dbits(3.0), dbits(-1.0)), dbits(5.0));
    assert_int_equal(f1(WS_OP_ABS, F64, 0, 0, dbits(-0.5)), dbits(0.5));
    assert_int_equal(f1(WS_OP_NEG, F64, 0, 0, dbits(0.5)), dbits(-0.5));
}

static uint64_t testp(unsigned ty, unsigned op, uint64_t a)
{
    setall(H, 1, a);
    ws_inst in = inst2(WS_OP_TESTP, ty, reg(0), reg(1));
    in.subop = (uint8_t)op;
    return run_r(H, &in, 0);
}

static void test_testp(void **s)
{
    (void)s;
    assert_int_equal(testp(F32, WS_TESTP_FINITE, 0x7f800000), 0);
    assert_int_equal(testp(F32, WS_TESTP_FINITE, fbits(1.0f)), 1);
    assert_int_equal(testp(F32, WS_TESTP_INFINITE, 0xff800000), 1);
    assert_int_equal(testp(F32, WS_TESTP_NOTANUMBER, 0x7fc00000), 1);
    assert_int_equal(testp(F32, WS_TESTP_NUMBER, 0x7fc00000), 0);
    assert_int_equal(testp(F32, WS_TESTP_SUBNORMAL, 0x00000001), 1);
    assert_int_equal(testp(F32, WS_TESTP_NORMAL, 0x00000001), 0);
    assert_int_equal(testp(F32, WS_TESTP_NORMAL, fbits(1.0f)), 1);
    assert_int_equal(testp(F64, WS_TESTP_SUBNORMAL, 1), 1);
}

/* setp into p (reg 0) and q (reg 5) */
static uint64_t setp(unsigned ty, unsigned cmp, uint64_t a, uint64_t b)
{
    setall(H, 1, a); setall(H, 2, b);
    ws_inst in = inst3(WS_OP_SETP, ty, reg(0), reg(1), reg(2));
    in.cmp = (uint8_t)cmp;
    in.dst[1] = reg(5); in.ndst = 2;
    uint64_t p = run_r(H, &in, 0);
    assert_int_equal(getr(H, 5, 0), !p);
    return p;
}

static void test_setp(void **s)
{
    (void)s;
    const uint64_t nan = 0x7fc00000;
    assert_int_equal(setp(F32, WS_CMP_LT, nan, fbits(1.0f)), 0);
    assert_int_equal(setp(F32, WS_CMP_LTU, nan, fbits(1.0f)), 1);
    assert_int_equal(setp(F32, WS_CMP_NE, nan, nan), 0);
    assert_int_equal(setp(F32, WS_CMP_NEU, nan, nan), 1);
    assert_int_equal(setp(F32, WS_CMP_EQ, nan, nan), 0);
    assert_int_equal(setp(F32, WS_CMP_EQU, nan, fbits(1.0f)), 1);
    assert_int_equal(setp(F32, WS_CMP_GEU, fbits(1.0f), fbits(2.0f)), 0);
    assert_int_equal(setp(F32, WS_CMP_NUM, fbits(1.0f), fbits(2.0f)), 1);
    assert_int_equal(setp(F32, WS_CMP_NUM, fbits(1.0f), nan), 0);
    assert_int_equal(setp(F32, WS_CMP_NAN, fbits(1.0f), nan), 1);
    assert_int_equal(setp(F32, WS_CMP_EQ, 0x80000000, 0), 1);        /* -0 == +0 */
    assert_int_equal(setp(F32, WS_CMP_LE, fbits(2.0f), fbits(2.0f)), 1);
    assert_int_equal(setp(F32, WS_CMP_GT, 0x7f800000, fbits(1e38f)), 1);
    assert_int_equal(setp(F64, WS_CMP_LT, dbits(-1.0), dbits(0.5)), 1);
    assert_int_equal(setp(F64, WS_CMP_GTU, 0x7ff8000000000000ull, dbits(0.5)), 1);
    assert_int_equal(setp(WS_TY_S32, WS_CMP_LT, 0xffffffff, 1), 1);
    assert_int_equal(setp(WS_TY_U32, WS_CMP_LT, 0xffffffff, 1), 0);
    assert_int_equal(setp(WS_TY_S32, WS_CMP_LO, 0xffffffff, 1), 0);
    assert_int_equal(setp(WS_TY_S32, WS_CMP_HI, 0xffffffff, 1), 1);
    assert_int_equal(setp(WS_TY_S32, WS_CMP_HS, 1, 1), 1);
    assert_int_equal(setp(WS_TY_S32, WS_CMP_LS, 2, 1), 0);
    assert_int_equal(setp(WS_TY_U16, WS_CMP_GT, 0x8000, 0x7fff), 1);
    assert_int_equal(setp(WS_TY_S16, WS_CMP_GT, 0x8000, 0x7fff), 0);
    assert_int_equal(setp(WS_TY_S64, WS_CMP_GE, 0x8000000000000000ull, 0), 0);
    assert_int_equal(setp(WS_TY_B32, WS_CMP_NE, 0x100000000ull, 0), 0);   /* compares 32 bits */
    /* combining forms: p = t OP c, q = !t OP c; c may be negated */
    setall(H, 1, 1); setall(H, 2, 2); setall(H, 3, 1);
    ws_inst in = inst4(WS_OP_SETP, WS_TY_S32, reg(0), reg(1), reg(2), nreg(3));
    in.cmp = WS_CMP_LT; in.dst[1] = reg(5); in.ndst = 2;
    in.boolop = WS_BOOL_AND;
    assert_int_equal(run_r(H, &in, 0), 0);
    assert_int_equal(getr(H, 5, 0), 0);
    in.boolop = WS_BOOL_OR;
    assert_int_equal(run_r(H, &in, 0), 1);
    assert_int_equal(getr(H, 5, 0), 0);
    in.src[2] = reg(3);
    in.boolop = WS_BOOL_XOR;
    assert_int_equal(run_r(H, &in, 0), 0);
    assert_int_equal(getr(H, 5, 0), 1);
    in.boolop = WS_BOOL_AND;
    assert_int_equal(run_r(H, &in, 0), 1);
    assert_int_equal(getr(H, 5, 0), 0);
}

static void test_set_selp_slct(void **s)
{
    (void)s;
    setall(H, 1, 0xffffffff); setall(H, 2, 1);
    ws_inst in = inst3(WS_OP_SET, WS_TY_U32, reg(0), reg(1), reg(2));
    in.type2 = WS_TY_S32; in.cmp = WS_CMP_LT;
    assert_int_equal(run_r(H, &in, 0), 0xffffffff);
    in.type = WS_TY_F32;
    assert_int_equal(run_r(H, &in, 0), fbits(1.0f));
    in.cmp = WS_CMP_GT;
    assert_int_equal(run_r(H, &in, 0), 0);
    /* selp */
    for (unsigned l = 0; l < 32; l++) setr(H, 3, l, l & 1);
    setall(H, 1, 111); setall(H, 2, 222);
    in = inst4(WS_OP_SELP, WS_TY_B32, reg(0), reg(1), reg(2), reg(3));
    assert_int_equal(xrun(H, &in), WS_EXEC_OK);
    assert_int_equal(getr(H, 0, 0), 222);
    assert_int_equal(getr(H, 0, 1), 111);
    /* slct: c >= 0 selects a */
    in = inst4(WS_OP_SLCT, WS_TY_U32, reg(0), reg(1), reg(2), reg(3));
    in.type2 = WS_TY_F32;
    setall(H, 3, 0x80000000);          /* -0.0 >= 0 */
    assert_int_equal(run_r(H, &in, 0), 111);
    setall(H, 3, 0x7fc00000);          /* NaN: b */
    assert_int_equal(run_r(H, &in, 0), 222);
    in.type2 = WS_TY_S32;
    setall(H, 3, 0xffffffff);
    assert_int_equal(run_r(H, &in, 0), 222);
    setall(H, 3, 0);
    assert_int_equal(run_r(H, &in, 0), 111);
}

int main(void)
{
    H = xh_new(32);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f32_rounding),
        cmocka_unit_test(test_f32_special),
        cmocka_unit_test(test_f32_ftz_sat),
        cmocka_unit_test(test_f64),
        cmocka_unit_test(test_testp),
        cmocka_unit_test(test_setp),
        cmocka_unit_test(test_set_selp_slct),
    };
    int r = cmocka_run_group_tests(tests, NULL, NULL);
    free(H);
    return r;
}
