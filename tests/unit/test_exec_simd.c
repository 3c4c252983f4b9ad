/* dp4a dp2a fns bmsk szext lop3 cvt.pack.sat, the SIMD video instructions, WARP_SZ and
 * element-wise mov.vN. Expected values are worked out by hand from the PTX ISA's
 * pseudocode (the fns/bmsk/szext ones include the ISA's own examples). */
#include "exec_harness.h"

static xh *H;

static uint32_t run3(unsigned op, unsigned t, unsigned t2, uint32_t mods, unsigned sub, uint64_t a, uint64_t b,
                     uint64_t c)
{
    setall(H, 1, a); setall(H, 2, b); setall(H, 3, c);
    ws_inst in = inst4(op, t, reg(0), reg(1), reg(2), reg(3));
    in.type2 = (uint8_t)t2; in.mods = mods; in.subop = (uint8_t)sub;
    return (uint32_t)run_r(H, &in, 0);
}
static uint32_t run2(unsigned op, unsigned t, unsigned sub, uint64_t a, uint64_t b)
{
    setall(H, 1, a); setall(H, 2, b);
    ws_inst in = inst3(op, t, reg(0), reg(1), reg(2));
    in.subop = (uint8_t)sub;
    return (uint32_t)run_r(H, &in, 0);
}

static void test_dp4a(void **s)
{
    (void)s;
    enum { U = WS_TY_U32, S = WS_TY_S32 };
    assert_int_equal(run3(WS_OP_DP4A, U, U, 0, 0, 0xffffffff, 0xffffffff, 0), 4 * 255 * 255);
    assert_int_equal(run3(WS_OP_DP4A, S, S, 0, 0, 0xffffffff, 0xffffffff, 0), 4);          /* 4 x (-1)(-1) */
    assert_int_equal(run3(WS_OP_DP4A, S, U, 0, 0, 0xffffffff, 0xffffffff, 0), 0xfffffc04); /* 4 x (-1)(255) */
    assert_int_equal(run3(WS_OP_DP4A, U, S, 0, 0, 0x80808080, 0x7f7f7f7f, 5), 4 * 128 * 127 + 5);
    assert_int_equal(run3(WS_OP_DP4A, S, S, 0, 0, 0x80808080, 0x80808080, 0x7fffffff), 0x8000ffff); /* wraps */
    assert_int_equal(run3(WS_OP_DP4A, U, U, 0, 0, 0x04030201, 0x01020304, 0), 4 + 6 + 6 + 4);
}

static void test_dp2a(void **s)
{
    (void)s;
    enum { U = WS_TY_U32, S = WS_TY_S32 };
    /* a halves (3, 2); .lo takes b bytes 0,1 = (1, 2), .hi bytes 2,3 = (3, 4) */
    assert_int_equal(run3(WS_OP_DP2A, U, U, WS_MOD_LO, 0, 0x00020003, 0x04030201, 10), 3 * 1 + 2 * 2 + 10);
    assert_int_equal(run3(WS_OP_DP2A, U, U, WS_MOD_HI, 0, 0x00020003, 0x04030201, 10), 3 * 3 + 2 * 4 + 10);
    /* halves (-32768, -1), bytes 2,3 = (-1, -128) */
    assert_int_equal(run3(WS_OP_DP2A, S, S, WS_MOD_HI, 0, 0xffff8000, 0x80ff0000, 0), 32768 + 128);
    /* unsigned a (32768, 65535) with signed bytes (-1, -128) */
    assert_int_equal(run3(WS_OP_DP2A, U, S, WS_MOD_HI, 0, 0xffff8000, 0x80ff0000, 0),
                     (uint32_t)(-32768 - 65535 * 128));
}

static void test_fns(void **s)
{
    (void)s;
    /* the ISA's examples */
    assert_int_equal(run3(WS_OP_FNS, WS_TY_B32, 0, 0, 0, 0xaaaaaaaa, 3, 1), 3);
    assert_int_equal(run3(WS_OP_FNS, WS_TY_B32, 0, 0, 0, 0xaaaaaaaa, 3, (uint32_t)-1), 3);
    assert_int_equal(run3(WS_OP_FNS, WS_TY_B32, 0, 0, 0, 0xaaaaaaaa, 2, 1), 3);
    assert_int_equal(run3(WS_OP_FNS, WS_TY_B32, 0, 0, 0, 0xaaaaaaaa, 2, (uint32_t)-1), 1);
    /* the 16th set bit upwards from 0 is bit 31, there is no 17th */
    assert_int_equal(run3(WS_OP_FNS, WS_TY_B32, 0, 0, 0, 0xaaaaaaaa, 0, 16), 31);
    assert_int_equal(run3(WS_OP_FNS, WS_TY_B32, 0, 0, 0, 0xaaaaaaaa, 0, 17), 0xffffffff);
    /* offset 0: base itself */
    assert_int_equal(run3(WS_OP_FNS, WS_TY_B32, 0, 0, 0, 0xaaaaaaaa, 2, 0), 0xffffffff);
    assert_int_equal(run3(WS_OP_FNS, WS_TY_B32, 0, 0, 0, 0xaaaaaaaa, 1, 0), 1);
    /* downwards to bit 0; -2 from 31 in 0x80000001 runs off the bottom */
    assert_int_equal(run3(WS_OP_FNS, WS_TY_B32, 0, 0, 0, 0x80000001, 31, (uint32_t)-2), 0);
    assert_int_equal(run3(WS_OP_FNS, WS_TY_B32, 0, 0, 0, 0x80000001, 31, (uint32_t)-3), 0xffffffff);
    assert_int_equal(run3(WS_OP_FNS, WS_TY_B32, 0, 0, 0, 0, 0, 1), 0xffffffff);
}

static void test_bmsk_szext(void **s)
{
    (void)s;
    enum { C = WS_BMODE_CLAMP, W = WS_BMODE_WRAP };
    assert_int_equal(run2(WS_OP_BMSK, WS_TY_B32, W, 1, 2), 0x6);           /* the ISA's example */
    assert_int_equal(run2(WS_OP_BMSK, WS_TY_B32, C, 0, 32), 0xffffffff);   /* width clamped to 32 */
    assert_int_equal(run2(WS_OP_BMSK, WS_TY_B32, W, 0, 32), 0);            /* width 32 wraps to 0 */
    assert_int_equal(run2(WS_OP_BMSK, WS_TY_B32, C, 32, 1), 0);            /* start past bit 31 */
    assert_int_equal(run2(WS_OP_BMSK, WS_TY_B32, W, 33, 2), 0x6);          /* start 33 wraps to 1 */
    assert_int_equal(run2(WS_OP_BMSK, WS_TY_B32, W, 30, 4), 0xc0000000);   /* runs off the top */
    assert_int_equal(run2(WS_OP_BMSK, WS_TY_B32, C, 4, 0), 0);
    assert_int_equal(run2(WS_OP_BMSK, WS_TY_B32, C, 28, 8), 0xf0000000);
    assert_int_equal(run2(WS_OP_SZEXT, WS_TY_U32, W, 0xffffffff, 0), 0);   /* the ISA's example */
    assert_int_equal(run2(WS_OP_SZEXT, WS_TY_S32, C, 0x80, 8), 0xffffff80);
    assert_int_equal(run2(WS_OP_SZEXT, WS_TY_U32, C, 0x1ff, 8), 0xff);
    assert_int_equal(run2(WS_OP_SZEXT, WS_TY_S32, C, 0x7f, 8), 0x7f);
    assert_int_equal(run2(WS_OP_SZEXT, WS_TY_S32, C, 0x7f, 7), 0xffffffff);
    assert_int_equal(run2(WS_OP_SZEXT, WS_TY_S32, W, 0x7f, 39), 0xffffffff); /* 39 wraps to 7 */
    assert_int_equal(run2(WS_OP_SZEXT, WS_TY_S32, W, 0x80000000, 32), 0);    /* 32 wraps to 0 */
    assert_int_equal(run2(WS_OP_SZEXT, WS_TY_S32, C, 0x80000000, 32), 0x80000000);
    assert_int_equal(run2(WS_OP_SZEXT, WS_TY_S32, C, 0x80000000, 1000), 0x80000000);
}

static void test_lop3(void **s)
{
    (void)s;
    const uint32_t a = 0x12345678, b = 0x0f0f0f0f, c = 0xff00ff00;
    static const struct { uint32_t lut, want; } cases[] = {
        {0xf0, 0x12345678}, {0xcc, 0x0f0f0f0f}, {0xaa, 0xff00ff00},
        {0x96, 0xe23ba677},   /* a ^ b ^ c */
        {0xe8, 0x1f045f08},   /* majority */
        {0x80, 0x02000600},   /* a & b & c */
        {0xca, 0xef04af08},   /* a ? b : c, bitwise */
        {0x00, 0}, {0xff, 0xffffffff},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        setall(H, 1, a); setall(H, 2, b); setall(H, 3, c);
        ws_inst in = inst4(WS_OP_LOP3, WS_TY_B32, reg(0), reg(1), reg(2), reg(3));
        in.src[3] = imm(cases[i].lut); in.nsrc = 4;
        assert_int_equal(run_r(H, &in, 0), cases[i].want);
    }
}

static void test_cvt_pack(void **s)
{
    (void)s;
    enum { S32 = WS_TY_S32, B32 = WS_TY_B32 };
    assert_int_equal(run3(WS_OP_CVT_PACK, S32, 0, WS_MOD_SAT, WS_PACK_U16, 70000, (uint32_t)-5, 0), 0xffff0000);
    assert_int_equal(run3(WS_OP_CVT_PACK, S32, 0, WS_MOD_SAT, WS_PACK_S16, (uint32_t)-40000, 40000, 0), 0x80007fff);
    assert_int_equal(run3(WS_OP_CVT_PACK, S32, B32, WS_MOD_SAT, WS_PACK_U8, 300, (uint32_t)-1, 0x1234), 0x1234ff00);
    assert_int_equal(run3(WS_OP_CVT_PACK, S32, B32, WS_MOD_SAT, WS_PACK_S8, (uint32_t)-7, 200, 0), 0xf97f);
    assert_int_equal(run3(WS_OP_CVT_PACK, S32, B32, WS_MOD_SAT, WS_PACK_S4, (uint32_t)-9, 7, 0xabcdef), 0xabcdef87);
    assert_int_equal(run3(WS_OP_CVT_PACK, S32, B32, WS_MOD_SAT, WS_PACK_U4, 16, 15, 0), 0xff);
    assert_int_equal(run3(WS_OP_CVT_PACK, S32, B32, WS_MOD_SAT, WS_PACK_S2, 1, (uint32_t)-3, 0xffffffff), 0xfffffff6);
    assert_int_equal(run3(WS_OP_CVT_PACK, S32, B32, WS_MOD_SAT, WS_PACK_U2, 5, (uint32_t)-1, 0), 0xc);
}

static uint32_t vid(unsigned op, unsigned dt, unsigned at, unsigned bt, uint32_t mods, uint32_t a, uint32_t b, uint32_t c)
{
    return run3(op, dt, at, mods, bt, a, b, c);
}

static void test_video(void **s)
{
    (void)s;
    enum { U = WS_TY_U32, S = WS_TY_S32 };
    /* byte pairs (0x80,0x80) (0x10,0x08) (0xff,0x00) (0x00,0xff) */
    assert_int_equal(vid(WS_OP_VABSDIFF4, U, U, U, 0, 0x00ff1080, 0xff000880, 0), 0xffff0800);
    assert_int_equal(vid(WS_OP_VABSDIFF4, U, U, U, WS_MOD_ADD, 0x00ff1080, 0xff000880, 10), 0 + 8 + 255 + 255 + 10);
    assert_int_equal(vid(WS_OP_VABSDIFF4, S, S, S, 0, 0x00ff1080, 0xff000880, 0), 0x01010800);
    assert_int_equal(vid(WS_OP_VADD4, U, U, U, WS_MOD_SAT, 0x80ff0102, 0x80020304, 0), 0xffff0406);
    assert_int_equal(vid(WS_OP_VADD4, U, U, U, 0, 0x80ff0102, 0x80020304, 0), 0x00010406);
    assert_int_equal(vid(WS_OP_VADD4, S, S, S, WS_MOD_SAT, 0x7f80, 0x0180, 0), 0x7f80);
    assert_int_equal(vid(WS_OP_VSUB2, S, S, S, WS_MOD_SAT, 0x80000001, 0x00010002, 0), 0x8000ffff);
    assert_int_equal(vid(WS_OP_VSUB2, U, U, U, WS_MOD_SAT, 0x00050001, 0x00030002, 0), 0x00020000);
    assert_int_equal(vid(WS_OP_VAVRG2, U, U, U, 0, 0x00030001, 0x00040002, 0), 0x00040002);
    assert_int_equal(vid(WS_OP_VAVRG4, S, S, S, 0, 0x000000fd, 0, 0), 0xfe);   /* (-3) >> 1 = -2 */
    assert_int_equal(vid(WS_OP_VAVRG4, S, S, S, 0, 0x00000003, 0, 0), 0x02);   /* (3 + 1) >> 1 */
    assert_int_equal(vid(WS_OP_VMIN2, S, S, S, 0, 0xffff0005, 0x00010003, 0), 0xffff0003);
    assert_int_equal(vid(WS_OP_VMAX2, U, U, U, 0, 0xffff0005, 0x00010003, 0), 0xffff0005);
    assert_int_equal(vid(WS_OP_VMAX4, U, S, U, 0, 0x000000ff, 0x00000001, 0), 0x01);  /* -1 vs 1 */
    assert_int_equal(vid(WS_OP_VMIN4, S, S, S, WS_MOD_ADD, 0x000000ff, 0x00000001, 100), 99);
    assert_int_equal(vid(WS_OP_VABSDIFF2, U, U, U, WS_MOD_ADD, 0x0000ffff, 0x00010000, 1), 65535 + 1 + 1);
}

/* vshl/vshr.dtype.atype.u32: sel = asel | bsel << 4, post = secondary op | dsel << 4 */
static uint32_t vsh(unsigned op, unsigned dt, unsigned at, uint32_t mods, unsigned mode, unsigned sel, unsigned post,
                    uint32_t a, uint32_t b, uint32_t c)
{
    setall(H, 1, a); setall(H, 2, b); setall(H, 3, c);
    ws_inst in = inst4(op, dt, reg(0), reg(1), reg(2), reg(3));
    in.type2 = (uint8_t)at; in.mods = mods; in.subop = (uint8_t)mode;
    in.cmp = (uint8_t)sel; in.boolop = (uint8_t)post;
    return (uint32_t)run_r(H, &in, 0);
}

static void test_vshift(void **s)
{
    (void)s;
    enum { U = WS_TY_U32, S = WS_TY_S32, C = WS_BMODE_CLAMP, W = WS_BMODE_WRAP };
    /* .clamp: amounts above 32 are 32 (everything shifted out); .wrap: mod 32 */
    assert_int_equal(vsh(WS_OP_VSHL, U, U, 0, C, 0, 0, 0x00000003, 33, 0), 0);
    assert_int_equal(vsh(WS_OP_VSHL, U, U, 0, W, 0, 0, 0x00000003, 33, 0), 6);
    assert_int_equal(vsh(WS_OP_VSHL, U, U, 0, C, 0, 0, 0x80000001, 1, 0), 2);
    assert_int_equal(vsh(WS_OP_VSHR, S, S, 0, C, 0, 0, 0x80000000, 40, 0), 0xffffffff);   /* sign fill, 32 */
    assert_int_equal(vsh(WS_OP_VSHR, U, U, 0, C, 0, 0, 0x80000000, 40, 0), 0);
    assert_int_equal(vsh(WS_OP_VSHR, S, S, 0, W, 0, 0, 0x80000000, 36, 0), 0xf8000000);   /* 36 & 31 = 4 */
    assert_int_equal(vsh(WS_OP_VSHR, S, U, 0, W, 0, 0, 0x80000000, 4, 0), 0x08000000);    /* unsigned a */
    /* selectors: a.b1 of 0x1234f678 is 0xf6 (-10 signed), b.h1 of 0x00020000 is 2 */
    assert_int_equal(vsh(WS_OP_VSHL, S, S, 0, C, WS_VSEL_B1 | WS_VSEL_H1 << 4, 0, 0x1234f678, 0x00020000, 0), (uint32_t)-40);
    assert_int_equal(vsh(WS_OP_VSHL, U, U, 0, C, WS_VSEL_B1 | WS_VSEL_H1 << 4, 0, 0x1234f678, 0x00020000, 0), 0x3d8);
    /* .sat: 0x40000000 << 1 = 2^31 clamps to S32_MAX; -1 << 40 -> -2^32 clamps to S32_MIN; unsigned: < 0 -> 0 */
    assert_int_equal(vsh(WS_OP_VSHL, S, S, WS_MOD_SAT, C, 0, 0, 0x40000000, 1, 0), 0x7fffffff);
    assert_int_equal(vsh(WS_OP_VSHL, S, S, WS_MOD_SAT, C, 0, 0, 0xffffffff, 40, 0), 0x80000000);
    assert_int_equal(vsh(WS_OP_VSHL, U, S, WS_MOD_SAT, C, 0, 0, 0xffffffff, 1, 0), 0);
    assert_int_equal(vsh(WS_OP_VSHL, U, U, WS_MOD_SAT, C, 0, 0, 0x80000000, 1, 0), 0xffffffff);
    /* secondary operations: c signed by .dtype */
    assert_int_equal(vsh(WS_OP_VSHL, U, U, 0, C, 0, WS_VOP2_ADD, 3, 4, 100), 148);
    assert_int_equal(vsh(WS_OP_VSHL, S, S, 0, C, 0, WS_VOP2_MIN, 3, 4, 0xffffffff), 0xffffffff);   /* min(48, -1) */
    assert_int_equal(vsh(WS_OP_VSHL, U, U, 0, C, 0, WS_VOP2_MIN, 3, 4, 0xffffffff), 48);
    assert_int_equal(vsh(WS_OP_VSHR, S, S, 0, C, 0, WS_VOP2_MAX, 0xffffff00, 4, 0xfffffff0), 0xfffffff0);  /* max(-16, -16) */
    assert_int_equal(vsh(WS_OP_VSHR, S, S, 0, C, 0, WS_VOP2_MAX, 0xffffff00, 2, 0xffffff00), 0xffffffc0);  /* max(-64, -256) */
    /* data merge: the low byte/half-word into d.b2 / d.h1, .sat to its range */
    assert_int_equal(vsh(WS_OP_VSHL, U, U, 0, C, 0, WS_VSEL_B2 << 4, 0x1ff, 1, 0xaabbccdd), 0xaafeccdd);
    assert_int_equal(vsh(WS_OP_VSHL, U, U, WS_MOD_SAT, C, 0, WS_VSEL_B2 << 4, 0x1ff, 1, 0xaabbccdd), 0xaaffccdd);
    assert_int_equal(vsh(WS_OP_VSHL, S, S, WS_MOD_SAT, C, 0, WS_VSEL_H1 << 4, 0xffff8000, 1, 0xaabbccdd), 0x8000ccdd);
    assert_int_equal(vsh(WS_OP_VSHR, U, U, 0, W, 0, WS_VSEL_H0 << 4, 0x12345678, 8, 0xaabbccdd), 0xaabb3456);
}

static void test_warp_sz(void **s)
{
    (void)s;
    static const unsigned sizes[] = {8, 16, 32, 64};
    static const unsigned want[] = {8, 16, 32, 32};   /* the lane group of %laneid (exec.h) */
    for (int i = 0; i < 4; i++) {
        xh *h = xh_new(sizes[i]);
        ws_inst in = inst2(WS_OP_MOV, WS_TY_U32, reg(0), sreg(WS_SR_WARP_SZ));
        assert_int_equal(xrun(h, &in), WS_EXEC_OK);
        assert_int_equal(getr(h, 0, sizes[i] - 1), want[i]);
        free(h);
    }
}

static void test_mov_elements(void **s)
{
    (void)s;
    setall(H, 1, 0x111); setall(H, 2, 0x1ffffffffull);
    ws_inst in = inst2(WS_OP_MOV, WS_TY_U32, vec(2, 1, 2, 0, 0), vec(2, 2, 1, 0, 0));
    in.vec = 2;
    assert_int_equal(xrun(H, &in), WS_EXEC_OK);
    assert_int_equal(getr(H, 1, 3), 0xffffffff);   /* element-wise, truncated to .u32, swapped */
    assert_int_equal(getr(H, 2, 3), 0x111);
}

static int setup(void **s) { (void)s; H = xh_new(32); return 0; }
static int teardown(void **s) { (void)s; free(H); return 0; }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dp4a),
        cmocka_unit_test(test_dp2a),
        cmocka_unit_test(test_fns),
        cmocka_unit_test(test_bmsk_szext),
        cmocka_unit_test(test_lop3),
        cmocka_unit_test(test_cvt_pack),
        cmocka_unit_test(test_video),
        cmocka_unit_test(test_vshift),
        cmocka_unit_test(test_warp_sz),
        cmocka_unit_test(test_mov_elements),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
