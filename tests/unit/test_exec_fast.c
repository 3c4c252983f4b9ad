/* The warp-wide fast paths (src/exec/exec_fast.c): which forms take them, and
 * their results. Every expectation is worked out by hand from the PTX ISA
 * definitions; each instruction runs twice on the same inputs, once through
 * the fast path (ws_inst.fast = ws_exec_fast_form) and once through the
 * generic families (fast = 0), and both must give the hand value. Lanes
 * outside the executed mask must keep their old contents. */
#include "exec_harness.h"
#include <stdio.h>
#include "warpsweep/ptx.h"

#define SENT 0x5a5a5a5a5a5a5a5aull   /* the old contents of a destination */

static uint64_t saved[XH_NREGS * WS_MAX_WARP_SIZE];

/* Runs in (on active) both ways; want(l) of every executed lane is checked in
 * register dreg, SENT in the others. */
static void check_lanes(xh *h, ws_inst in, unsigned dreg, uint64_t active, const uint64_t *want)
{
    unsigned ws = h->L.warp_size;
    for (unsigned l = 0; l < ws; l++) setr(h, dreg, l, SENT);
    memcpy(saved, h->regs, sizeof saved);
    for (int pass = 0; pass < 2; pass++) {
        memcpy(h->regs, saved, sizeof saved);
        in.fast = pass == 0 ? ws_exec_fast_form(&in) : 0;
        if (pass == 0) assert_true(in.fast != 0);
        assert_int_equal(xrun_mask(h, &in, active), WS_EXEC_OK);
        for (unsigned l = 0; l < ws; l++) {
            uint64_t got = getr(h, dreg, l), exp = (active >> l) & 1 ? want[l] : SENT;
            if (got != exp)
                fprintf(stderr, "%s path, lane %u: got 0x%llx, want 0x%llx\n", pass ? "generic" : "fast", l,
                        (unsigned long long)got, (unsigned long long)exp);
            assert_true(got == exp);
        }
    }
}

/* The same value expected in every lane of a full warp. */
static void check_all(xh *h, ws_inst in, unsigned dreg, uint64_t want)
{
    uint64_t w[WS_MAX_WARP_SIZE];
    for (unsigned l = 0; l < WS_MAX_WARP_SIZE; l++) w[l] = want;
    check_lanes(h, in, dreg, h->w.valid, w);
}

static uint64_t rr(xh *h, unsigned op, unsigned ty, uint32_t mods, uint64_t a, uint64_t b, uint64_t want)
{
    setall(h, 1, a); setall(h, 2, b);
    ws_inst in = inst3(op, ty, reg(0), reg(1), reg(2));
    in.mods = mods;
    check_all(h, in, 0, want);
    /* the same with b as an immediate, and with a as one */
    in = inst3(op, ty, reg(0), reg(1), imm((int64_t)b));
    in.mods = mods;
    check_all(h, in, 0, want);
    in = inst3(op, ty, reg(0), imm((int64_t)a), reg(2));
    in.mods = mods;
    check_all(h, in, 0, want);
    return want;
}

static void rrr(xh *h, unsigned op, unsigned ty, uint32_t mods, uint64_t a, uint64_t b, uint64_t c, uint64_t want)
{
    setall(h, 1, a); setall(h, 2, b); setall(h, 3, c);
    for (unsigned p = 0; p < 8; p++) {   /* every register / immediate pattern */
        ws_inst in = inst4(op, ty, reg(0), p & 4 ? imm((int64_t)a) : reg(1), p & 2 ? imm((int64_t)b) : reg(2),
                           p & 1 ? imm((int64_t)c) : reg(3));
        in.mods = mods;
        check_all(h, in, 0, want);
    }
}

static void setp(xh *h, unsigned ty, unsigned cmp, uint64_t a, uint64_t b, uint64_t want)
{
    ws_inst in;
    setall(h, 1, a); setall(h, 2, b);
    in = inst3(WS_OP_SETP, ty, reg(0), reg(1), reg(2));
    in.cmp = (uint8_t)cmp;
    check_all(h, in, 0, want);
    in.src[1] = imm((int64_t)b);
    check_all(h, in, 0, want);
}

static void test_add_sub_logic(void **s)
{
    xh *h = xh_new(32);
    (void)s;
    rr(h, WS_OP_ADD, WS_TY_U32, 0, 0xffffffff, 1, 0);                    /* wraps at 32 bits */
    rr(h, WS_OP_ADD, WS_TY_S32, 0, 0x7fffffff, 1, 0x80000000);
    rr(h, WS_OP_ADD, WS_TY_U64, 0, ~0ull, 2, 1);
    rr(h, WS_OP_ADD, WS_TY_U16, 0, 0xffff, 2, 1);
    rr(h, WS_OP_SUB, WS_TY_U32, 0, 0, 1, 0xffffffff);
    rr(h, WS_OP_SUB, WS_TY_S64, 0, 5, 7, 0xfffffffffffffffeull);
    rr(h, WS_OP_AND, WS_TY_B32, 0, 0x1234567f0ull, 0xff00ff0f, 0x23006700);
    rr(h, WS_OP_OR, WS_TY_B32, 0, 0xf0000000, 0x0000000f, 0xf000000f);
    rr(h, WS_OP_XOR, WS_TY_B64, 0, 0xff00ff00ff00ff00ull, 0xffffffff00000000ull, 0x00ff00ffff00ff00ull);
    rr(h, WS_OP_AND, WS_TY_PRED, 0, 1, 1, 1);
    rr(h, WS_OP_XOR, WS_TY_PRED, 0, 1, 1, 0);
    setall(h, 1, 0);
    check_all(h, inst2(WS_OP_NOT, WS_TY_B32, reg(0), reg(1)), 0, 0xffffffff);
    setall(h, 1, 1);
    check_all(h, inst2(WS_OP_NOT, WS_TY_PRED, reg(0), reg(1)), 0, 0);
    check_all(h, inst2(WS_OP_MOV, WS_TY_U32, reg(0), imm(0x100000005ll)), 0, 5);   /* masked to .u32 */
    setall(h, 1, 0x8877665544332211ull);
    check_all(h, inst2(WS_OP_MOV, WS_TY_B64, reg(0), reg(1)), 0, 0x8877665544332211ull);
    check_all(h, inst2(WS_OP_MOV, WS_TY_U16, reg(0), reg(1)), 0, 0x2211);
    free(h);
}

static void test_mul_mad(void **s)
{
    xh *h = xh_new(32);
    (void)s;
    rr(h, WS_OP_MUL, WS_TY_S32, WS_MOD_LO, 0x10000, 0x10000, 0);           /* 2^32 mod 2^32 */
    rr(h, WS_OP_MUL, WS_TY_S32, WS_MOD_LO, 0xfffffffd, 5, 0xfffffff1);     /* -3 * 5 = -15 */
    rr(h, WS_OP_MUL, WS_TY_U32, 0, 0xffffffff, 0xffffffff, 1);             /* (2^32-1)^2 mod 2^32 */
    rr(h, WS_OP_MUL, WS_TY_U64, WS_MOD_LO, 0x100000001ull, 0x100000001ull, 0x200000001ull);
    rr(h, WS_OP_MUL, WS_TY_U16, WS_MOD_LO, 0x100, 0x101, 0x100);           /* 0x10100 mod 2^16 */
    /* .wide: the full 64-bit product of the sign- or zero-extended operands */
    rr(h, WS_OP_MUL, WS_TY_S32, WS_MOD_WIDE, 0xfffffffe, 3, 0xfffffffffffffffaull);   /* -2 * 3 */
    rr(h, WS_OP_MUL, WS_TY_U32, WS_MOD_WIDE, 0xffffffff, 0xffffffff, 0xfffffffe00000001ull);
    rr(h, WS_OP_MUL, WS_TY_S32, WS_MOD_WIDE, 0x80000000, 0x80000000, 0x4000000000000000ull);
    rr(h, WS_OP_MUL, WS_TY_S16, WS_MOD_WIDE, 0xffff, 0x7fff, 0xffff8001);  /* -32767, 32 bits */
    rrr(h, WS_OP_MAD, WS_TY_S32, WS_MOD_LO, 0x7fffffff, 2, 3, 1);           /* 0xfffffffe + 3 wraps */
    rrr(h, WS_OP_MAD, WS_TY_U64, WS_MOD_LO, 0x100000000ull, 0x100000000ull, 7, 7);
    rrr(h, WS_OP_MAD, WS_TY_S32, WS_MOD_WIDE, 0xffffffff, 4, 0x100, 0xfc);  /* -4 + 0x100 */
    rrr(h, WS_OP_MAD, WS_TY_U32, WS_MOD_WIDE, 0xffffffff, 2, 1, 0x1ffffffffull);
    free(h);
}

static void test_shift_minmax(void **s)
{
    xh *h = xh_new(32);
    (void)s;
    rr(h, WS_OP_SHL, WS_TY_B32, 0, 1, 31, 0x80000000);
    rr(h, WS_OP_SHL, WS_TY_B32, 0, 1, 32, 0);          /* counts >= the width give 0 */
    rr(h, WS_OP_SHL, WS_TY_B32, 0, 0xffffffff, 1000, 0);
    rr(h, WS_OP_SHL, WS_TY_B64, 0, 3, 63, 0x8000000000000000ull);
    rr(h, WS_OP_SHL, WS_TY_B64, 0, 1, 64, 0);
    rr(h, WS_OP_SHR, WS_TY_U32, 0, 0x80000000, 31, 1);
    rr(h, WS_OP_SHR, WS_TY_U32, 0, 0x80000000, 32, 0);
    rr(h, WS_OP_SHR, WS_TY_B32, 0, 0x1f0000000ull, 4, 0x0f000000);       /* .b32 reads 32 bits */
    rr(h, WS_OP_SHR, WS_TY_S32, 0, 0x80000000, 31, 0xffffffff);
    rr(h, WS_OP_SHR, WS_TY_S32, 0, 0x80000000, 40, 0xffffffff);          /* signed: clamped, sign fill */
    rr(h, WS_OP_SHR, WS_TY_S32, 0, 0x40000000, 40, 0);
    rr(h, WS_OP_SHR, WS_TY_S64, 0, 0x8000000000000000ull, 100, ~0ull);
    rr(h, WS_OP_MIN, WS_TY_S32, 0, 0xffffffff, 1, 0xffffffff);           /* -1 < 1 */
    rr(h, WS_OP_MIN, WS_TY_U32, 0, 0xffffffff, 1, 1);
    rr(h, WS_OP_MAX, WS_TY_S32, 0, 0xffffffff, 1, 1);
    rr(h, WS_OP_MAX, WS_TY_U32, 0, 0xffffffff, 1, 0xffffffff);
    rr(h, WS_OP_MIN, WS_TY_S64, 0, 0x8000000000000000ull, 0x7fffffffffffffffull, 0x8000000000000000ull);
    rr(h, WS_OP_MAX, WS_TY_S16, 0, 0x8000, 0x7fff, 0x7fff);
    free(h);
}

static void test_setp_selp_cvta(void **s)
{
    xh *h = xh_new(32);
    (void)s;
    setp(h, WS_TY_S32, WS_CMP_LT, 0xffffffff, 1, 1);   /* -1 < 1 signed */
    setp(h, WS_TY_U32, WS_CMP_LT, 0xffffffff, 1, 0);
    setp(h, WS_TY_S32, WS_CMP_LO, 0xffffffff, 1, 0);   /* lo is unsigned on any type */
    setp(h, WS_TY_S32, WS_CMP_HI, 0xffffffff, 1, 1);
    setp(h, WS_TY_U32, WS_CMP_EQ, 0x100000005ull, 5, 1);   /* only the low 32 bits compare */
    setp(h, WS_TY_U32, WS_CMP_NE, 0x100000005ull, 5, 0);
    setp(h, WS_TY_U64, WS_CMP_NE, 0x100000005ull, 5, 1);
    setp(h, WS_TY_U64, WS_CMP_LT, 0, 0x8000000000000000ull, 1);
    setp(h, WS_TY_U64, WS_CMP_LT, 0x8000000000000000ull, 0x7fffffffffffffffull, 0);
    setp(h, WS_TY_S64, WS_CMP_GE, 0x8000000000000000ull, 0x7fffffffffffffffull, 0);
    setp(h, WS_TY_S64, WS_CMP_LE, 0x8000000000000000ull, 0x8000000000000000ull, 1);
    setp(h, WS_TY_U64, WS_CMP_LE, ~0ull, ~0ull, 1);
    setp(h, WS_TY_U64, WS_CMP_GT, ~0ull, ~0ull - 1, 1);
    setp(h, WS_TY_S16, WS_CMP_GT, 0x8000, 0x7fff, 0);  /* -32768 > 32767 is false */
    setp(h, WS_TY_U16, WS_CMP_GT, 0x8000, 0x7fff, 1);
    setp(h, WS_TY_S32, WS_CMP_GE, 5, 5, 1);
    setp(h, WS_TY_U32, WS_CMP_HS, 4, 5, 0);
    setp(h, WS_TY_U32, WS_CMP_LS, 5, 5, 1);

    /* selp.u32 d, 7, 9, p with p differing per lane (2 counts as true: nonzero) */
    uint64_t want[WS_MAX_WARP_SIZE];
    for (unsigned l = 0; l < 32; l++) { setr(h, 3, l, l % 3 == 0 ? 0 : (l & 1) + 1); want[l] = l % 3 == 0 ? 9 : 7; }
    check_lanes(h, inst4(WS_OP_SELP, WS_TY_U32, reg(0), imm(7), imm(9), reg(3)), 0, h->w.valid, want);
    setall(h, 1, 0x1000000007ull); setall(h, 2, 9);
    for (unsigned l = 0; l < 32; l++) want[l] = l % 3 == 0 ? 9 : 7;
    check_lanes(h, inst4(WS_OP_SELP, WS_TY_U32, reg(0), reg(1), reg(2), reg(3)), 0, h->w.valid, want);

    ws_inst in = inst2(WS_OP_CVTA, WS_TY_U64, reg(0), reg(1));
    in.space = WS_SP_SHARED; in.mods = WS_MOD_TO;
    setall(h, 1, WS_SHARED_WINDOW + 0x10);
    check_all(h, in, 0, 0x10);
    in.space = WS_SP_LOCAL; in.mods = 0;
    setall(h, 1, 0x20);
    check_all(h, in, 0, WS_LOCAL_WINDOW + 0x20);
    in.space = WS_SP_GLOBAL;
    check_all(h, in, 0, 0x20);
    free(h);
}

static void cvt(xh *h, unsigned dt, unsigned st, uint64_t a, uint64_t want)
{
    setall(h, 1, a);
    ws_inst in = inst2(WS_OP_CVT, dt, reg(0), reg(1));
    in.type2 = (uint8_t)st;
    check_all(h, in, 0, want);
    in.src[0] = imm((int64_t)a);
    check_all(h, in, 0, want);
}

/* cvt between integer types: extend from the source width, cut to the destination's */
static void test_cvt_int(void **s)
{
    xh *h = xh_new(32);
    (void)s;
    cvt(h, WS_TY_S64, WS_TY_S32, 0x80000000, 0xffffffff80000000ull);
    cvt(h, WS_TY_S64, WS_TY_S32, 0x17fffffffull, 0x7fffffff);       /* only the low 32 bits are read */
    cvt(h, WS_TY_U64, WS_TY_U32, 0x180000000ull, 0x80000000);
    cvt(h, WS_TY_S64, WS_TY_U32, 0xffffffff, 0xffffffff);            /* an unsigned source zero-extends */
    cvt(h, WS_TY_U32, WS_TY_U64, 0x123456789ull, 0x23456789);
    cvt(h, WS_TY_U64, WS_TY_S8, 0x80, 0xffffffffffffff80ull);
    cvt(h, WS_TY_U16, WS_TY_S32, 0xfffffff0, 0xfff0);
    cvt(h, WS_TY_U32, WS_TY_U16, 0xabcd1234, 0x1234);
    ws_inst in = inst2(WS_OP_CVT, WS_TY_S32, reg(0), reg(1));   /* signed and narrower than 64 bits: generic */
    in.type2 = WS_TY_S64;
    assert_int_equal(ws_exec_fast_form(&in), 0);
    in.type = WS_TY_U64; in.type2 = WS_TY_F32;                  /* float source: generic */
    assert_int_equal(ws_exec_fast_form(&in), 0);
    in.type2 = WS_TY_U32; in.mods = WS_MOD_SAT;
    assert_int_equal(ws_exec_fast_form(&in), 0);
    free(h);
}

/* f32 add/sub/mul/fma in round-to-nearest (IEEE 754 binary32; PTX ISA 9.7.3) */
static void test_f32(void **s)
{
    xh *h = xh_new(32);
    (void)s;
    rr(h, WS_OP_ADD, WS_TY_F32, 0, 0x3fc00000, 0x40100000, 0x40700000);   /* 1.5 + 2.25 = 3.75 */
    rr(h, WS_OP_ADD, WS_TY_F32, 0, 0x3f800000, 0x33800000, 0x3f800000);   /* 1 + 2^-24: tie, to even */
    rr(h, WS_OP_ADD, WS_TY_F32, 0, 0x3f800000, 0x33800001, 0x3f800001);   /* just above the tie */
    rr(h, WS_OP_ADD, WS_TY_F32, 0, 0x7fc00001, 0x3f800000, 0x7fffffff);   /* NaN in: canonical NaN */
    rr(h, WS_OP_ADD, WS_TY_F32, 0, 0x7f800000, 0xff800000, 0x7fffffff);   /* inf - inf */
    rr(h, WS_OP_SUB, WS_TY_F32, 0, 0x3f800000, 0x3f800000, 0x00000000);   /* 1 - 1 = +0 */
    rr(h, WS_OP_MUL, WS_TY_F32, 0, 0x7f7fffff, 0x40000000, 0x7f800000);   /* FLT_MAX * 2 = inf */
    rr(h, WS_OP_MUL, WS_TY_F32, 0, 0x00000001, 0x3f800000, 0x00000001);   /* a subnormal survives */
    rr(h, WS_OP_MUL, WS_TY_F32, WS_MOD_FTZ, 0x00000001, 0x3f800000, 0);   /* .ftz flushes it */
    rr(h, WS_OP_MUL, WS_TY_F32, WS_MOD_FTZ, 0x80000001, 0x3f800000, 0x80000000);   /* sign kept */
    rr(h, WS_OP_MUL, WS_TY_F32, WS_MOD_FTZ, 0x00800000, 0x3f000000, 0);   /* a subnormal result too */
    rr(h, WS_OP_MUL, WS_TY_F32, 0, 0x00800000, 0x3f000000, 0x00400000);
    /* fused: (1 + 2^-23)(1 - 2^-23) - 1 = -2^-46 exactly; a rounded product would give 0 */
    rrr(h, WS_OP_FMA, WS_TY_F32, 0, 0x3f800001, 0x3f7ffffe, 0xbf800000, 0xa8800000);
    rrr(h, WS_OP_MAD, WS_TY_F32, 0, 0x3f800001, 0x3f7ffffe, 0xbf800000, 0xa8800000);
    rrr(h, WS_OP_FMA, WS_TY_F32, 0, 0x40000000, 0x40400000, 0x3f800000, 0x40e00000);   /* 2*3+1 = 7 */
    free(h);
}

/* Lane-varying operands under full, prefix and scattered masks and warp sizes 32, 16 and 64. */
static void test_masks(void **s)
{
    static const unsigned sizes[] = { 32, 16, 64, 8 };
    (void)s;
    for (unsigned k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        unsigned ws = sizes[k];
        xh *h = xh_new(ws);
        uint64_t full = h->w.valid;
        const uint64_t masks[] = { full, full >> 3, 0x5 & full, 0xa5a5a5a5a5a5a5a5ull & full, 1, full & ~1ull };
        uint64_t want[WS_MAX_WARP_SIZE], wsh[WS_MAX_WARP_SIZE], wlt[WS_MAX_WARP_SIZE];
        for (unsigned l = 0; l < ws; l++) {
            setr(h, 1, l, 0xfffffff0u + l);   /* a */
            setr(h, 2, l, l);                 /* b: also a shift count */
            want[l] = (0xfffffff0u + 2 * l) & 0xffffffffu;         /* a + b wraps past lane 7 */
            wsh[l] = ((uint64_t)(0xfffffff0u + l) << l) & 0xffffffffu;
            wlt[l] = l < 8;                   /* a < 16 - l as .s32: a = -16 + l */
            setr(h, 4, l, (uint64_t)(16 - 2 * (int)l) & 0xffffffffu);   /* 16 - 2l */
        }
        for (unsigned m = 0; m < sizeof masks / sizeof masks[0]; m++) {
            uint64_t act = masks[m];
            check_lanes(h, inst3(WS_OP_ADD, WS_TY_U32, reg(0), reg(1), reg(2)), 0, act, want);
            check_lanes(h, inst3(WS_OP_SHL, WS_TY_B32, reg(0), reg(1), reg(2)), 0, act, wsh);
            /* -16 + l < 16 - 2l  <=>  3l < 32 (signed); as unsigned a is huge: never */
            for (unsigned l = 0; l < ws; l++) wlt[l] = 3 * l < 32;
            ws_inst in = inst3(WS_OP_SETP, WS_TY_S32, reg(0), reg(1), reg(4));
            in.cmp = WS_CMP_LT;
            check_lanes(h, in, 0, act, wlt);
            in.type = WS_TY_U32;
            uint64_t wltu[WS_MAX_WARP_SIZE];
            for (unsigned l = 0; l < ws; l++) wltu[l] = (0xfffffff0u + l) < ((16u - 2 * l) & 0xffffffffu);
            check_lanes(h, in, 0, act, wltu);
            /* the destination is also a source: add r1, r1, r2 */
            uint64_t acc[WS_MAX_WARP_SIZE];
            for (unsigned l = 0; l < ws; l++) acc[l] = (0xfffffff0u + 2 * l) & 0xffffffffu;
            ws_inst self = inst3(WS_OP_ADD, WS_TY_U32, reg(1), reg(1), reg(2));
            for (unsigned l = 0; l < ws; l++) setr(h, 5, l, getr(h, 1, l));
            /* check_lanes sets the destination to SENT first, so run on a copy in r5 */
            self.dst[0] = reg(5); self.src[0] = reg(5);
            memcpy(saved, h->regs, sizeof saved);
            for (int pass = 0; pass < 2; pass++) {
                memcpy(h->regs, saved, sizeof saved);
                self.fast = pass ? 0 : ws_exec_fast_form(&self);
                assert_int_equal(xrun_mask(h, &self, act), WS_EXEC_OK);
                for (unsigned l = 0; l < ws; l++)
                    assert_true(getr(h, 5, l) == ((act >> l) & 1 ? acc[l] : 0xfffffff0u + l));
            }
            memcpy(h->regs, saved, sizeof saved);
        }
        free(h);
    }
}

/* The guard: @%p and @!%p with per-lane predicate values (any nonzero value is true), and bra. */
static void test_guard_bra(void **s)
{
    xh *h = xh_new(32);
    (void)s;
    uint64_t want[WS_MAX_WARP_SIZE], wneg[WS_MAX_WARP_SIZE], on = 0;
    setall(h, 1, 10); setall(h, 2, 5);
    for (unsigned l = 0; l < 32; l++) {
        uint64_t p = l % 4 == 0 ? 0 : l % 4 == 1 ? 1 : l % 4 == 2 ? 2 : 0x100000000ull;
        setr(h, 9, l, p);
        want[l] = p ? 15 : SENT;
        wneg[l] = p ? SENT : 15;
        if (p) on |= 1ull << l;
    }
    ws_inst in = inst3(WS_OP_ADD, WS_TY_U32, reg(0), reg(1), reg(2));
    in.guard = 9;
    check_lanes(h, in, 0, h->w.valid, want);
    assert_true(h->eff.executed == on);
    in.guard_neg = 1;
    check_lanes(h, in, 0, h->w.valid, wneg);
    assert_true(h->eff.executed == (~on & 0xffffffffull));

    ws_inst b = xi(WS_OP_BRA, WS_TY_NONE);
    b.guard = 9; b.target = 3;
    b.fast = ws_exec_fast_form(&b);
    assert_true(b.fast != 0);
    assert_int_equal(xrun_mask(h, &b, 0xf0), WS_EXEC_OK);
    assert_true(h->eff.taken == (on & 0xf0));
    assert_true(h->eff.executed == (on & 0xf0));
    assert_true(h->eff.exited == 0 && h->eff.mem_kind == 0 && h->eff.mem_mask == 0);
    free(h);
}

/* Forms outside the fast set keep the generic path. */
static void test_not_fast(void **s)
{
    (void)s;
    ws_inst in;
#define NOT_FAST(stmt) do { in = inst3(WS_OP_ADD, WS_TY_S32, reg(0), reg(1), reg(2)); stmt; \
                            assert_int_equal(ws_exec_fast_form(&in), 0); } while (0)
    NOT_FAST(in.mods = WS_MOD_SAT);
    NOT_FAST(in.mods = WS_MOD_CC);
    NOT_FAST(in.op = WS_OP_ADDC);
    NOT_FAST((in.type = WS_TY_F32, in.mods = WS_MOD_SAT));
    NOT_FAST((in.type = WS_TY_F32, in.rnd = WS_RND_RZ));
    NOT_FAST((in.type = WS_TY_F32, in.op = WS_OP_DIV));
    NOT_FAST(in.type = WS_TY_F64);
    NOT_FAST(in.type = WS_TY_F16X2);
    NOT_FAST((in.op = WS_OP_MUL, in.mods = WS_MOD_HI));
    NOT_FAST((in.op = WS_OP_MUL, in.type = WS_TY_U64, in.mods = WS_MOD_WIDE));
    NOT_FAST(in.src[1] = sreg(WS_SR_TID_X));
    NOT_FAST(in.src[1] = nreg(2));
    NOT_FAST(in.src[1].reg = WS_NO_REG);
    NOT_FAST(in.dst[0].reg = WS_NO_REG);                       /* "_" */
    NOT_FAST((in.op = WS_OP_SETP, in.cmp = WS_CMP_LT, in.boolop = WS_BOOL_AND, in.src[2] = reg(3)));
    NOT_FAST((in.op = WS_OP_SETP, in.cmp = WS_CMP_LT, in.dst[1] = reg(4)));   /* with q */
    NOT_FAST((in.op = WS_OP_SETP, in.cmp = WS_CMP_LTU));
    NOT_FAST((in.op = WS_OP_SETP, in.type = WS_TY_F32, in.cmp = WS_CMP_LT));
    NOT_FAST((in.op = WS_OP_SELP, in.src[2] = nreg(3)));
    NOT_FAST((in.op = WS_OP_MOV, in.src[0] = vec(2, 1, 2, WS_NO_REG, WS_NO_REG)));
    NOT_FAST((in.op = WS_OP_CVTA, in.src[0] = addr(WS_NO_REG, 16)));
#undef NOT_FAST
    in = inst3(WS_OP_ADD, WS_TY_S32, reg(0), reg(1), reg(2));
    assert_true(ws_exec_fast_form(&in) != 0);
}

/* ws_cfg_build stores the forms into a loaded kernel. */
static void test_loaded_kernel(void **s)
{
    (void)s;
    static const char *ptx =
        ".version 7.0\n.target sm_75\n.address_size 64\n"
        ".visible .entry k(.param .u32 n)\n{\n"
        "  .reg .pred %p<2>;\n  .reg .b32 %r<4>;\n"
        "  mov.u32 %r1, %tid.x;\n"          /* a special register: generic */
        "  add.s32 %r2, %r1, 3;\n"
        "  add.sat.s32 %r3, %r2, %r1;\n"     /* .sat: generic */
        "  setp.lt.u32 %p1, %r3, 9;\n"
        "  ret;\n}\n";
    ws_error err;
    ws_kernel *k = ws_ptx_parse(ptx, "fast.ptx", NULL, &err);
    assert_non_null(k);
    assert_int_equal(k->ninsts, 5);
    assert_int_equal(k->insts[0].fast, 0);
    assert_true(k->insts[1].fast != 0);
    assert_int_equal(k->insts[2].fast, 0);
    assert_true(k->insts[3].fast != 0);
    assert_int_equal(k->insts[4].fast, 0);
    for (uint32_t i = 0; i < k->ninsts; i++) assert_int_equal(k->insts[i].fast, ws_exec_fast_form(&k->insts[i]));
    ws_kernel_free(k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_add_sub_logic),
        cmocka_unit_test(test_mul_mad),
        cmocka_unit_test(test_shift_minmax),
        cmocka_unit_test(test_setp_selp_cvta),
        cmocka_unit_test(test_cvt_int),
        cmocka_unit_test(test_f32),
        cmocka_unit_test(test_masks),
        cmocka_unit_test(test_guard_bra),
        cmocka_unit_test(test_not_fast),
        cmocka_unit_test(test_loaded_kernel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
