/*
 * PTX forms real kernels emit beyond nvcc's everyday subset: vector registers, calls with
 * .reg parameters, a kernel parameter's address, predicate constants, WARP_SZ, the sm_61+
 * integer instructions and the video instructions (decoded or refused by name). The
 * expected decodings are worked out by hand from the PTX ISA sections cited in
 * src/ptx/parse*.c; refusals assert the exact file:line:col.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "warpsweep/ptx.h"
#include "ptx/ptx_internal.h"

#define HDR ".version 8.0\n.target sm_80\n.address_size 64\n"
/* BODY: line 4 ".entry", 5-7 declarations, the snippet starts on line 8 */
#define BODY(lines) HDR ".entry k(.param .u64 o, .param .u32 n, .param .u32 m) {\n  .reg .pred %p<3>;\n" \
    "  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n" lines "  ret;\n}\n"

static ws_kernel *load(const char *text)
{
    ws_error err = {{0}};
    ws_kernel *k = ws_ptx_parse(text, "f.ptx", NULL, &err);
    if (!k) fprintf(stderr, "load failed: %s\n", err.msg);
    assert_non_null(k);
    return k;
}

static void refused(const char *text, const char *prefix, const char *needle)
{
    ws_error err = {{0}};
    ws_kernel *k = ws_ptx_parse(text, "f.ptx", NULL, &err);
    if (k) {
        ws_kernel_free(k);
        fail_msg("accepted, expected an error starting with %s", prefix);
    }
    if (strncmp(err.msg, prefix, strlen(prefix)) != 0) fail_msg("message '%s' does not start with '%s'", err.msg, prefix);
    if (needle && !strstr(err.msg, needle)) fail_msg("message '%s' does not mention '%s'", err.msg, needle);
    assert_null(strchr(err.msg, '\n'));
}

static const char *rname(const ws_kernel *k, uint32_t r) { return r < k->nregs ? k->reg_names[r] : "?"; }

static void test_vector_registers(void **s)
{
    (void)s;
    ws_kernel *k = load(BODY("  .reg .v4 .u32 %q<2>;\n  .reg .v2 .b64 %w;\n"
                             "  ld.param.u64 %rd1, [o];\n"
                             "  ld.global.v4.u32 %q1, [%rd1];\n"
                             "  mov.v4.u32 %q0, {%q1.w, %q1.b, %q1.y, %q1.r};\n"
                             "  add.u32 %r1, %q0.x, %q0.a;\n"
                             "  mov.b64 %rd2, {%q0.y, %q0.z};\n"
                             "  mov.v2.b64 %w, {%rd2, %rd1};\n"
                             "  st.global.v2.b64 [%rd1], %w;\n"));
    const ws_inst *ld = &k->insts[1], *mv = &k->insts[2], *add = &k->insts[3], *pk = &k->insts[4],
                  *mw = &k->insts[5], *st = &k->insts[6];
    assert_int_equal(ld->dst[0].kind, WS_OK_VEC);
    assert_int_equal(ld->dst[0].nvec, 4);
    assert_string_equal(rname(k, ld->dst[0].vec[0]), "%q1.x");
    assert_string_equal(rname(k, ld->dst[0].vec[3]), "%q1.w");
    assert_int_equal(mv->vec, 4);
    assert_string_equal(rname(k, mv->src[0].vec[0]), "%q1.w");
    assert_string_equal(rname(k, mv->src[0].vec[1]), "%q1.z");   /* .b is the third element */
    assert_string_equal(rname(k, mv->src[0].vec[3]), "%q1.x");   /* .r the first */
    assert_string_equal(rname(k, mv->dst[0].vec[2]), "%q0.z");
    assert_string_equal(rname(k, add->src[0].reg), "%q0.x");
    assert_string_equal(rname(k, add->src[1].reg), "%q0.w");
    assert_int_equal(pk->vec, 1);                                  /* a pack, not element-wise */
    assert_int_equal(pk->src[0].nvec, 2);
    assert_int_equal(k->reg_types[mw->dst[0].vec[1]], WS_TY_B64);
    assert_int_equal(st->src[1].kind, WS_OK_VEC);
    assert_string_equal(rname(k, st->src[1].vec[1]), "%w.y");
    ws_kernel_free(k);
    refused(BODY("  .reg .v2 .u32 %v;\n  mov.u32 %r1, %v.z;\n"), "f.ptx:9:18: ", "'%v.z'");
    refused(BODY("  .reg .v2 .u32 %v;\n  mov.v4.u32 {%r1, %r2, %r3, %r4}, %v;\n"), "f.ptx:9:3: ", "mov.v4");
    refused(BODY("  .reg .v2 .pred %v;\n"), "f.ptx:8:12: ", ".pred");
}

static void test_param_address(void **s)
{
    (void)s;
    ws_kernel *k = load(BODY("  mov.u64 %rd1, m;\n  ld.param.u32 %r1, [%rd1];\n  mov.b64 %rd2, n+4;\n"));
    /* o at 0 (8 bytes), n at 8, m at 12 */
    assert_int_equal(k->insts[0].src[0].kind, WS_OK_IMM);
    assert_int_equal(k->insts[0].src[0].imm, 12);
    assert_int_equal(k->insts[1].space, WS_SP_PARAM);
    assert_int_equal(k->insts[2].src[0].imm, 12);
    ws_kernel_free(k);
    refused(BODY("  mov.u32 %r1, m;\n"), "f.ptx:8:16: ", "mov.u64");
}

static void test_predicate_constants(void **s)
{
    (void)s;
    ws_kernel *k = load(BODY("  selp.b32 %r1, 1, 2, 1;\n  selp.b32 %r1, 1, 2, !7;\n"
                             "  setp.eq.and.u32 %p1, %r1, 2, 0;\n  vote.sync.ballot.b32 %r2, 1, -1;\n"
                             "  mov.pred %p2, 2;\n  bar.red.popc.u32 %r3, 0, !0;\n"));
    assert_int_equal(k->insts[0].src[2].kind, WS_OK_IMM);
    assert_int_equal(k->insts[0].src[2].imm, 1);
    assert_int_equal(k->insts[1].src[2].imm, 0);    /* !7: 7 is true (PTX ISA 4.5.1) */
    assert_int_equal(k->insts[2].src[2].imm, 0);
    assert_int_equal(k->insts[3].src[0].imm, 1);
    assert_int_equal(k->insts[4].src[0].imm, 1);    /* non-zero is true */
    assert_int_equal(k->insts[5].src[1].kind, WS_OK_IMM);
    assert_int_equal(k->insts[5].src[1].imm, 1);
    ws_kernel_free(k);
    refused(BODY("  add.u32 %r1, %r1, !1;\n"), "f.ptx:8:21: ", "'!'");
}

static void test_warp_sz_and_new_ops(void **s)
{
    (void)s;
    ws_kernel *k = load(BODY("  mov.u32 %r1, WARP_SZ;\n  mul.lo.u32 %r2, %r1, WARP_SZ;\n"
                             "  dp4a.s32.u32 %r3, %r1, %r2, -1;\n  dp2a.hi.u32.s32 %r3, %r1, %r2, %r3;\n"
                             "  fns.b32 %r4, %r1, 0, -2;\n  bmsk.clamp.b32 %r4, %r1, %r2;\n"
                             "  szext.wrap.s32 %r4, %r1, 8;\n  cvt.pack.sat.s4.s32.b32 %r5, %r1, %r2, %r3;\n"
                             "  cvt.pack.sat.u16.s32 %r5, %r1, %r2;\n  lop3.b32 %r6, %r1, %r2, %r3, 0x96;\n"
                             "  vabsdiff4.u32.u32.u32.add %r7, %r1, %r2, %r7;\n  vmax2.s32.u32.s32.sat %r7, %r1, %r2, 0;\n"));
    const ws_inst *in = k->insts;
    assert_int_equal(in[0].src[0].kind, WS_OK_SREG);
    assert_int_equal(in[0].src[0].sreg, WS_SR_WARP_SZ);
    assert_int_equal(in[1].src[1].sreg, WS_SR_WARP_SZ);
    assert_int_equal(in[2].op, WS_OP_DP4A);
    assert_int_equal(in[2].type, WS_TY_S32);
    assert_int_equal(in[2].type2, WS_TY_U32);
    assert_int_equal((uint32_t)in[2].src[2].imm, 0xffffffffu);
    assert_true(in[3].mods & WS_MOD_HI);
    assert_int_equal((int32_t)in[4].src[2].imm, -2);
    assert_int_equal(in[5].subop, WS_BMODE_CLAMP);
    assert_int_equal(in[6].subop, WS_BMODE_WRAP);
    assert_int_equal(in[7].op, WS_OP_CVT_PACK);
    assert_int_equal(in[7].subop, WS_PACK_S4);
    assert_int_equal(in[7].type2, WS_TY_B32);
    assert_int_equal(in[8].subop, WS_PACK_U16);
    assert_int_equal(in[8].nsrc, 2);
    assert_int_equal(in[9].src[3].imm, 0x96);
    assert_int_equal(in[10].op, WS_OP_VABSDIFF4);
    assert_true(in[10].mods & WS_MOD_ADD);
    assert_int_equal(in[11].type, WS_TY_S32);
    assert_int_equal(in[11].type2, WS_TY_U32);
    assert_int_equal(in[11].subop, WS_TY_S32);
    char buf[160];
    ws_inst_format(k, &in[7], buf, sizeof buf);
    assert_string_equal(buf, "cvt.pack.sat.s4.s32.b32 %r5, %r1, %r2, %r3;");
    ws_inst_format(k, &in[10], buf, sizeof buf);
    assert_string_equal(buf, "vabsdiff4.u32.u32.u32.add %r7, %r1, %r2, %r7;");
    ws_kernel_free(k);
    refused(BODY("  dp2a.u32.u32 %r1, %r1, %r2, %r3;\n"), "f.ptx:8:3: ", ".lo or .hi");
    refused(BODY("  cvt.pack.sat.u8.s32 %r1, %r1, %r2;\n"), "f.ptx:8:3: ", ".b32");
    refused(BODY("  cvt.pack.u16.s32 %r1, %r1, %r2;\n"), "f.ptx:8:3: ", ".sat");
    refused(BODY("  lop3.b32 %r1, %r1, %r2, %r3, %r4;\n"), "f.ptx:8:32: ", "immediate");
    refused(BODY("  vadd4.u32.u32.u32.sat.add %r1, %r1, %r2, %r3;\n"), "f.ptx:8:3: ", ".add");
    refused(BODY("  vadd4.u32.u32 %r1, %r1, %r2, %r3;\n"), "f.ptx:8:3: ", "three types");
    refused(BODY("  vadd.u32.u32.u32.sat %r1, %r1, %r2;\n"), "f.ptx:8:3: ", "video instruction 'vadd'");
    refused(BODY("  vset4.u32.u32.ne %r1, %r1, %r2, %r3;\n"), "f.ptx:8:3: ", "video instruction 'vset4'");
    refused(BODY("  bmsk.b32 %r1, %r1, %r2;\n"), "f.ptx:8:3: ", ".clamp or .wrap");
}

/* the scalar video shifts (PTX ISA 9.7.16.1.2): selectors, mode, secondary operation, merge */
static void test_vshift_forms(void **s)
{
    (void)s;
    ws_kernel *k = load(BODY("  vshl.u32.u32.u32.clamp %r1, %r2, %r3;\n"
                             "  vshr.s32.u32.u32.sat.wrap.min %r1, %r2.b3, %r3.h1, %r4;\n"
                             "  vshl.s32.s32.u32.sat.clamp %r1.h1, %r2.h0, 4, %r1;\n"));
    const ws_inst *in = k->insts;
    assert_int_equal(in[0].op, WS_OP_VSHL);
    assert_int_equal(in[0].subop, WS_BMODE_CLAMP);
    assert_int_equal(in[0].nsrc, 2);
    assert_int_equal(in[0].cmp, 0);
    assert_int_equal(in[0].boolop, 0);
    assert_int_equal(in[1].op, WS_OP_VSHR);
    assert_int_equal(in[1].type, WS_TY_S32);
    assert_int_equal(in[1].type2, WS_TY_U32);
    assert_int_equal(in[1].subop, WS_BMODE_WRAP);
    assert_true(in[1].mods & WS_MOD_SAT);
    assert_int_equal(in[1].cmp, WS_VSEL_B3 | WS_VSEL_H1 << 4);
    assert_int_equal(in[1].boolop, WS_VOP2_MIN);
    assert_int_equal(in[1].nsrc, 3);
    assert_int_equal(in[2].cmp, WS_VSEL_H0);
    assert_int_equal(in[2].boolop, WS_VSEL_H1 << 4);
    assert_int_equal(in[2].src[1].kind, WS_OK_IMM);
    char buf[160];
    ws_inst_format(k, &in[1], buf, sizeof buf);
    assert_string_equal(buf, "vshr.s32.u32.u32.sat.wrap.min %r1, %r2.b3, %r3.h1, %r4;");
    ws_inst_format(k, &in[2], buf, sizeof buf);
    assert_string_equal(buf, "vshl.s32.s32.u32.sat.clamp %r1.h1, %r2.h0, 4, %r1;");
    ws_kernel_free(k);
    refused(BODY("  vshl.u32.u32.u32 %r1, %r2, %r3;\n"), "f.ptx:8:3: ", ".clamp or .wrap");
    refused(BODY("  vshl.u32.u32.s32.wrap %r1, %r2, %r3;\n"), "f.ptx:8:15: ", "third type");
    refused(BODY("  vshl.u32.u32.u32.wrap %r1, %r2, %r3, %r4;\n"), "f.ptx:8:3: ", "c operand");
    refused(BODY("  vshl.u32.u32.u32.wrap.add %r1, %r2, %r3;\n"), "f.ptx:8:3: ", "c operand");
    refused(BODY("  vshl.u32.u32.u32.wrap.add %r1.b0, %r2, %r3, %r4;\n"), "f.ptx:8:3: ", "exclude each other");
    refused(BODY("  add.u32 %r1, %r2.b0, %r3;\n"), "f.ptx:8:19: ", "operand selector '.b0'");
    refused(BODY("  vshl.u32.u32.u32.wrap.add %r1, %r2, %r3, %r4.h0;\n"), "f.ptx:8:47: ", "operand selector '.h0'");
}

/* .v8 (PTX ISA 8.x): eight elements of up to 32 bits; 256 bits only in .global or generic
 * space (ptxas: "global state space expected for feature '256 bit wide load/store'") */
static void test_v8_forms(void **s)
{
    (void)s;
    ws_kernel *k = load(BODY("  .reg .b16 %h<8>;\n  ld.param.u64 %rd1, [o];\n"
                             "  ld.global.v8.f32 {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, [%rd1];\n"
                             "  st.v8.b32 [%rd1+32], {%r7, %r6, _, %r4, %r3, %r2, %r1, %r0};\n"
                             "  ld.shared.v8.b16 {%h0, %h1, %h2, %h3, %h4, %h5, %h6, %h7}, [%rd1];\n"
                             "  ld.global.v4.f64 {%rd0, %rd1, %rd2, %rd3}, [%rd1];\n"));
    const ws_inst *in = k->insts;
    assert_int_equal(in[1].vec, 8);
    assert_int_equal(in[1].dst[0].nvec, 8);
    assert_string_equal(rname(k, in[1].dst[0].vec[7]), "%r7");
    assert_int_equal(in[1].n_wr, 8);
    assert_int_equal(in[2].space, WS_SP_GENERIC);
    assert_int_equal(in[2].src[1].vec[2], WS_NO_REG);
    assert_int_equal(in[2].n_rd, 8);          /* seven values and the address */
    assert_int_equal(in[3].space, WS_SP_SHARED);
    assert_int_equal(in[3].type, WS_TY_B16);
    char buf[200];
    ws_inst_format(k, &in[1], buf, sizeof buf);
    assert_string_equal(buf, "ld.global.v8.f32 {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, [%rd1];");
    ws_kernel_free(k);
#define R8 " {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, [%rd1];\n"
    refused(BODY("  ld.shared.v8.f32" R8), "f.ptx:8:3: ", "256-bit 'ld.v8.f32' is allowed in .global or generic space only, not .shared");
    refused(BODY("  ld.local.v4.u64 {%rd0, %rd1, %rd2, %rd3}, [%rd1];\n"), "f.ptx:8:3: ", "not .local");
    refused(BODY("  ld.global.v8.b64 {%rd0, %rd1, %rd2, %rd3, %rd0, %rd1, %rd2, %rd3}, [%rd1];\n"), "f.ptx:8:3: ",
            "512 bits wide");
    refused(BODY("  ldu.global.v8.u32" R8), "f.ptx:8:3: ", "'.v8' is allowed on ld and st only");
#undef R8
    refused(BODY("  ld.global.v8.u32 {%r0, %r1, %r2, %r3}, [%rd1];\n"), "f.ptx:8:3: ", "vector operand of 8 registers");
}

static void test_address_size_32(void **s)
{
    (void)s;
    refused(".version 8.0\n.target sm_80\n.address_size 32\n.entry k() { ret; }\n", "f.ptx:3:1: ",
            ".address_size 32 is not supported");
}

#define FUNC ".func (.reg .u32 r, .reg .pred q) mix (.reg .u32 a, .reg .u32 b, .reg .pred c)\n{\n" \
    "  .reg .u32 t;\n  mad.lo.u32 t, a, 3, b;\n  selp.u32 r, t, b, c;\n  setp.gt.u32 q, t, 100;\n" \
    "  @q ret;\n  add.u32 r, r, 1000;\n  ret;\n}\n"

static void test_register_call(void **s)
{
    (void)s;
    ws_kernel *k = load(HDR FUNC ".entry k() {\n  .reg .b32 %r<4>;\n  .reg .pred %p<3>;\n"
                        "  call (%r3, %p2), mix, (%r1, -7, %p1);\n  ret;\n}\n");
    /* mov a, %r1; mov b, -7; mov c, %p1; mad; selp; setp; @q bra ->9; add; mov %r3, r; mov %p2, q; ret */
    assert_int_equal(k->ninsts, 11);
    const ws_inst *in = k->insts;
    assert_int_equal(in[0].op, WS_OP_MOV);
    assert_string_equal(rname(k, in[0].dst[0].reg), "a@mix#1");
    assert_string_equal(rname(k, in[0].src[0].reg), "%r1");
    assert_int_equal(in[1].src[0].kind, WS_OK_IMM);
    assert_int_equal((uint32_t)in[1].src[0].imm, (uint32_t)-7);
    assert_int_equal(in[2].type, WS_TY_PRED);
    assert_int_equal(in[6].op, WS_OP_BRA);
    assert_int_equal(in[6].target, 8);            /* the guarded ret lands on the return movs */
    assert_string_equal(rname(k, in[8].dst[0].reg), "%r3");
    assert_string_equal(rname(k, in[8].src[0].reg), "r@mix#1");
    assert_string_equal(rname(k, in[9].dst[0].reg), "%p2");
    assert_int_equal(in[8].line, 17);            /* the call's line */
    ws_kernel_free(k);
    refused(HDR FUNC ".entry k() {\n  .reg .b32 %r<4>;\n  .reg .b64 %rd1;\n  .reg .pred %p<3>;\n"
            "  call (%r3, %p2), mix, (%rd1, 7, %p1);\n  ret;\n}\n", "f.ptx:18:3: ", "'%rd1' (.b64)");
    refused(HDR ".func (.param .b32 r) f (.reg .b32 a)\n{\n  st.param.b32 [r], a;\n  ret;\n}\n"
            ".entry k() {\n  .reg .b32 %r<4>;\n  .param .b32 x;\n  call (%r1), f, (%r2);\n  ret;\n}\n",
            "f.ptx:12:3: ", "return value 1");
}

/* Vector .reg parameters (PTX ISA 5.4.2 vectors, 9.7.12.2 call): a .v2 return value and argument
 * pass element by element, x then y; widths must agree; an element is not an operand (as ptxas). */
#define VFUNC ".func (.reg .v2 .u32 r) sw (.reg .v2 .u32 a)\n{\n  mov.u32 r.x, a.y;\n  mov.u32 r.y, a.x;\n  ret;\n}\n"
static void test_vector_register_call(void **s)
{
    (void)s;
    ws_kernel *k = load(HDR VFUNC ".entry k() {\n  .reg .v2 .b32 %v, %w;\n  call (%w), sw, (%v);\n  ret;\n}\n");
    /* mov a.x, %v.x; mov a.y, %v.y; mov r.x, a.y; mov r.y, a.x; mov %w.x, r.x; mov %w.y, r.y; ret */
    assert_int_equal(k->ninsts, 7);
    const char *want[6][2] = {{"a.x@sw#1", "%v.x"}, {"a.y@sw#1", "%v.y"}, {"r.x@sw#1", "a.y@sw#1"},
                              {"r.y@sw#1", "a.x@sw#1"}, {"%w.x", "r.x@sw#1"}, {"%w.y", "r.y@sw#1"}};
    for (int i = 0; i < 6; i++) {
        assert_int_equal(k->insts[i].op, WS_OP_MOV);
        assert_string_equal(rname(k, k->insts[i].dst[0].reg), want[i][0]);
        assert_string_equal(rname(k, k->insts[i].src[0].reg), want[i][1]);
    }
    ws_kernel_free(k);
    refused(HDR VFUNC ".entry k() {\n  .reg .v4 .b32 %v;\n  .reg .v2 .b32 %w;\n  call (%w), sw, (%v);\n  ret;\n}\n",
            "f.ptx:13:3: ", "argument 1 of the call to 'sw' is a .v4 vector register, but the function declares a .v2 vector register");
    refused(HDR VFUNC ".entry k() {\n  .reg .b32 %r;\n  .reg .v2 .b32 %w;\n  call (%w), sw, (%r);\n  ret;\n}\n",
            "f.ptx:13:3: ", "argument 1 of the call to 'sw' is a scalar, but the function declares a .v2 vector register");
    refused(HDR VFUNC ".entry k() {\n  .reg .v2 .b32 %v, %w;\n  call (%w), sw, (%v.x);\n  ret;\n}\n",
            "f.ptx:12:19: ", "argument '%v.x': a vector's element cannot be a call operand");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vector_registers),
        cmocka_unit_test(test_param_address),
        cmocka_unit_test(test_predicate_constants),
        cmocka_unit_test(test_warp_sz_and_new_ops),
        cmocka_unit_test(test_vshift_forms),
        cmocka_unit_test(test_v8_forms),
        cmocka_unit_test(test_address_size_32),
        cmocka_unit_test(test_register_call),
        cmocka_unit_test(test_vector_register_call),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
