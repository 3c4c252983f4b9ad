/* Integer, logic, mov, special-register, guard and control semantics.
 * Expected values are worked out by hand from the PTX ISA definitions. */
#include "exec_harness.h"
#include <stdio.h>

static xh *H;

static uint64_t bin(unsigned op, unsigned ty, uint32_t mods, uint64_t a, uint64_t b)
{
    setall(H, 1, a); setall(H, 2, b);
    ws_inst in = inst3(op, ty, reg(0), reg(1), reg(2));
    in.mods = mods;
    return run_r(H, &in, 0);
}
static uint64_t tri(unsigned op, unsigned ty, uint32_t mods, unsigned sub, uint64_t a, uint64_t b, uint64_t c)
{
    setall(H, 1, a); setall(H, 2, b); setall(H, 3, c);
    ws_inst in = inst4(op, ty, reg(0), reg(1), reg(2), reg(3));
    in.mods = mods; in.subop = (uint8_t)sub;
    return run_r(H, &in, 0);
}
static uint64_t una(unsigned op, unsigned ty, uint64_t a)
{
    setall(H, 1, a);
    ws_inst in = inst2(op, ty, reg(0), reg(1));
    return run_r(H, &in, 0);
}

static void test_add_sub(void **s)
{
    (void)s;
    assert_int_equal(bin(WS_OP_ADD, WS_TY_U32, 0, 0xffffffff, 1), 0);
    assert_int_equal(bin(WS_OP_ADD, WS_TY_S32, 0, 0x7fffffff, 1), 0x80000000);
    assert_int_equal(bin(WS_OP_ADD, WS_TY_S32, WS_MOD_SAT, 0x7fffffff, 1), 0x7fffffff);
    assert_int_equal(bin(WS_OP_ADD, WS_TY_S32, WS_MOD_SAT, 0x80000000, 0xffffffff), 0x80000000);
    assert_int_equal(bin(WS_OP_SUB, WS_TY_S32, WS_MOD_SAT, 0x80000000, 1), 0x80000000);
    assert_int_equal(bin(WS_OP_SUB, WS_TY_S32, WS_MOD_SAT, 0x7fffffff, 0xffffffff), 0x7fffffff);
    assert_int_equal(bin(WS_OP_ADD, WS_TY_U16, 0, 0xffff, 2), 1);
    assert_int_equal(bin(WS_OP_SUB, WS_TY_U32, 0, 0, 1), 0xffffffff);
    assert_int_equal(bin(WS_OP_ADD, WS_TY_U64, 0, ~0ull, 2), 1);
    /* immediate operand, negative as int64 */
    setall(H, 1, 10);
    ws_inst in = inst3(WS_OP_ADD, WS_TY_S32, reg(0), reg(1), imm(-11));
    assert_int_equal(run_r(H, &in, 0), 0xffffffff);
}

static void test_mul(void **s)
{
    (void)s;
    assert_int_equal(bin(WS_OP_MUL, WS_TY_S32, WS_MOD_HI, 0x80000000, 0x80000000), 0x40000000);
    assert_int_equal(bin(WS_OP_MUL, WS_TY_U32, WS_MOD_HI, 0x80000000, 0x80000000), 0x40000000);
    assert_int_equal(bin(WS_OP_MUL, WS_TY_S32, WS_MOD_HI, 0x80000000, 2), 0xffffffff);
    assert_int_equal(bin(WS_OP_MUL, WS_TY_U32, WS_MOD_HI, 0x80000000, 2), 1);
    assert_int_equal(bin(WS_OP_MUL, WS_TY_U32, WS_MOD_HI, 0xffffffff, 0xffffffff), 0xfffffffe);
    assert_int_equal(bin(WS_OP_MUL, WS_TY_S32, WS_MOD_HI, 0xffffffff, 0xffffffff), 0);
    assert_int_equal(bin(WS_OP_MUL, WS_TY_S32, WS_MOD_WIDE, 0xffffffff, 0xffffffff), 1);
    assert_int_equal(bin(WS_OP_MUL, WS_TY_S32, WS_MOD_WIDE, 0xffffffff, 2), 0xfffffffffffffffeull);
    assert_int_equal(bin(WS_OP_MUL, WS_TY_U32, WS_MOD_WIDE, 0xffffffff, 0xffffffff), 0xfffffffe00000001ull);
    assert_int_equal(bin(WS_OP_MUL, WS_TY_S16, WS_MOD_WIDE, 0x8000, 0x8000), 0x40000000);
    assert_int_equal(bin(WS_OP_MUL, WS_TY_S32, WS_MOD_LO, 0x10000, 0x10000), 0);
    assert_int_equal(bin(WS_OP_MUL, WS_TY_U64, WS_MOD_HI, ~0ull, 2), 1);
    assert_int_equal(bin(WS_OP_MUL, WS_TY_S64, WS_MOD_HI, ~0ull, 2), ~0ull);
    assert_int_equal(bin(WS_OP_MUL, WS_TY_S64, WS_MOD_LO, 0x100000000ull, 0x100000000ull), 0);
    assert_int_equal(tri(WS_OP_MAD, WS_TY_S32, WS_MOD_LO, 0, 3, 4, 5), 17);
    assert_int_equal(tri(WS_OP_MAD, WS_TY_S32, WS_MOD_WIDE, 0, 0xfffffffe, 3, 10), 4);
    assert_int_equal(tri(WS_OP_MAD, WS_TY_U32, WS_MOD_HI, 0, 0x80000000, 4, 7), 9);
    assert_int_equal(tri(WS_OP_MAD, WS_TY_S32, WS_MOD_HI | WS_MOD_SAT, 0, 0x40000000, 0x40000000, 0x7fffffff), 0x7fffffff);
    assert_int_equal(bin(WS_OP_MUL24, WS_TY_S32, WS_MOD_LO, 0x00ffffff, 2), 0xfffffffe);
    assert_int_equal(bin(WS_OP_MUL24, WS_TY_U32, WS_MOD_LO, 0x01000003, 2), 6);
    assert_int_equal(bin(WS_OP_MUL24, WS_TY_U32, WS_MOD_HI, 0xffffff, 0xffffff), 0xfffffe00);
    assert_int_equal(tri(WS_OP_MAD24, WS_TY_U32, WS_MOD_LO, 0, 3, 5, 1), 16);
    assert_int_equal(tri(WS_OP_SAD, WS_TY_U32, 0, 0, 3, 10, 100), 107);
    assert_int_equal(tri(WS_OP_SAD, WS_TY_S32, 0, 0, 0xfffffffd, 4, 0), 7);
}

static void test_div_rem(void **s)
{
    (void)s;
    assert_int_equal(bin(WS_OP_DIV, WS_TY_S32, 0, 0x80000000, 0xffffffff), 0x80000000);
    assert_int_equal(bin(WS_OP_REM, WS_TY_S32, 0, 0x80000000, 0xffffffff), 0);
    assert_int_equal(bin(WS_OP_DIV, WS_TY_S64, 0, 0x8000000000000000ull, ~0ull), 0x8000000000000000ull);
    assert_int_equal(bin(WS_OP_DIV, WS_TY_U32, 0, 7, 0), 0xffffffff);
    assert_int_equal(bin(WS_OP_REM, WS_TY_U32, 0, 7, 0), 7);
    assert_int_equal(bin(WS_OP_DIV, WS_TY_S32, 0, 7, 0), 0xffffffff);
    assert_int_equal(bin(WS_OP_REM, WS_TY_S32, 0, 0xfffffff9, 0), 0xfffffff9);
    assert_int_equal(bin(WS_OP_DIV, WS_TY_S32, 0, 0xfffffff9, 2), 0xfffffffd);   /* -7/2 = -3 */
    assert_int_equal(bin(WS_OP_REM, WS_TY_S32, 0, 0xfffffff9, 2), 0xffffffff);   /* -7%2 = -1 */
    assert_int_equal(bin(WS_OP_DIV, WS_TY_U32, 0, 0xfffffff9, 2), 0x7ffffffc);
    assert_int_equal(bin(WS_OP_DIV, WS_TY_U64, 0, 100, 7), 14);
}

static void test_abs_neg_min_max(void **s)
{
    (void)s;
    assert_int_equal(una(WS_OP_ABS, WS_TY_S32, 0x80000000), 0x80000000);
    assert_int_equal(una(WS_OP_ABS, WS_TY_S32, 0xfffffffb), 5);
    assert_int_equal(una(WS_OP_ABS, WS_TY_S16, 0xffff), 1);
    assert_int_equal(una(WS_OP_NEG, WS_TY_S32, 1), 0xffffffff);
    assert_int_equal(una(WS_OP_NEG, WS_TY_S64, 1), ~0ull);
    assert_int_equal(bin(WS_OP_MIN, WS_TY_S32, 0, 0xffffffff, 1), 0xffffffff);
    assert_int_equal(bin(WS_OP_MIN, WS_TY_U32, 0, 0xffffffff, 1), 1);
    assert_int_equal(bin(WS_OP_MAX, WS_TY_S32, 0, 0xffffffff, 1), 1);
    assert_int_equal(bin(WS_OP_MAX, WS_TY_U32, 0, 0xffffffff, 1), 0xffffffff);
    assert_int_equal(bin(WS_OP_MAX, WS_TY_S16, 0, 0x8000, 1), 1);
    assert_int_equal(bin(WS_OP_MIN, WS_TY_S64, 0, 0x8000000000000000ull, 5), 0x8000000000000000ull);
}

static void test_logic(void **s)
{
    (void)s;
    assert_int_equal(bin(WS_OP_AND, WS_TY_B32, 0, 0xff00ff00, 0x0ff00ff0), 0x0f000f00);
    assert_int_equal(bin(WS_OP_OR, WS_TY_B32, 0, 0xff00ff00, 0x0ff00ff0), 0xfff0fff0);
    assert_int_equal(bin(WS_OP_XOR, WS_TY_B32, 0, 0xff00ff00, 0x0ff00ff0), 0xf0f0f0f0);
    assert_int_equal(una(WS_OP_NOT, WS_TY_B32, 0), 0xffffffff);
    assert_int_equal(una(WS_OP_NOT, WS_TY_B16, 0x00ff), 0xff00);
    assert_int_equal(una(WS_OP_CNOT, WS_TY_B32, 5), 0);
    assert_int_equal(una(WS_OP_CNOT, WS_TY_B32, 0), 1);
    assert_int_equal(bin(WS_OP_AND, WS_TY_PRED, 0, 1, 0), 0);
    assert_int_equal(bin(WS_OP_OR, WS_TY_PRED, 0, 1, 0), 1);
    assert_int_equal(bin(WS_OP_XOR, WS_TY_PRED, 0, 1, 1), 0);
    assert_int_equal(una(WS_OP_NOT, WS_TY_PRED, 1), 0);
    assert_int_equal(una(WS_OP_NOT, WS_TY_PRED, 0), 1);
}

static void test_shifts(void **s)
{
    (void)s;
    assert_int_equal(bin(WS_OP_SHL, WS_TY_B32, 0, 1, 31), 0x80000000);
    assert_int_equal(bin(WS_OP_SHL, WS_TY_B32, 0, 1, 32), 0);
    assert_int_equal(bin(WS_OP_SHL, WS_TY_B32, 0, 1, 33), 0);
    assert_int_equal(bin(WS_OP_SHL, WS_TY_B32, 0, 1, 0xffffffff), 0);
    assert_int_equal(bin(WS_OP_SHL, WS_TY_B64, 0, 1, 63), 0x8000000000000000ull);
    assert_int_equal(bin(WS_OP_SHL, WS_TY_B64, 0, 1, 64), 0);
    assert_int_equal(bin(WS_OP_SHR, WS_TY_S32, 0, 0xfffffff8, 40), 0xffffffff);
    assert_int_equal(bin(WS_OP_SHR, WS_TY_S32, 0, 0xfffffff8, 1), 0xfffffffc);
    assert_int_equal(bin(WS_OP_SHR, WS_TY_S32, 0, 0x7ffffff8, 40), 0);
    assert_int_equal(bin(WS_OP_SHR, WS_TY_U32, 0, 0x80000000, 32), 0);
    assert_int_equal(bin(WS_OP_SHR, WS_TY_U32, 0, 0x80000000, 31), 1);
    assert_int_equal(bin(WS_OP_SHR, WS_TY_B32, 0, 0x80000000, 4), 0x08000000);
    assert_int_equal(bin(WS_OP_SHR, WS_TY_S16, 0, 0x8000, 15), 0xffff);
    assert_int_equal(bin(WS_OP_SHR, WS_TY_S64, 0, 0x8000000000000000ull, 100), ~0ull);
    /* shf: {b,a} = 0x01234567_89abcdef */
    assert_int_equal(tri(WS_OP_SHF, WS_TY_B32, 0, WS_SHF_L_WRAP, 0x89abcdef, 0x01234567, 8), 0x23456789);
    assert_int_equal(tri(WS_OP_SHF, WS_TY_B32, 0, WS_SHF_R_WRAP, 0x89abcdef, 0x01234567, 8), 0x6789abcd);
    assert_int_equal(tri(WS_OP_SHF, WS_TY_B32, 0, WS_SHF_L_WRAP, 0x89abcdef, 0x01234567, 40), 0x23456789);
    assert_int_equal(tri(WS_OP_SHF, WS_TY_B32, 0, WS_SHF_L_CLAMP, 0x89abcdef, 0x01234567, 40), 0x89abcdef);
    assert_int_equal(tri(WS_OP_SHF, WS_TY_B32, 0, WS_SHF_R_CLAMP, 0x89abcdef, 0x01234567, 40), 0x01234567);
    assert_int_equal(tri(WS_OP_SHF, WS_TY_B32, 0, WS_SHF_R_WRAP, 0x89abcdef, 0x01234567, 32), 0x89abcdef);
    assert_int_equal(tri(WS_OP_SHF, WS_TY_B32, 0, WS_SHF_L_WRAP, 0x89abcdef, 0x01234567, 0), 0x01234567);
}

static void test_prmt(void **s)
{
    (void)s;
    const uint64_t a = 0x33221100, b = 0x77665544;
    assert_int_equal(tri(WS_OP_PRMT, WS_TY_B32, 0, WS_PRMT_DEFAULT, a, b, 0x7531), 0x77553311);
    assert_int_equal(tri(WS_OP_PRMT, WS_TY_B32, 0, WS_PRMT_DEFAULT, a, b, 0x3210), 0x33221100);
    assert_int_equal(tri(WS_OP_PRMT, WS_TY_B32, 0, WS_PRMT_DEFAULT, 0xf0, 0, 0x0008), 0xf0f0f0ff);
    assert_int_equal(tri(WS_OP_PRMT, WS_TY_B32, 0, WS_PRMT_F4E, a, b, 1), 0x44332211);
    assert_int_equal(tri(WS_OP_PRMT, WS_TY_B32, 0, WS_PRMT_B4E, a, b, 0), 0x55667700);
    assert_int_equal(tri(WS_OP_PRMT, WS_TY_B32, 0, WS_PRMT_B4E, a, b, 1), 0x66770011);
    assert_int_equal(tri(WS_OP_PRMT, WS_TY_B32, 0, WS_PRMT_RC8, a, b, 2), 0x22222222);
    assert_int_equal(tri(WS_OP_PRMT, WS_TY_B32, 0, WS_PRMT_ECL, a, b, 1), 0x33221111);
    assert_int_equal(tri(WS_OP_PRMT, WS_TY_B32, 0, WS_PRMT_ECR, a, b, 2), 0x22221100);
    assert_int_equal(tri(WS_OP_PRMT, WS_TY_B32, 0, WS_PRMT_RC16, a, b, 1), 0x33223322);
}

static void test_bits(void **s)
{
    (void)s;
    assert_int_equal(una(WS_OP_POPC, WS_TY_B32, 0xf0f0f0f0), 16);
    assert_int_equal(una(WS_OP_POPC, WS_TY_B64, ~0ull), 64);
    assert_int_equal(una(WS_OP_CLZ, WS_TY_B32, 0), 32);
    assert_int_equal(una(WS_OP_CLZ, WS_TY_B32, 1), 31);
    assert_int_equal(una(WS_OP_CLZ, WS_TY_B64, 1), 63);
    assert_int_equal(una(WS_OP_CLZ, WS_TY_B64, 0), 64);
    assert_int_equal(una(WS_OP_BREV, WS_TY_B32, 1), 0x80000000);
    assert_int_equal(una(WS_OP_BREV, WS_TY_B32, 0x12345678), 0x1e6a2c48);
    assert_int_equal(una(WS_OP_BREV, WS_TY_B64, 1), 0x8000000000000000ull);
    assert_int_equal(tri(WS_OP_BFE, WS_TY_U32, 0, 0, 0x12345678, 4, 8), 0x67);
    assert_int_equal(tri(WS_OP_BFE, WS_TY_S32, 0, 0, 0xf0, 4, 4), 0xffffffff);
    assert_int_equal(tri(WS_OP_BFE, WS_TY_S32, 0, 0, 0x70, 4, 4), 7);
    assert_int_equal(tri(WS_OP_BFE, WS_TY_U32, 0, 0, 0xf0000000, 28, 8), 0xf);
    assert_int_equal(tri(WS_OP_BFE, WS_TY_S32, 0, 0, 0xf0000000, 28, 8), 0xffffffff);
    assert_int_equal(tri(WS_OP_BFE, WS_TY_S32, 0, 0, 0xffffffff, 4, 0), 0);
    assert_int_equal(tri(WS_OP_BFE, WS_TY_U32, 0, 0, 0xffffffff, 40, 4), 0);
    assert_int_equal(tri(WS_OP_BFE, WS_TY_S32, 0, 0, 0x80000000, 40, 4), 0xffffffff);  /* sbit = a[31] */
    assert_int_equal(tri(WS_OP_BFE, WS_TY_S64, 0, 0, 0x8000000000ull, 36, 4), 0xfffffffffffffff8ull);
    assert_int_equal(tri(WS_OP_BFE, WS_TY_U32, 0, 0, 0x12345678, 0x104, 0x108), 0x67); /* only the low 8 bits count */
    /* bfi f, a, b, pos, len */
    setall(H, 1, 0xff); setall(H, 2, 0x12345678); setall(H, 3, 8); setall(H, 4, 8);
    ws_inst in = inst4(WS_OP_BFI, WS_TY_B32, reg(0), reg(1), reg(2), reg(3));
    in.src[3] = reg(4);
    assert_int_equal(run_r(H, &in, 0), 0x1234ff78);
    setall(H, 3, 28);
    assert_int_equal(run_r(H, &in, 0), 0xf2345678);
    setall(H, 3, 32);
    assert_int_equal(run_r(H, &in, 0), 0x12345678);
    setall(H, 3, 0); setall(H, 4, 0);
    assert_int_equal(run_r(H, &in, 0), 0x12345678);
}

/* bfind: position of the most significant 1 (signed: of the most significant bit that
 * differs from the sign); .shiftamt gives the left shift that brings it to the msb;
 * nothing found: 0xffffffff either way. */
static uint64_t bfind(unsigned ty, unsigned sub, uint64_t a)
{
    setall(H, 1, a);
    ws_inst in = inst2(WS_OP_BFIND, ty, reg(0), reg(1));
    in.subop = (uint8_t)sub;
    return run_r(H, &in, 0);
}
static void test_bfind(void **s)
{
    (void)s;
    assert_int_equal(bfind(WS_TY_U32, 0, 1), 0);
    assert_int_equal(bfind(WS_TY_U32, 0, 0x80000000), 31);
    assert_int_equal(bfind(WS_TY_U32, 0, 0x00012345), 16);
    assert_int_equal(bfind(WS_TY_U32, 0, 0), 0xffffffff);
    assert_int_equal(bfind(WS_TY_U32, WS_BFIND_SHIFTAMT, 0x00012345), 15);
    assert_int_equal(bfind(WS_TY_U32, WS_BFIND_SHIFTAMT, 0x80000000), 0);
    assert_int_equal(bfind(WS_TY_U32, WS_BFIND_SHIFTAMT, 0), 0xffffffff);
    assert_int_equal(bfind(WS_TY_S32, 0, 0xffffffff), 0xffffffff);       /* -1: no non-sign bit */
    assert_int_equal(bfind(WS_TY_S32, 0, 0xfffffff0), 3);                /* -16: first 0 at bit 3 */
    assert_int_equal(bfind(WS_TY_S32, 0, 0x7fffffff), 30);
    assert_int_equal(bfind(WS_TY_S32, WS_BFIND_SHIFTAMT, 0xfffffff0), 28);
    assert_int_equal(bfind(WS_TY_U64, 0, 1ull << 40), 40);
    assert_int_equal(bfind(WS_TY_U64, WS_BFIND_SHIFTAMT, 1ull << 40), 23);
    assert_int_equal(bfind(WS_TY_S64, 0, 0x8000000000000000ull), 62);
    assert_int_equal(bfind(WS_TY_U64, 0, 0), 0xffffffff);
}

static void test_carry_chain(void **s)
{
    (void)s;
    /* 64-bit add from 32-bit halves: 0x00000001_ffffffff + 0x00000000_00000001 */
    assert_int_equal(bin(WS_OP_ADD, WS_TY_U32, WS_MOD_CC, 0xffffffff, 1), 0);
    assert_int_equal(H->w.cc[0], 1);
    assert_int_equal(bin(WS_OP_ADDC, WS_TY_U32, 0, 1, 0), 2);
    assert_int_equal(bin(WS_OP_ADD, WS_TY_U32, WS_MOD_CC, 1, 1), 2);
    assert_int_equal(H->w.cc[0], 0);
    /* subtraction: CF is the carry of a + ~b + 1, 0 on a borrow; subc subtracts !CF */
    assert_int_equal(bin(WS_OP_SUB, WS_TY_U32, WS_MOD_CC, 0, 1), 0xffffffff);
    assert_int_equal(H->w.cc[0], 0);
    assert_int_equal(bin(WS_OP_SUBC, WS_TY_U32, WS_MOD_CC, 5, 1), 3);
    assert_int_equal(H->w.cc[0], 1);
    assert_int_equal(bin(WS_OP_SUBC, WS_TY_U32, WS_MOD_CC, 0, 0), 0);
    assert_int_equal(H->w.cc[0], 1);
    /* addc.cc carries out too: 0xffffffff + 0 + 1 */
    bin(WS_OP_ADD, WS_TY_U32, WS_MOD_CC, 0xffffffff, 1);
    assert_int_equal(bin(WS_OP_ADDC, WS_TY_U32, WS_MOD_CC, 0xffffffff, 0), 0);
    assert_int_equal(H->w.cc[0], 1);
    /* mad.lo.cc then madc.hi: 0xffff * 0x10001 = 0xffffffff; + 1 */
    assert_int_equal(tri(WS_OP_MAD, WS_TY_U32, WS_MOD_LO | WS_MOD_CC, 0, 0xffff, 0x10001, 1), 0);
    assert_int_equal(H->w.cc[0], 1);
    assert_int_equal(tri(WS_OP_MADC, WS_TY_U32, WS_MOD_HI, 0, 0xffff, 0x10001, 0), 1);
    /* 64-bit carry */
    assert_int_equal(bin(WS_OP_ADD, WS_TY_U64, WS_MOD_CC, ~0ull, 1), 0);
    assert_int_equal(H->w.cc[0], 1);
}

/* 128-bit subtraction as nvcc emits it (sub.cc.s64; subc.cc.s64) and as four 32-bit words
 * (sub.cc.u32; subc.cc.u32 x3), and the flag read by addc (issue 24: sub.cc then
 * addc.u32 c, 0, 0 gives c = 0 on a borrow). Values from Python integers: d = (a - b)
 * mod 2^128, nb = (a >= b), the final carry (1 = no borrow). */
static void test_multiword_sub(void **s)
{
    (void)s;
    static const struct { uint64_t ahi, alo, bhi, blo, dhi, dlo; int nb; } v[] = {
        {0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000001ull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0},
        {0x0000000000000001ull, 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000001ull, 0x0000000000000000ull, 0xffffffffffffffffull, 1},
        {0x0000000000000000ull, 0x0000000000000005ull, 0x0000000000000000ull, 0x0000000000000005ull, 0x0000000000000000ull, 0x0000000000000000ull, 1},
        {0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0x0000000000000000ull, 0x0000000000000000ull, 1},
        {0x0000000000000000ull, 0x0000000000000000ull, 0xffffffffffffffffull, 0xffffffffffffffffull, 0x0000000000000000ull, 0x0000000000000001ull, 0},
        {0x8000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000001ull, 0x7fffffffffffffffull, 0xffffffffffffffffull, 1},
        {0x9530fcd9d6fd1d9bull, 0x62032801b65c1c28ull, 0x2ad61d54ff8f735cull, 0x37e06c7b2ebe5794ull, 0x6a5adf84d76daa3full, 0x2a22bb86879dc494ull, 1},
        {0xae80b07aabbf3b84ull, 0x2b5c138b31b03dd5ull, 0xffada062c1fb0cf7ull, 0xb4b4e566177f53c2ull, 0xaed31017e9c42e8cull, 0x76a72e251a30ea13ull, 0},
        {0x488b09acb4e16c74ull, 0xce6f291a26bb9d18ull, 0x0341123cc414d39dull, 0xec13f9abb97582c6ull, 0x4549f76ff0cc98d6ull, 0xe25b2f6e6d461a52ull, 1},
        {0xb895579cdda3426bull, 0x77bf23b970fe21e4ull, 0x07362bea1d978d8cull, 0xa29af482fce799cdull, 0xb15f2bb2c00bb4deull, 0xd5242f3674168817ull, 1},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        assert_int_equal(bin(WS_OP_SUB, WS_TY_S64, WS_MOD_CC, v[i].alo, v[i].blo), v[i].dlo);
        assert_int_equal(bin(WS_OP_SUBC, WS_TY_S64, WS_MOD_CC, v[i].ahi, v[i].bhi), v[i].dhi);
        assert_int_equal(H->w.cc[0], v[i].nb);
        assert_int_equal(bin(WS_OP_ADDC, WS_TY_U32, 0, 0, 0), v[i].nb);
        uint64_t a[4] = {v[i].alo & 0xffffffff, v[i].alo >> 32, v[i].ahi & 0xffffffff, v[i].ahi >> 32};
        uint64_t b[4] = {v[i].blo & 0xffffffff, v[i].blo >> 32, v[i].bhi & 0xffffffff, v[i].bhi >> 32};
        uint64_t d[4] = {v[i].dlo & 0xffffffff, v[i].dlo >> 32, v[i].dhi & 0xffffffff, v[i].dhi >> 32};
        assert_int_equal(bin(WS_OP_SUB, WS_TY_U32, WS_MOD_CC, a[0], b[0]), d[0]);
        for (int w = 1; w < 4; w++)
            assert_int_equal(bin(WS_OP_SUBC, WS_TY_U32, WS_MOD_CC, a[w], b[w]), d[w]);
        assert_int_equal(H->w.cc[0], v[i].nb);
    }
    /* the case: sub.cc.s32 of 3 - 7 borrows, so CF = 0 and addc gives 0 */
    bin(WS_OP_SUB, WS_TY_S32, WS_MOD_CC, 3, 7);
    assert_int_equal(bin(WS_OP_ADDC, WS_TY_U32, 0, 0, 0), 0);
    bin(WS_OP_SUB, WS_TY_S32, WS_MOD_CC, 7, 3);
    assert_int_equal(bin(WS_OP_ADDC, WS_TY_U32, 0, 0, 0), 1);
    /* add.cc carries 1 into subc: 10 - 4 - !1 = 6; no carry: 10 - 4 - 1 = 5 */
    bin(WS_OP_ADD, WS_TY_U32, WS_MOD_CC, 0xffffffff, 1);
    assert_int_equal(bin(WS_OP_SUBC, WS_TY_U32, 0, 10, 4), 6);
    bin(WS_OP_ADD, WS_TY_U32, WS_MOD_CC, 1, 1);
    assert_int_equal(bin(WS_OP_SUBC, WS_TY_U32, 0, 10, 4), 5);
    /* sub.cc without a borrow carries 1 into madc: 2 * 3 + 4 + 1 */
    bin(WS_OP_SUB, WS_TY_U32, WS_MOD_CC, 9, 9);
    assert_int_equal(tri(WS_OP_MADC, WS_TY_U32, WS_MOD_LO, 0, 2, 3, 4), 11);
}

static void test_mov_sreg(void **s)
{
    (void)s;
    ws_inst in = inst2(WS_OP_MOV, WS_TY_U32, reg(0), sreg(WS_SR_LANEID));
    assert_int_equal(xrun(H, &in), WS_EXEC_OK);
    assert_int_equal(getr(H, 0, 5), 5);
    in.src[0] = sreg(WS_SR_TID_X);
    xrun(H, &in);
    assert_int_equal(getr(H, 0, 7), 7);
    in.src[0] = sreg(WS_SR_CTAID_X);
    assert_int_equal(run_r(H, &in, 0), 1);
    in.src[0] = sreg(WS_SR_NTID_X);
    assert_int_equal(run_r(H, &in, 0), 32);
    in.src[0] = sreg(WS_SR_NCTAID_X);
    assert_int_equal(run_r(H, &in, 0), 2);
    in.src[0] = sreg(WS_SR_WARPID);
    assert_int_equal(run_r(H, &in, 0), 3);
    in.src[0] = sreg(WS_SR_NSMID);
    assert_int_equal(run_r(H, &in, 0), 4);
    in.src[0] = sreg(WS_SR_CLOCK);
    assert_int_equal(run_r(H, &in, 0), 0x23456789);
    in.src[0] = sreg(WS_SR_LANEMASK_LT);
    xrun(H, &in);
    assert_int_equal(getr(H, 0, 5), 0x1f);
    in.src[0] = sreg(WS_SR_LANEMASK_GE);
    xrun(H, &in);
    assert_int_equal(getr(H, 0, 5), 0xffffffe0);
    in.src[0] = sreg(WS_SR_LANEMASK_GT);
    xrun(H, &in);
    assert_int_equal(getr(H, 0, 31), 0);
    in.src[0] = sreg(WS_SR_LANEMASK_EQ);
    xrun(H, &in);
    assert_int_equal(getr(H, 0, 31), 0x80000000);
    in = inst2(WS_OP_MOV, WS_TY_U64, reg(0), sreg(WS_SR_CLOCK64));
    assert_int_equal(run_r(H, &in, 0), 0x123456789ull);
    /* mov.u32 of a 64-bit value truncates */
    in = inst2(WS_OP_MOV, WS_TY_U32, reg(0), imm(0x1ffffffffll));
    assert_int_equal(run_r(H, &in, 0), 0xffffffff);
    /* pack / unpack */
    setall(H, 1, 0x11111111); setall(H, 2, 0x22222222);
    in = inst2(WS_OP_MOV, WS_TY_B64, reg(0), vec(2, 1, 2, 0, 0));
    assert_int_equal(run_r(H, &in, 0), 0x2222222211111111ull);
    setall(H, 3, 0xaabbccdd11223344ull);
    in = inst2(WS_OP_MOV, WS_TY_B64, vec(2, 4, 5, 0, 0), reg(3));
    xrun(H, &in);
    assert_int_equal(getr(H, 4, 0), 0x11223344);
    assert_int_equal(getr(H, 5, 0), 0xaabbccdd);
    in = inst2(WS_OP_MOV, WS_TY_B32, vec(2, 4, WS_NO_REG, 0, 0), imm(0x12345678));
    xrun(H, &in);
    assert_int_equal(getr(H, 4, 0), 0x5678);
}

static void test_guard(void **s)
{
    (void)s;
    for (unsigned l = 0; l < 32; l++) { setr(H, 9, l, l & 1); setr(H, 0, l, 99); }
    setall(H, 1, 1); setall(H, 2, 2);
    ws_inst in = inst3(WS_OP_ADD, WS_TY_U32, reg(0), reg(1), reg(2));
    in.guard = 9;
    assert_int_equal(xrun(H, &in), WS_EXEC_OK);
    assert_int_equal(H->eff.executed, 0xaaaaaaaaull);
    assert_int_equal(getr(H, 0, 0), 99);
    assert_int_equal(getr(H, 0, 1), 3);
    in.guard_neg = 1;
    assert_int_equal(xrun_mask(H, &in, 0xf), WS_EXEC_OK);
    assert_int_equal(H->eff.executed, 0x5);
    assert_int_equal(getr(H, 0, 0), 3);
    assert_int_equal(getr(H, 0, 4), 99);   /* not active */
}

static void test_control(void **s)
{
    (void)s;
    for (unsigned l = 0; l < 32; l++) setr(H, 9, l, l < 4);
    ws_inst in = xi(WS_OP_BRA, WS_TY_NONE);
    in.guard = 9; in.target = 17;
    assert_int_equal(xrun(H, &in), WS_EXEC_OK);
    assert_int_equal(H->eff.taken, 0xf);
    assert_int_equal(H->eff.executed, 0xf);
    in = xi(WS_OP_EXIT, WS_TY_NONE);
    in.guard = 9; in.guard_neg = 1;
    assert_int_equal(xrun(H, &in), WS_EXEC_OK);
    assert_int_equal(H->eff.exited, 0xfffffff0ull);
    /* brx.idx: targets kernel->brx_targets[1..3] */
    for (unsigned l = 0; l < 32; l++) setr(H, 1, l, l % 3);
    in = xi(WS_OP_BRX, WS_TY_NONE);
    in.src[0] = reg(1); in.nsrc = 1; in.target = 1; in.ntargets = 3;
    assert_int_equal(xrun(H, &in), WS_EXEC_OK);
    assert_int_equal(H->eff.taken, 0xffffffffull);
    assert_int_equal(H->eff.lane_target[0], 20);
    assert_int_equal(H->eff.lane_target[1], 30);
    assert_int_equal(H->eff.lane_target[2], 40);
    assert_int_equal(H->eff.lane_target[3], 20);
    setr(H, 1, 2, 3);
    assert_int_equal(xrun(H, &in), WS_EXEC_FAULT);
    assert_non_null(strstr(H->env.fault, "lane 2 (thread tid=(2,0,0) cta=(1,0,0)): pc 5 (PTX line 42): brx.idx index 3"));
    in = xi(WS_OP_BAR, WS_TY_NONE);
    assert_int_equal(xrun(H, &in), WS_EXEC_OK);
    assert_int_equal(H->eff.executed, 0xffffffffull);
    assert_int_equal(H->eff.mem_kind, 0);
}

int main(void)
{
    H = xh_new(32);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_add_sub),
        cmocka_unit_test(test_mul),
        cmocka_unit_test(test_div_rem),
        cmocka_unit_test(test_abs_neg_min_max),
        cmocka_unit_test(test_logic),
        cmocka_unit_test(test_shifts),
        cmocka_unit_test(test_prmt),
        cmocka_unit_test(test_bits),
        cmocka_unit_test(test_bfind),
        cmocka_unit_test(test_carry_chain),
        cmocka_unit_test(test_multiword_sub),
        cmocka_unit_test(test_mov_sreg),
        cmocka_unit_test(test_guard),
        cmocka_unit_test(test_control),
    };
    int r = cmocka_run_group_tests(tests, NULL, NULL);
    free(H);
    return r;
}
