/* Memory semantics: ld/st on every state space, vectors, narrow loads,
 * faults (misaligned, out of bounds, read-only), cvta, atomics in lane order. */
#include "exec_harness.h"
#include "warpsweep/ptx.h"

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

/* 32-bit address arithmetic (PTX ISA 6.4, "Addresses as Operands": an address is formed at
 * the size of its register). The example, nvcc's unrolled shared-init loop:
 * add.s32 %r68, %r67, -256; add.s32 %r31, %r30, %r68; st.shared.u8 [%r31+256], %rs2 with
 * %r30 = shared address 0 and %r67 = lane: %r31 = lane - 256 mod 2^32 = 0xffffff00 + lane,
 * and [%r31+256] is shared offset lane (0x100000000 + lane only if summed in 64 bits). */
static void test_addr32_wrap(void **s)
{
    (void)s; reset();
    H->reg_types[1] = WS_TY_U32;      /* %r31 */
    H->reg_types[2] = WS_TY_U16;      /* %rs2 */
    H->reg_types[3] = WS_TY_U64;      /* a 64-bit base */
    memset(H->smem, 0, XH_SMEM);
    for (unsigned l = 0; l < 32; l++) {
        setr(H, 1, l, (uint32_t)(l - 256));
        setr(H, 2, l, 0x40 + l);
    }
    ws_inst in = st(WS_SP_SHARED, WS_TY_U8, addr(1, 256), reg(2));
    assert_int_equal(xrun(H, &in), WS_EXEC_OK);
    for (unsigned l = 0; l < 32; l++) assert_int_equal(H->smem[l], 0x40 + l);
    assert_int_equal(H->eff.mem_addr[31], 31);
    assert_int_equal(H->eff.mem_space, WS_SP_SHARED);
    /* the same sum from a 64-bit register stays 64-bit: 0xffffff00 + 256 = 2^32, out of bounds */
    for (unsigned l = 0; l < 32; l++) setr(H, 3, l, (uint32_t)(l - 256));
    in = st(WS_SP_SHARED, WS_TY_U8, addr(3, 256), reg(2));
    assert_int_equal(xrun(H, &in), WS_EXEC_FAULT);
    assert_non_null(strstr(H->env.fault, "out-of-bounds 1-byte st.shared at offset 0x100000000"));
    /* a negative offset on a 32-bit register: 0x10 + (-16) = 0 */
    setall(H, 1, 0x10);
    wr32(H->smem, 0xcafef00d);
    in = ld(WS_SP_SHARED, WS_TY_U32, reg(4), addr(1, -16));
    assert_int_equal(run_r(H, &in, 4), 0xcafef00d);
    /* vector ld/st and atom wrap alike: base 0xfffffff0 + 0x20 = offset 0x10 */
    setall(H, 1, 0xfffffff0u);
    setall(H, 5, 0x1111); setall(H, 6, 0x2222);
    in = st(WS_SP_SHARED, WS_TY_U32, addr(1, 0x20), vec(2, 5, 6, 0, 0));
    in.vec = 2;
    assert_int_equal(xrun_mask(H, &in, 1), WS_EXEC_OK);
    assert_int_equal(rd32(H->smem + 0x10), 0x1111);
    assert_int_equal(rd32(H->smem + 0x14), 0x2222);
    in = atom(WS_SP_SHARED, WS_TY_U32, WS_ATOM_ADD, reg(7), addr(1, 0x20), imm(5), none());
    assert_int_equal(xrun_mask(H, &in, 0xf), WS_EXEC_OK);    /* four lanes add 5 each */
    assert_int_equal(rd32(H->smem + 0x10), 0x1111 + 20);
    assert_int_equal(getr(H, 7, 3), 0x1111 + 15);
    /* local window: a 32-bit register below 0 plus the bias */
    setall(H, 1, (uint32_t)-8);
    setall(H, 2, 0x5a);
    in = st(WS_SP_LOCAL, WS_TY_U8, addr(1, 12), reg(2));
    assert_int_equal(xrun_mask(H, &in, 1), WS_EXEC_OK);
    assert_int_equal(H->local[4], 0x5a);
    /* a generic address in a 32-bit register wraps too (then zero-extends): global, not shared */
    setall(H, 1, (uint32_t)(XH_BUF_A - 4));
    wr32(H->bufa + 4, 0x600d);
    in = ld(WS_SP_GENERIC, WS_TY_U32, reg(4), addr(1, 8));
    assert_int_equal(run_r(H, &in, 4), 0x600d);
    H->reg_types[1] = H->reg_types[2] = H->reg_types[3] = WS_TY_NONE;
}

/* Generic addressing of shared memory (PTX ISA 6.4.1 "Generic Addressing"): ldmatrix without
 * .shared takes generic addresses (PTX ISA 9.7.9.26: the state space is optional); lanes 0..7
 * give the generic addresses of the eight rows (row r at shared offset 16 r, element (r, c) =
 * 0x100 + 8 r + c); lane l receives row l / 4, columns 2 (l % 4) and 2 (l % 4) + 1. An address
 * outside the shared window faults. */
static void test_generic_ldmatrix(void **s)
{
    (void)s; reset();
    for (unsigned r = 0; r < 8; r++)
        for (unsigned c = 0; c < 8; c++) {
            uint16_t v = (uint16_t)(0x100 + 8 * r + c);
            memcpy(H->smem + 16 * r + 2 * c, &v, 2);
        }
    for (unsigned l = 0; l < 32; l++) setr(H, 1, l, WS_SHARED_WINDOW + 16 * (l % 8));
    ws_inst in = xi(WS_OP_LDMATRIX, WS_TY_B16);
    in.subop = 1;
    in.mods = WS_MOD_ALIGNED;
    in.dst[0] = vec(1, 2, 0, 0, 0); in.ndst = 1;
    in.src[0] = addr(1, 0); in.nsrc = 1;
    assert_int_equal(xrun(H, &in), WS_EXEC_OK);
    for (unsigned l = 0; l < 32; l++) {
        unsigned r = l / 4, c = 2 * (l % 4);
        assert_int_equal(getr(H, 2, l), (0x100 + 8 * r + c) | (uint64_t)(0x100 + 8 * r + c + 1) << 16);
    }
    assert_int_equal(H->eff.mem_space, WS_SP_SHARED);
    assert_int_equal(H->eff.mem_addr[7], 112);
    setr(H, 1, 3, XH_BUF_A);
    assert_int_equal(xrun(H, &in), WS_EXEC_FAULT);
    assert_non_null(strstr(H->env.fault, "ldmatrix: generic address 0x10000000 is not in the shared window"));
}

/* A .shared (or .local) variable named in a generic access is its generic address: ld [s+4]
 * without a state space reads shared word 1 (not global address 4), st [s] and atom [s+8] write
 * shared memory, while mov gives the state-space address and cvta.shared its generic address
 * (PTX ISA, the mov and cvta instructions); PTX text through the loader. */
static void test_generic_shared_symbol(void **s)
{
    (void)s;
    const char *text = ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n"
                       "  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n"
                       "  .shared .align 4 .b8 pad[16];\n  .shared .align 4 .b32 s[4];\n"
                       "  .local .align 4 .b32 loc[2];\n"
                       "  ld.b32 %r1, [s+4];\n"                 /* 0 */
                       "  st.u32 [s], %r2;\n"                   /* 1 */
                       "  atom.add.u32 %r3, [s+8], 5;\n"        /* 2 */
                       "  mov.u64 %rd1, s;\n"                   /* 3 */
                       "  cvta.shared.u64 %rd2, s;\n"           /* 4 */
                       "  st.b32 [loc+4], %r2;\n"               /* 5 */
                       "  ld.local.b32 %r4, [loc+4];\n"         /* 6 */
                       "  ld.shared.b32 %r5, [s+8];\n"          /* 7 */
                       "  mov.u64 %rd3, loc;\n"                 /* 8 */
                       "  cvta.local.u64 %rd0, loc+4;\n"        /* 9 */
                       "  ret;\n}\n";
    ws_error err = {{0}};
    ws_kernel *k = ws_ptx_parse(text, "g.ptx", NULL, &err);
    if (!k) fail_msg("load failed: %s", err.msg);
    assert_int_equal(k->insts[0].src[0].imm, (int64_t)WS_SHARED_WINDOW + 20);
    assert_int_equal(k->insts[3].src[0].imm, 16);
    assert_int_equal(k->insts[7].src[0].imm, 24);
    reset();
    H->L.kernel = k;
    wr32(H->smem + 20, 0xbeef);
    wr32(H->smem + 24, 100);
    wr32(H->bufa + 4, 0xdead);     /* what a generic read of address 4 would never reach anyway */
    const uint32_t r1 = 1, r2 = 2, r3 = 3, r4 = 4, r5 = 5, rd1 = 9, rd2 = 10;   /* %r0..%r7, %rd0..%rd3 */
    assert_string_equal(k->reg_names[r1], "%r1");
    assert_string_equal(k->reg_names[rd1], "%rd1");
    assert_string_equal(k->reg_names[rd2], "%rd2");
    setall(H, r2, 0x1234);
    for (uint32_t i = 0; i < 10; i++)
        if (xrun_mask(H, &k->insts[i], 1) != WS_EXEC_OK) fail_msg("inst %u: %s", i, H->env.fault);
    assert_int_equal(getr(H, r1, 0), 0xbeef);
    assert_int_equal(rd32(H->smem + 16), 0x1234);
    assert_int_equal(getr(H, r3, 0), 100);
    assert_int_equal(getr(H, r5, 0), 105);
    assert_int_equal(getr(H, rd1, 0), 16);
    assert_int_equal(getr(H, rd2, 0), WS_SHARED_WINDOW + 16);
    assert_int_equal(getr(H, r4, 0), 0x1234);
    assert_int_equal(getr(H, rd1 + 2, 0), 0);                          /* %rd3: loc's local offset */
    assert_int_equal(getr(H, rd1 - 1, 0), WS_LOCAL_WINDOW + 4);        /* %rd0 */
    H->L.kernel = &H->k;
    ws_kernel_free(k);
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
        cmocka_unit_test(test_addr32_wrap),
        cmocka_unit_test(test_generic_ldmatrix),
        cmocka_unit_test(test_generic_shared_symbol),
    };
    int r = cmocka_run_group_tests(tests, NULL, NULL);
    free(H);
    return r;
}
