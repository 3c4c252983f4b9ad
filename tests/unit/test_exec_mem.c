/* Memory semantics: ld/st on every state space, vectors, narrow loads,
 * faults (misaligned, out of bounds, read-only), cvta, atomics in lane order. */
#include "exec_harness.h"

static xh *H;

static void reset(void)
{
    free(H);
    H = xh_new(32);
}

static ws_inst ld(unsigned space, unsigned ty, ws_operand d, ws_operand a)
{
    ws_inst in = inst2(WS_OP_LD, ty, d, a);
    in.space = (uint8_t)space;
    return in;
}
static ws_inst st(unsigned space, unsigned ty, ws_operand a, ws_operand v)
{
    ws_inst in = xi(WS_OP_ST, ty);
    in.space = (uint8_t)space;
    in.src[0] = a; in.src[1] = v; in.nsrc = 2;
    return in;
}
static ws_inst atom(unsigned space, unsigned ty, unsigned op, ws_operand d, ws_operand a, ws_operand b, ws_operand c)
{
    ws_inst in = inst4(WS_OP_ATOM, ty, d, a, b, c);
    in.space = (uint8_t)space; in.subop = (uint8_t)op;
    return in;
}
static uint32_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static void wr32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }

static void test_param(void **s)
{
    (void)s; reset();
    uint64_t v = 0x1122334455667788ull;
    memcpy(H->param + 8, &v, 8);
    ws_inst in = ld(WS_SP_PARAM, WS_TY_U64, reg(0), addr(WS_NO_REG, 8));
    assert_int_equal(xrun(H, &in), WS_EXEC_OK);
    assert_int_equal(getr(H, 0, 31), v);
    assert_int_equal(H->eff.mem_space, WS_SP_PARAM);
    assert_int_equal(H->eff.mem_kind, 1);
    in = ld(WS_SP_PARAM, WS_TY_U32, reg(0), addr(WS_NO_REG, 12));
    assert_int_equal(run_r(H, &in, 0), 0x11223344);
    in = ld(WS_SP_PARAM, WS_TY_U32, reg(0), addr(WS_NO_REG, XH_PARAM));
    assert_int_equal(xrun(H, &in), WS_EXEC_FAULT);
    assert_non_null(strstr(H->env.fault, "out-of-bounds"));
    in = st(WS_SP_PARAM, WS_TY_U32, addr(WS_NO_REG, 0), imm(1));
    assert_int_equal(xrun(H, &in), WS_EXEC_FAULT);
}

static void test_global(void **s)
{
    (void)s; reset();
    for (unsigned l = 0; l < 32; l++) { setr(H, 1, l, XH_BUF_A + 4 * l); setr(H, 2, l, 10 * l); }
    ws_inst in = st(WS_SP_GLOBAL, WS_TY_U32, addr(1, 0), reg(2));
    assert_int_equal(xrun_mask(H, &in, 0xffff), WS_EXEC_OK);
    for (unsigned l = 0; l < 16; l++) assert_int_equal(rd32(H->bufa + 4 * l), 10 * l);
    assert_int_equal(H->eff.mem_kind, 2);
    assert_int_equal(H->eff.mem_bytes, 4);
    assert_int_equal(H->eff.mem_mask, 0xffff);
    assert_int_equal(H->eff.mem_space, WS_SP_GLOBAL);
    assert_int_equal(H->eff.mem_addr[3], XH_BUF_A + 12);
    /* load back with an offset: lane l reads element l+1 */
    in = ld(WS_SP_GLOBAL, WS_TY_U32, reg(3), addr(1, 4));
    assert_int_equal(xrun_mask(H, &in, 0x7fff), WS_EXEC_OK);
    assert_int_equal(getr(H, 3, 0), 10);
    assert_int_equal(getr(H, 3, 14), 150);
    /* one past the end of buffer a: lane 15 reads bytes 64..67 */
    assert_int_equal(xrun_mask(H, &in, 0xffff), WS_EXEC_FAULT);
    assert_non_null(strstr(H->env.fault, "lane 15 "));
    assert_non_null(strstr(H->env.fault, "out-of-bounds 4-byte ld.global at address 0x10000040"));
    /* straddling the end: 8 bytes at offset 60 */
    in = ld(WS_SP_GLOBAL, WS_TY_U32, reg(3), addr(WS_NO_REG, (int64_t)XH_BUF_A + 60));
    assert_int_equal(xrun(H, &in), WS_EXEC_OK);
    in.type = WS_TY_U64; in.src[0].imm = (int64_t)XH_BUF_A + 56;
    assert_int_equal(xrun(H, &in), WS_EXEC_OK);
    in.src[0].imm = (int64_t)XH_BUF_A + 64;
    assert_int_equal(xrun(H, &in), WS_EXEC_FAULT);
    /* second buffer after the gap */
    wr32(H->bufb, 0xabcdef01);
    in = ld(WS_SP_GLOBAL, WS_TY_U32, reg(3), addr(WS_NO_REG, (int64_t)XH_BUF_B));
    assert_int_equal(run_r(H, &in, 3), 0xabcdef01);
    /* below the first region */
    in.src[0].imm = 0x1000;
    assert_int_equal(xrun(H, &in), WS_EXEC_FAULT);
}

static void test_misaligned(void **s)
{
    (void)s; reset();
    ws_inst in = ld(WS_SP_GLOBAL, WS_TY_U32, reg(0), addr(WS_NO_REG, (int64_t)XH_BUF_A + 2));
    assert_int_equal(xrun(H, &in), WS_EXEC_FAULT);
    assert_non_null(strstr(H->env.fault, "misaligned 4-byte ld.global at address 0x10000002"));
    assert_non_null(strstr(H->env.fault, "pc 5 (PTX line 42)"));
    /* v2.u32 needs 8-byte alignment */
    in = ld(WS_SP_GLOBAL, WS_TY_U32, vec(2, 0, 1, 0, 0), addr(WS_NO_REG, (int64_t)XH_BUF_A + 4));
    in.vec = 2;
    assert_int_equal(xrun(H, &in), WS_EXEC_FAULT);
    assert_non_null(strstr(H->env.fault, "misaligned 8-byte"));
    in.src[0].imm = (int64_t)XH_BUF_A + 8;
    assert_int_equal(xrun(H, &in), WS_EXEC_OK);
    in = ld(WS_SP_SHARED, WS_TY_F64, reg(0), addr(WS_NO_REG, 4));
    assert_int_equal(xrun(H, &in), WS_EXEC_FAULT);
}

static void test_const_readonly(void **s)
{
    (void)s; reset();
    wr32(H->cdata + 4, 0x5a5a5a5a);
    ws_inst in = ld(WS_SP_CONST, WS_TY_U32, reg(0), addr(WS_NO_REG, (int64_t)WS_DATA_BASE + 4));
    assert_int_equal(run_r(H, &in, 0), 0x5a5a5a5a);
    assert_int_equal(H->eff.mem_space, WS_SP_CONST);
    in = st(WS_SP_GLOBAL, WS_TY_U32, addr(WS_NO_REG, (int64_t)WS_DATA_BASE + 4), imm(1));
    assert_int_equal(xrun(H, &in), WS_EXEC_FAULT);
    assert_non_null(strstr(H->env.fault, "read-only"));
    assert_int_equal(rd32(H->cdata + 4), 0x5a5a5a5a);
    in = st(WS_SP_GENERIC, WS_TY_U32, addr(WS_NO_REG, (int64_t)WS_DATA_BASE), imm(1));
    assert_int_equal(xrun(H, &in), WS_EXEC_FAULT);
}

static void test_shared_local(void **s)
{
    (void)s; reset();
    for (unsigned l = 0; l < 32; l++) { setr(H, 1, l, 4 * l); setr(H, 2, l, 1000 + l); }
    ws_inst in = st(WS_SP_SHARED, WS_TY_U32, addr(1, 0), reg(2));
    assert_int_equal(xrun(H, &in), WS_EXEC_OK);
    assert_int_equal(rd32(H->smem + 4 * 31), 1031);
    assert_int_equal(H->eff.mem_space, WS_SP_SHARED);
    assert_int_equal(H->eff.mem_addr[31], 124);
    in = ld(WS_SP_SHARED, WS_TY_U32, reg(3), addr(1, 128));
    assert_int_equal(xrun(H, &in), WS_EXEC_OK);   /* 128 + 124 + 4 = 256: last word */
    in.src[0].imm = 132;
    assert_int_equal(xrun(H, &in), WS_EXEC_FAULT);
    assert_non_null(strstr(H->env.fault, "lane 31 "));
    assert_non_null(strstr(H->env.fault, ".shared at offset 0x100"));
    /* local: same offset, private per lane */
    in = st(WS_SP_LOCAL, WS_TY_U32, addr(WS_NO_REG, 8), reg(2));
    assert_int_equal(xrun(H, &in), WS_EXEC_OK);
    assert_int_equal(H->eff.mem_space, WS_SP_LOCAL);
    in = ld(WS_SP_LOCAL, WS_TY_U32, reg(3), addr(WS_NO_REG, 8));
    assert_int_equal(xrun(H, &in), WS_EXEC_OK);
    assert_int_equal(getr(H, 3, 0), 1000);
    assert_int_equal(getr(H, 3, 17), 1017);
    in.src[0].imm = XH_LOCAL;
    assert_int_equal(xrun(H, &in), WS_EXEC_FAULT);
}

static void test_generic_cvta(void **s)
{
    (void)s; reset();
    wr32(H->smem + 16, 0x77);
    wr32(H->bufa + 16, 0x88);
    setall(H, 1, 16);
    ws_inst in = inst2(WS_OP_CVTA, WS_TY_U64, reg(2), reg(1));
    in.space = WS_SP_SHARED;
    assert_int_equal(run_r(H, &in, 2), WS_SHARED_WINDOW + 16);
    in.mods = WS_MOD_TO;
    setall(H, 3, WS_SHARED_WINDOW + 16);
    in.src[0] = reg(3);
    assert_int_equal(run_r(H, &in, 2), 16);
    in.space = WS_SP_GLOBAL;
    setall(H, 3, XH_BUF_A);
    assert_int_equal(run_r(H, &in, 2), XH_BUF_A);
    in = inst2(WS_OP_CVTA, WS_TY_U64, reg(2), reg(1));
    in.space = WS_SP_LOCAL;
    assert_int_equal(run_r(H, &in, 2), WS_LOCAL_WINDOW + 16);
    /* generic: lanes 0..1 shared, 2..3 global, 4 local */
    setr(H, 4, 0, WS_SHARED_WINDOW + 16); setr(H, 4, 1, WS_SHARED_WINDOW + 16);
    setr(H, 4, 2, XH_BUF_A + 16); setr(H, 4, 3, XH_BUF_A + 16);
    setr(H, 4, 4, WS_LOCAL_WINDOW + 0);
    memset(H->local + 4 * XH_LOCAL, 0, 4);
    wr32(H->local + 4 * XH_LOCAL, 0x99);
    in = ld(WS_SP_GENERIC, WS_TY_U32, reg(5), addr(4, 0));
    assert_int_equal(xrun_mask(H, &in, 0x1f), WS_EXEC_OK);
    assert_int_equal(getr(H, 5, 0), 0x77);
    assert_int_equal(getr(H, 5, 2), 0x88);
    assert_int_equal(getr(H, 5, 4), 0x99);
    assert_int_equal(H->eff.mem_space, WS_SP_GLOBAL);
    assert_int_equal(H->eff.mem_lane_space[0], WS_SP_SHARED);
    assert_int_equal(H->eff.mem_lane_space[4], WS_SP_LOCAL);
    assert_int_equal(H->eff.mem_addr[0], 16);
    assert_int_equal(xrun_mask(H, &in, 0x3), WS_EXEC_OK);
    assert_int_equal(H->eff.mem_space, WS_SP_SHARED);
}

static void test_narrow_and_vectors(void **s)
{
    (void)s; reset();
    H->bufa[0] = 0x80; H->bufa[2] = 0x00; H->bufa[3] = 0x80;
    H->reg_types[0] = WS_TY_S32;      /* %r0 is a 32-bit register */
    H->reg_types[1] = WS_TY_B64;
    H->reg_types[2] = WS_TY_S16;
    ws_inst in = ld(WS_SP_GLOBAL, WS_TY_S8, reg(0), addr(WS_NO_REG, (int64_t)XH_BUF_A));
    assert_int_equal(run_r(H, &in, 0), 0xffffff80);
    in.dst[0] = reg(1);
    assert_int_equal(run_r(H, &in, 1), 0xffffffffffffff80ull);
    in.type = WS_TY_U8;
    in.dst[0] = reg(0);
    assert_int_equal(run_r(H, &in, 0), 0x80);
    in = ld(WS_SP_GLOBAL, WS_TY_S16, reg(2), addr(WS_NO_REG, (int64_t)XH_BUF_A + 2));
    assert_int_equal(run_r(H, &in, 2), 0x8000);
    in.dst[0] = reg(0);
    assert_int_equal(run_r(H, &in, 0), 0xffff8000);
    /* st.u8 stores the low byte */
    in = st(WS_SP_GLOBAL, WS_TY_U8, addr(WS_NO_REG, (int64_t)XH_BUF_A + 5), imm(0x1234));
    assert_int_equal(xrun_mask(H, &in, 1), WS_EXEC_OK);
    assert_int_equal(H->bufa[5], 0x34);
    assert_int_equal(H->bufa[6], 0);
    /* v4 store and load, "_" skipped */
    setall(H, 10, 1); setall(H, 11, 2); setall(H, 12, 3); setall(H, 13, 4);
    in = st(WS_SP_GLOBAL, WS_TY_U32, addr(WS_NO_REG, (int64_t)XH_BUF_A + 16), vec(4, 10, 11, 12, 13));
    in.vec = 4;
    assert_int_equal(xrun_mask(H, &in, 1), WS_EXEC_OK);
    assert_int_equal(H->eff.mem_bytes, 16);
    assert_int_equal(rd32(H->bufa + 16), 1);
    assert_int_equal(rd32(H->bufa + 28), 4);
    setall(H, 21, 77);
    in = ld(WS_SP_GLOBAL, WS_TY_U32, vec(4, 20, WS_NO_REG, 21, 22), addr(WS_NO_REG, (int64_t)XH_BUF_A + 16));
    in.vec = 4;
    setall(H, 21, 77);
    assert_int_equal(xrun(H, &in), WS_EXEC_OK);
    assert_int_equal(getr(H, 20, 0), 1);
    assert_int_equal(getr(H, 21, 0), 3);
    assert_int_equal(getr(H, 22, 31), 4);
    /* v2.f64 */
    double dv[2] = { 1.5, -2.0 };
    memcpy(H->bufb + 16, dv, 16);
    in = ld(WS_SP_GLOBAL, WS_TY_F64, vec(2, 30, 31, 0, 0), addr(WS_NO_REG, (int64_t)XH_BUF_B + 16));
    in.vec = 2;
    assert_int_equal(xrun(H, &in), WS_EXEC_OK);
    assert_int_equal(getr(H, 31, 3), dbits(-2.0));
}

/* .v8 (sm_100): eight 32-bit elements, 32 bytes per lane, and eight 16-bit ones in shared
 * memory; an element "_" is skipped */
static ws_operand vec8(const uint32_t r[8])
{
    ws_operand o = vec(4, r[0], r[1], r[2], r[3]);
    o.nvec = 8;
    for (int e = 4; e < 8; e++) o.vec[e] = r[e];
    return o;
}

static void test_v8(void **s)
{
    (void)s; reset();
    const uint32_t src[8] = {10, 11, 12, 13, 14, 15, 16, 17}, dst[8] = {20, 21, 22, 23, 24, WS_NO_REG, 26, 27};
    for (unsigned e = 0; e < 8; e++) setall(H, src[e], 0x1000u * (e + 1) + e);
    ws_inst in = st(WS_SP_GLOBAL, WS_TY_U32, addr(WS_NO_REG, (int64_t)XH_BUF_A + 32), vec8(src));
    in.vec = 8;
    assert_int_equal(xrun_mask(H, &in, 1), WS_EXEC_OK);
    assert_int_equal(H->eff.mem_bytes, 32);
    for (unsigned e = 0; e < 8; e++) assert_int_equal(rd32(H->bufa + 32 + 4 * e), 0x1000u * (e + 1) + e);
    setall(H, 25, 99);
    in = ld(WS_SP_GLOBAL, WS_TY_U32, vec8(dst), addr(WS_NO_REG, (int64_t)XH_BUF_A + 32));
    in.vec = 8;
    assert_int_equal(xrun(H, &in), WS_EXEC_OK);
    assert_int_equal(H->eff.mem_bytes, 32);
    assert_int_equal(getr(H, 20, 0), 0x1000);
    assert_int_equal(getr(H, 24, 5), 0x5004);
    assert_int_equal(getr(H, 25, 5), 99);
    assert_int_equal(getr(H, 27, 31), 0x8007);
    /* st/ld.shared.v8.b16: lane l at 16 l, element e = 0x100 l + e; read back from lane l ^ 1 */
    for (unsigned e = 0; e < 8; e++)
        for (unsigned l = 0; l < 8; l++) setr(H, src[e], l, 0x100u * l + e);
    ws_inst sts = st(WS_SP_SHARED, WS_TY_B16, addr(40, 0), vec8(src));
    sts.vec = 8;
    for (unsigned l = 0; l < 8; l++) setr(H, 40, l, 16 * l);
    assert_int_equal(xrun_mask(H, &sts, 0xff), WS_EXEC_OK);
    assert_int_equal(H->eff.mem_bytes, 16);
    uint16_t h; memcpy(&h, H->smem + 16 * 3 + 2 * 5, 2);
    assert_int_equal(h, 0x305);
    ws_inst lds = ld(WS_SP_SHARED, WS_TY_B16, vec8(dst), addr(40, 0));
    lds.vec = 8;
    for (unsigned l = 0; l < 8; l++) setr(H, 40, l, 16 * (l ^ 1));
    assert_int_equal(xrun_mask(H, &lds, 0xff), WS_EXEC_OK);
    assert_int_equal(getr(H, 20, 0), 0x100);
    assert_int_equal(getr(H, 27, 6), 0x707);
    assert_int_equal(getr(H, 23, 7), 0x603);
}

static void test_atomics(void **s)
{
    (void)s; reset();
    ws_inst in = atom(WS_SP_GLOBAL, WS_TY_U32, WS_ATOM_ADD, reg(0), addr(WS_NO_REG, (int64_t)XH_BUF_A), imm(1), none());
    assert_int_equal(xrun(H, &in), WS_EXEC_OK);
    for (unsigned l = 0; l < 32; l++) assert_int_equal(getr(H, 0, l), l);
    assert_int_equal(rd32(H->bufa), 32);
    assert_int_equal(H->eff.mem_kind, 3);
    /* cas: exactly one lane (the lowest) wins */
    wr32(H->bufa + 4, 0);
    for (unsigned l = 0; l < 32; l++) setr(H, 1, l, l + 1);
    in = atom(WS_SP_GLOBAL, WS_TY_B32, WS_ATOM_CAS, reg(0), addr(WS_NO_REG, (int64_t)XH_BUF_A + 4), imm(0), reg(1));
    assert_int_equal(xrun_mask(H, &in, 0xff0), WS_EXEC_OK);
    assert_int_equal(getr(H, 0, 4), 0);
    for (unsigned l = 5; l < 12; l++) assert_int_equal(getr(H, 0, l), 5);
    assert_int_equal(rd32(H->bufa + 4), 5);
    /* inc with b = 2: 0 -> 1 -> 2 -> 0 -> 1 */
    wr32(H->bufa + 8, 0);
    in = atom(WS_SP_GLOBAL, WS_TY_U32, WS_ATOM_INC, reg(0), addr(WS_NO_REG, (int64_t)XH_BUF_A + 8), imm(2), none());
    assert_int_equal(xrun_mask(H, &in, 0xf), WS_EXEC_OK);
    assert_int_equal(getr(H, 0, 0), 0); assert_int_equal(getr(H, 0, 1), 1);
    assert_int_equal(getr(H, 0, 2), 2); assert_int_equal(getr(H, 0, 3), 0);
    assert_int_equal(rd32(H->bufa + 8), 1);
    /* dec with b = 2: 0 -> 2 -> 1 -> 0 -> 2; also old > b -> b */
    wr32(H->bufa + 8, 0);
    in.subop = WS_ATOM_DEC;
    assert_int_equal(xrun_mask(H, &in, 0xf), WS_EXEC_OK);
    assert_int_equal(getr(H, 0, 0), 0); assert_int_equal(getr(H, 0, 1), 2);
    assert_int_equal(getr(H, 0, 2), 1); assert_int_equal(getr(H, 0, 3), 0);
    assert_int_equal(rd32(H->bufa + 8), 2);
    wr32(H->bufa + 8, 7);
    assert_int_equal(xrun_mask(H, &in, 0x1), WS_EXEC_OK);
    assert_int_equal(rd32(H->bufa + 8), 2);
    /* min/max signed vs unsigned */
    wr32(H->bufa + 12, 5);
    in = atom(WS_SP_GLOBAL, WS_TY_S32, WS_ATOM_MIN, reg(0), addr(WS_NO_REG, (int64_t)XH_BUF_A + 12), imm(-3), none());
    assert_int_equal(xrun_mask(H, &in, 1), WS_EXEC_OK);
    assert_int_equal(rd32(H->bufa + 12), 0xfffffffd);
    in.type = WS_TY_U32;
    in.src[1] = imm(7);
    assert_int_equal(xrun_mask(H, &in, 1), WS_EXEC_OK);
    assert_int_equal(rd32(H->bufa + 12), 7);
    in.subop = WS_ATOM_MAX; in.type = WS_TY_S32;
    in.src[1] = imm(-1);
    assert_int_equal(xrun_mask(H, &in, 1), WS_EXEC_OK);
    assert_int_equal(rd32(H->bufa + 12), 7);
    /* exch, and, or, xor */
    in.subop = WS_ATOM_EXCH; in.type = WS_TY_B32; in.src[1] = imm(0xf0f0);
    assert_int_equal(xrun_mask(H, &in, 1), WS_EXEC_OK);
    assert_int_equal(getr(H, 0, 0), 7);
    in.subop = WS_ATOM_AND; in.src[1] = imm(0xff00);
    xrun_mask(H, &in, 1);
    assert_int_equal(rd32(H->bufa + 12), 0xf000);
    in.subop = WS_ATOM_OR; in.src[1] = imm(0x000f);
    xrun_mask(H, &in, 1);
    assert_int_equal(rd32(H->bufa + 12), 0xf00f);
    in.subop = WS_ATOM_XOR; in.src[1] = imm(0xffff);
    xrun_mask(H, &in, 1);
    assert_int_equal(rd32(H->bufa + 12), 0x0ff0);
    /* f32 add, lane order */
    float f = 1.0f; memcpy(H->bufa + 16, &f, 4);
    in = atom(WS_SP_GLOBAL, WS_TY_F32, WS_ATOM_ADD, reg(0), addr(WS_NO_REG, (int64_t)XH_BUF_A + 16), imm((int64_t)fbits(0.5f)), none());
    assert_int_equal(xrun_mask(H, &in, 0x7), WS_EXEC_OK);
    assert_int_equal(getr(H, 0, 2), fbits(2.0f));
    assert_int_equal(rd32(H->bufa + 16), fbits(2.5f));
    /* red (no destination) and shared u64 */
    in = xi(WS_OP_RED, WS_TY_U64);
    in.space = WS_SP_SHARED; in.subop = WS_ATOM_ADD;
    in.src[0] = addr(WS_NO_REG, 8); in.src[1] = imm(0x100000000ll); in.nsrc = 2;
    assert_int_equal(xrun(H, &in), WS_EXEC_OK);
    uint64_t v; memcpy(&v, H->smem + 8, 8);
    assert_int_equal(v, 32ull << 32);
    /* atomics fault like any access */
    in = atom(WS_SP_GLOBAL, WS_TY_U32, WS_ATOM_ADD, reg(0), addr(WS_NO_REG, (int64_t)XH_BUF_A + 64), imm(1), none());
    assert_int_equal(xrun(H, &in), WS_EXEC_FAULT);
    in.src[0].imm = (int64_t)WS_DATA_BASE;
    assert_int_equal(xrun(H, &in), WS_EXEC_FAULT);
    assert_non_null(strstr(H->env.fault, "read-only"));
}

/* atom.cas.b16 (sm_70+, nvcc: atomicCAS on unsigned short): the lowest lane wins, the
 * neighbouring halfword is untouched; other 16-bit atomics stay refused */
static void test_atomic_cas16(void **s)
{
    (void)s; reset();
    wr32(H->bufa + 20, 0xabcd0007);
    for (unsigned l = 0; l < 32; l++) setr(H, 1, l, 0x100 + l);
    ws_inst in = atom(WS_SP_GLOBAL, WS_TY_B16, WS_ATOM_CAS, reg(0), addr(WS_NO_REG, (int64_t)XH_BUF_A + 20), imm(7), reg(1));
    assert_int_equal(xrun_mask(H, &in, 0xc), WS_EXEC_OK);
    assert_int_equal(getr(H, 0, 2), 7);
    assert_int_equal(getr(H, 0, 3), 0x102);
    assert_int_equal(rd32(H->bufa + 20), 0xabcd0102);
    in.src[0].imm = (int64_t)XH_BUF_A + 21;
    assert_int_equal(xrun_mask(H, &in, 1), WS_EXEC_FAULT);       /* misaligned */
    in.src[0].imm = (int64_t)XH_BUF_A + 22;
    in.subop = WS_ATOM_ADD; in.type = WS_TY_U16;
    assert_int_equal(xrun_mask(H, &in, 1), WS_EXEC_FAULT);
    assert_non_null(strstr(H->env.fault, "16 bit: cas and the half types only"));
}

int main(void)
{
    H = xh_new(32);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_param),
        cmocka_unit_test(test_global),
        cmocka_unit_test(test_misaligned),
        cmocka_unit_test(test_const_readonly),
        cmocka_unit_test(test_shared_local),
        cmocka_unit_test(test_v8),
        cmocka_unit_test(test_generic_cvta),
        cmocka_unit_test(test_narrow_and_vectors),
        cmocka_unit_test(test_atomics),
        cmocka_unit_test(test_atomic_cas16),
    };
    int r = cmocka_run_group_tests(tests, NULL, NULL);
    free(H);
    return r;
}
