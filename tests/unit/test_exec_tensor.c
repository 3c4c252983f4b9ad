/* mma.sync.aligned fragment positions (issue 15). Each case places one nonzero element of A
 * and of B in the lane and register the PTX ISA's fragment tables give (9.7.14.5.7-10, worked
 * out by hand in the comments: g = lane >> 2, t = lane % 4), and checks that their product
 * lands in the one lane and register of D the accumulator table names, every other element
 * of D being C. */
#include "exec_harness.h"

static xh *H;

/* registers: D 0-3, A 4-7, B 8-9, C 10-13 */
static ws_inst mma(unsigned form, unsigned dt, unsigned at, unsigned bt, unsigned ct, unsigned na, unsigned nb,
                   unsigned nd, unsigned nc)
{
    ws_inst in = xi(WS_OP_MMA, dt);
    in.subop = (uint8_t)form; in.type2 = (uint8_t)at; in.cmp = (uint8_t)bt; in.boolop = (uint8_t)ct;
    in.mods = WS_MOD_ALIGNED;
    in.dst[0] = vec(nd, 0, 1, 2, 3); in.ndst = 1;
    in.src[0] = vec(na, 4, 5, 6, 7);
    in.src[1] = vec(nb, 8, 9, 0, 0);
    in.src[2] = vec(nc, 10, 11, 12, 13);
    in.nsrc = 3;
    return in;
}

static void clear(void)
{
    for (unsigned r = 0; r < 14; r++) setall(H, r, 0);
}

/* every D register of every lane equals C's except (lane, reg) */
static void only(unsigned lane, unsigned reg, uint64_t want, unsigned nd)
{
    for (unsigned l = 0; l < 32; l++)
        for (unsigned r = 0; r < nd; r++) {
            uint64_t got = getr(H, r, l), exp = (l == lane && r == reg) ? want : getr(H, 10 + r, l);
            if (got != exp) fail_msg("lane %u d%u: 0x%llx, expected 0x%llx", l, r, (unsigned long long)got,
                                     (unsigned long long)exp);
        }
}

static void test_m16n8k16_f16(void **s)
{
    (void)s;
    clear();
    /* A: lane 5 (g 1, t 1), a5 = the high half of register 2: row g = 1 (4 <= i < 6),
     * col 2t + (i & 1) + 8 = 11 -> A[1][11] = 1.0 */
    setr(H, 6, 5, 0x3c000000);
    /* B[11][5]: row 2t + (i & 1) + 8 = 11 -> t 1, i 3 (b3: high half of register 1); col g = 5 ->
     * lane 21 -> 7.0 (0x4700) */
    setr(H, 9, 21, 0x47000000);
    /* D[1][5] = 7 + C: row g = 1 (i < 2), col 2t + (i & 1) = 5 -> t 2, i 1: lane 6, d1; C there 0.5 */
    setr(H, 11, 6, 0x3f000000);
    ws_inst in = mma(WS_MMA_M16N8K16_F16, WS_TY_F32, WS_TY_F16, WS_TY_F16, WS_TY_F32, 4, 2, 4, 4);
    assert_int_equal(xrun(H, &in), WS_EXEC_OK);
    only(6, 1, 0x40f00000 /* 7.5f */, 4);
    /* the same with bf16 operands: 1.0 = 0x3f80, 7.0 = 0x40e0 */
    clear();
    setr(H, 6, 5, 0x3f800000);
    setr(H, 9, 21, 0x40e00000);
    in = mma(WS_MMA_M16N8K16_F16, WS_TY_F32, WS_TY_BF16, WS_TY_BF16, WS_TY_F32, 4, 2, 4, 4);
    assert_int_equal(xrun(H, &in), WS_EXEC_OK);
    only(6, 1, 0x40e00000 /* 7.0f */, 4);
}

static void test_m16n8k8_f16_acc(void **s)
{
    (void)s;
    clear();
    /* A: lane 0 a1 (high half of register 0): row 0, col 2t + 1 = 1 -> 2.0 (0x4000);
     * B[1][3]: row 2t + i = 1 -> t 0, i 1 (high half); col g = 3 -> lane 12 -> 0.5 (0x3800);
     * D[0][3] = 1.0 + C: row g = 0, col 2t + (i & 1) = 3 -> t 1, i 1 -> lane 1, the high half of
     * the first .f16x2 register; C there 1.0 (0x3c00) -> 2.0 (0x4000) */
    setr(H, 4, 0, 0x40000000);
    setr(H, 8, 12, 0x38000000);
    setr(H, 10, 1, 0x3c000000);
    ws_inst in = mma(WS_MMA_M16N8K8_F16, WS_TY_F16, WS_TY_F16, WS_TY_F16, WS_TY_F16, 2, 1, 2, 2);
    assert_int_equal(xrun(H, &in), WS_EXEC_OK);
    only(1, 0, 0x40000000, 2);
}

static void test_m16n8k32_s8(void **s)
{
    (void)s;
    clear();
    /* A: lane 9 (g 2, t 1), a11 = byte 3 of register 2: row g = 2 (8 <= i < 12), col
     * 4t + (i & 3) + 16 = 23 -> A[2][23] = 3 (.s8) */
    setr(H, 6, 9, 0x03000000);
    /* B[23][6]: row 4t + (i & 3) + 16 = 23 -> t 1, i 7 (byte 3 of register 1); col g = 6 ->
     * lane 25 -> 200 (.u8) */
    setr(H, 9, 25, 0xc8000000);
    /* D[2][6]: row g = 2, col 2t + (i & 1) = 6 -> t 3, i 0 -> lane 11, d0. C = INT32_MAX - 100:
     * 600 more wraps to INT32_MIN + 499 (0x800001f3), or saturates with .satfinite */
    setr(H, 10, 11, 0x7fffff9b);
    ws_inst in = mma(WS_MMA_M16N8K32_I8, WS_TY_S32, WS_TY_S8, WS_TY_U8, WS_TY_S32, 4, 2, 4, 4);
    assert_int_equal(xrun(H, &in), WS_EXEC_OK);
    only(11, 0, 0x800001f3, 4);
    in.mods |= WS_MOD_SAT;
    assert_int_equal(xrun(H, &in), WS_EXEC_OK);
    only(11, 0, 0x7fffffff, 4);
    /* a signed A byte: -3 (0xfd) * 200 + (INT32_MAX - 100) = 0x7ffffd43 */
    setr(H, 6, 9, 0xfd000000);
    assert_int_equal(xrun(H, &in), WS_EXEC_OK);
    only(11, 0, 0x7ffffd43, 4);
}

static void test_m16n8k8_tf32(void **s)
{
    (void)s;
    clear();
    /* A: lane 14 (g 3, t 2), a3 = register 3: row g + 8 = 11 (a1, a3), col t + 4 = 6 ->
     * 1.5 (0x3fc00000) with the 13 ignored bits set */
    setr(H, 7, 14, 0x3fc01fff);
    /* B[6][7]: row t + 4i = 6 -> t 2, i 1 (register 1); col g = 7 -> lane 30 -> 3.0 + ignored bits */
    setr(H, 9, 30, 0x40401234);
    /* D[11][7] = 4.5: row g + 8 -> g 3, col 2t + (i & 1) = 7 -> t 3, i 3 -> lane 15, d3 */
    ws_inst in = mma(WS_MMA_M16N8K8_TF32, WS_TY_F32, WS_TY_B32, WS_TY_B32, WS_TY_F32, 4, 2, 4, 4);
    assert_int_equal(xrun(H, &in), WS_EXEC_OK);
    only(15, 3, 0x40900000, 4);
}

static void test_m8n8k4_f64(void **s)
{
    (void)s;
    clear();
    /* A[3][1]: lane 13 (g 3, t 1) a0 = 2.5; B[1][6]: row t = 1, col g = 6 -> lane 25, b0 = -4;
     * D[3][6]: row g = 3, col 2t + i = 6 -> t 3, i 0 -> lane 15, d0 = -10 + C (1.0) = -9 */
    setr(H, 4, 13, dbits(2.5));
    setr(H, 8, 25, dbits(-4.0));
    setr(H, 10, 15, dbits(1.0));
    ws_inst in = mma(WS_MMA_M8N8K4_F64, WS_TY_F64, WS_TY_F64, WS_TY_F64, WS_TY_F64, 1, 1, 2, 2);
    assert_int_equal(xrun(H, &in), WS_EXEC_OK);
    only(15, 0, dbits(-9.0), 2);
}

/* issue 24: m8n8k16 .s8 (PTX ISA 9.7.14.5.8): A (g, 4t + i), B (4t + i, g), C/D (g, 2t + i) */
static void test_m8n8k16_s8(void **s)
{
    (void)s;
    clear();
    /* A[2][5] = -3: g 2, 4t + i = 5 -> t 1, i 1 -> lane 9, byte 1; B[5][6] = 7: t 1, i 1, g 6 ->
     * lane 25, byte 1; D[2][6]: g 2, 2t + i = 6 -> t 3, i 0 -> lane 11, d0 = -21 + C (100) = 79 */
    setr(H, 4, 9, 0xfd00);
    setr(H, 8, 25, 0x0700);
    setr(H, 10, 11, 100);
    ws_inst in = mma(WS_MMA_M8N8K16_I8, WS_TY_S32, WS_TY_S8, WS_TY_S8, WS_TY_S32, 1, 1, 2, 2);
    assert_int_equal(xrun(H, &in), WS_EXEC_OK);
    only(11, 0, 79, 2);
}

/* m8n8k32 .s4.u4 (9.7.14.5.9): A (g, 8t + i), B (8t + i, g), eight nibbles per register */
static void test_m8n8k32_s4(void **s)
{
    (void)s;
    clear();
    /* A[7][13] = -2: g 7, 8t + i = 13 -> t 1, i 5 -> lane 29, nibble 5 (0xe); B[13][0] = 5: t 1,
     * i 5, g 0 -> lane 1; D[7][0]: g 7, t 0, i 0 -> lane 28, d0 = -10 + C (0) */
    setr(H, 4, 29, 0xeu << 20);
    setr(H, 8, 1, 5u << 20);
    ws_inst in = mma(WS_MMA_M8N8K32_I4, WS_TY_S32, WS_TY_S4, WS_TY_U4, WS_TY_S32, 1, 1, 2, 2);
    assert_int_equal(xrun(H, &in), WS_EXEC_OK);
    only(28, 0, (uint32_t)-10, 2);
}

/* m8n8k4 .col.row .f16 accumulators (9.7.14.5.1): quad pair 2 is lanes 8-11 and 24-27; with
 * q = lane % 4, h = lane >= 16: A .col (i + 4h, q), B .row (q, i + 4h), C/D .f16 (q + 4h, i) */
static void test_m8n8k4_f16_quad_pair(void **s)
{
    (void)s;
    clear();
    /* A[5][2] = 2.0 of pair 2: q 2, i + 4h = 5 -> h 1, i 1 -> lane 26, high half of a register 0;
     * B[2][3] = 3.0: q 2, i + 4h = 3 -> h 0, i 3 -> lane 10, high half of b register 1;
     * D[5][3] = 6.0: q + 4h = 5 -> h 1, q 1 -> lane 25, i 3 -> high half of d register 1 */
    setr(H, 4, 26, 0x40000000);
    setr(H, 9, 10, 0x42000000);
    ws_inst in = mma(WS_MMA_M8N8K4_F16, WS_TY_F16, WS_TY_F16, WS_TY_F16, WS_TY_F16, 2, 2, 4, 4);
    in.rnd = WS_MMA_A_COL | WS_MMA_B_ROW;
    assert_int_equal(xrun(H, &in), WS_EXEC_OK);
    only(25, 1, 0x46000000, 4);
    /* the same registers in quad pair 0 (lanes 18, 2): pair 2 is untouched, pair 0 gets it */
    clear();
    setr(H, 4, 18, 0x40000000);
    setr(H, 9, 2, 0x42000000);
    assert_int_equal(xrun(H, &in), WS_EXEC_OK);
    only(17, 1, 0x46000000, 4);
}

/* m8n8k4 .row.col .f32.f16.f16.f32: eight-register C and D, each split over two operands (D: 0-3
 * and 14-17, C: 10-13 and 18-21); C/D element i of lane (q, h): row (q & 1) + (i & 2) + 4h, column
 * (i & 4) + (q & 2) + (i & 1) (PTX ISA 9.7.14.5.1) */
static void test_m8n8k4_f16_f32_acc(void **s)
{
    (void)s;
    static const unsigned dreg[8] = {0, 1, 2, 3, 14, 15, 16, 17}, creg[8] = {10, 11, 12, 13, 18, 19, 20, 21};
    for (unsigned r = 0; r < 22; r++) setall(H, r, 0);
    for (unsigned i = 0; i < 8; i++) setall(H, creg[i], fbits(0.25f * (float)i));   /* C: i / 4 in element i */
    /* quad pair 3 (lanes 12-15, 28-31). A .row (q + 4h, i): A[6][1] = 1.5 -> h 1, q 2, i 1 -> lane 30,
     * high half of a register 0; B .col (i, q + 4h): B[1][5] = -2 -> i 1, h 1, q 1 -> lane 29, high
     * half of b register 0; D[6][5]: row 6 -> h 1, q & 1 = 0, i & 2 = 2; column 5 -> i & 4 = 4,
     * i & 1 = 1, q & 2 = 0 -> q 0, i 7 -> lane 28, d7 = -3 + C (7 / 4) = -1.25 */
    setr(H, 4, 30, 0x3e000000);
    setr(H, 8, 29, 0xc0000000);
    ws_inst in = mma(WS_MMA_M8N8K4_F16, WS_TY_F32, WS_TY_F16, WS_TY_F16, WS_TY_F32, 2, 2, 4, 4);
    in.dst[1] = vec(4, 14, 15, 16, 17); in.ndst = 2;
    in.src[3] = vec(4, 18, 19, 20, 21); in.nsrc = 4;
    assert_int_equal(xrun(H, &in), WS_EXEC_OK);
    for (unsigned l = 0; l < 32; l++)
        for (unsigned i = 0; i < 8; i++) {
            uint64_t want = l == 28 && i == 7 ? fbits(-1.25f) : fbits(0.25f * (float)i);
            if (getr(H, dreg[i], l) != want)
                fail_msg("lane %u d%u: 0x%llx, expected 0x%llx", l, i, (unsigned long long)getr(H, dreg[i], l),
                         (unsigned long long)want);
        }
}

/* m16n8k32 .e4m3 (the 8-bit layout of 9.7.14.5.10): A[9][20] = 1.5 (0x3c), B[20][3] = -448 (0xfe) */
static void test_m16n8k32_e4m3(void **s)
{
    (void)s;
    clear();
    /* A: row g + 8 = 9 -> g 1, i in 4..7 or 12..15; col 4t + (i & 3) + 16 = 20 -> t 1, i 12 ->
     * lane 5, register 3 byte 0; B: row 4t + (i & 3) + 16 = 20 -> t 1, i 4, col g 3 -> lane 13,
     * register 1 byte 0; D[9][3]: row g + 8 -> g 1, i 2 or 3; col 2t + 1 = 3 -> t 1, i 3 -> lane 5,
     * d3 = -672 + C (2.0) = -670 */
    setr(H, 7, 5, 0x3c);
    setr(H, 9, 13, 0xfe);
    setr(H, 13, 5, fbits(2.0f));
    ws_inst in = mma(WS_MMA_M16N8K32_F8, WS_TY_F32, WS_TY_E4M3, WS_TY_E4M3, WS_TY_F32, 4, 2, 4, 4);
    assert_int_equal(xrun(H, &in), WS_EXEC_OK);
    only(5, 3, fbits(-670.0f), 4);
}

static void test_partial_warp(void **s)
{
    (void)s;
    clear();
    ws_inst in = mma(WS_MMA_M16N8K16_F16, WS_TY_F32, WS_TY_F16, WS_TY_F16, WS_TY_F32, 4, 2, 4, 4);
    assert_int_equal(xrun_mask(H, &in, 0x7fffffff), WS_EXEC_FAULT);
    assert_non_null(strstr(H->env.fault, "partial warp"));
}

int main(void)
{
    H = xh_new(32);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_m16n8k16_f16),
        cmocka_unit_test(test_m16n8k8_f16_acc),
        cmocka_unit_test(test_m16n8k32_s8),
        cmocka_unit_test(test_m16n8k8_tf32),
        cmocka_unit_test(test_m8n8k4_f64),
        cmocka_unit_test(test_m8n8k16_s8),
        cmocka_unit_test(test_m8n8k32_s4),
        cmocka_unit_test(test_m8n8k4_f16_quad_pair),
        cmocka_unit_test(test_m8n8k4_f16_f32_acc),
        cmocka_unit_test(test_m16n8k32_e4m3),
        cmocka_unit_test(test_partial_warp),
    };
    int r = cmocka_run_group_tests(tests, NULL, NULL);
    free(H);
    return r;
}
