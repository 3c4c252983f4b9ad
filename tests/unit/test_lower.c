/*
 * Lowering (src/sim/lower.c, include/warpsweep/lowering.def): the SASS issue
 * slots of each instruction of hand-written kernels. Every expected count is
 * ptxas's (CUDA 13.0, sm_75), read off its disassembly of the same
 * constructs: the forms in bench/lowering/forms.tsv, the loop rules in the
 * kernels named beside them (bench/lowering/README.md), never the program.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "sim/core_internal.h"
#include "tmpdir.h"

#define HDR ".version 8.0\n.target sm_75\n.address_size 64\n"

static ws_kernel *load(const char *text)
{
    write_file("k.ptx", text);
    char path[256];
    snprintf(path, sizeof path, "%s/k.ptx", dir);
    ws_error err = {{0}};
    ws_kernel *k = ws_ptx_load(path, NULL, &err);
    if (!k) fprintf(stderr, "%s\n", err.msg);
    assert_non_null(k);
    return k;
}

static void expect(const char *text, const int *slots, const int *ifconv, const int *units, uint32_t n)
{
    ws_kernel *k = load(text);
    assert_int_equal(k->ninsts, n);
    ws_lowered low[64];
    assert_true(n <= 64);
    assert_int_equal(ws_lower_kernel(k, low), 0);
    for (uint32_t pc = 0; pc < n; pc++) {
        if (low[pc].slots != slots[pc] || low[pc].ifconv != (ifconv ? ifconv[pc] : 0))
            fprintf(stderr, "pc %u: slots %u want %d, ifconv %u want %d\n", pc, low[pc].slots, slots[pc],
                    low[pc].ifconv, ifconv ? ifconv[pc] : 0);
        assert_int_equal(low[pc].slots, slots[pc]);
        assert_int_equal(low[pc].ifconv, ifconv ? ifconv[pc] : 0);
        if (units) assert_int_equal(low[pc].unit, units[pc]);
    }
    ws_kernel_free(k);
}

static int setup(void **st) { (void)st; tmpdir_make("ws_lower"); return 0; }
static int teardown(void **st) { (void)st; tmpdir_remove(); return 0; }

/* Folds, contraction, expansions, three-input logic and if-conversion. */
static void test_straight(void **st)
{
    (void)st;
    static const char *ptx = HDR
        ".visible .entry k(.param .u64 p, .param .u32 n)\n{\n"
        ".reg .pred %p<4>; .reg .b32 %r<20>; .reg .f32 %f<10>; .reg .b64 %rd<10>; .reg .f64 %fd<4>;\n"
        "ld.param.u64 %rd1, [p];\n"            /* 0: c[0x0][..] operand */
        "ld.param.u32 %r1, [n];\n"             /* 1: c[0x0][..] operand */
        "cvta.to.global.u64 %rd2, %rd1;\n"     /* 2: identity */
        "mov.u32 %r2, %tid.x;\n"               /* 3: S2R */
        "mov.u32 %r3, %ntid.x;\n"              /* 4: c[0x0][0x0] */
        "mul.wide.u32 %rd3, %r2, 4;\n"         /* 5: IMAD.WIDE ... */
        "add.s64 %rd4, %rd2, %rd3;\n"          /* 6: ... its addend */
        "ld.global.f32 %f1, [%rd4];\n"         /* 7: LDG */
        "mul.f32 %f2, %f1, %f1;\n"             /* 8: contracted ... */
        "add.f32 %f3, %f2, %f1;\n"             /* 9: ... into this FFMA */
        "mul.rn.f32 %f4, %f3, %f3;\n"          /* 10: .rn: FMUL */
        "add.f32 %f5, %f4, %f1;\n"             /* 11: FADD */
        "div.rn.f32 %f6, %f5, %f3;\n"          /* 12: 8 + BMOV BSSY BSYNC */
        "div.approx.ftz.f32 %f7, %f6, %f5;\n"  /* 13: MUFU.RCP FMUL */
        "and.b32 %r4, %r2, %r3;\n"             /* 14: LOP3 with 15 ... */
        "xor.b32 %r5, %r4, %r1;\n"             /* 15: ... three inputs: r2 r3 r1 */
        "add.s64 %rd5, %rd4, 8;\n"             /* 16: IADD3 IMAD.X */
        "setp.ne.s32 %p1, %r5, 0;\n"           /* 17: the LOP3's predicate output */
        "cvt.rn.f64.f32 %fd1, %f7;\n"          /* 18: F2F */
        "fma.rn.f64 %fd2, %fd1, 0d3FE0000000000000, 0d3FD0000000000000;\n"   /* 19: DFMA + 2 MOVs */
        "@%p1 bra L1;\n"                       /* 20: if-converted over 21-22 */
        "st.global.f32 [%rd5], %f7;\n"         /* 21: STG (predicated) */
        "st.global.f64 [%rd5+8], %fd2;\n"      /* 22: STG (predicated) */
        "L1:\n"
        "div.u64 %rd6, %rd5, %rd4;\n"          /* 23: the u64 subroutine, 76 */
        "st.global.u64 [%rd4], %rd6;\n"        /* 24 */
        "ret;\n}\n";                           /* 25: EXIT */
    static const int slots[] = {0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 1, 1, 11, 2, 0, 1, 2, 0, 1, 3, 0, 1, 1, 76, 1, 1};
    static const int ifconv[26] = {[20] = 2};
    expect(ptx, slots, ifconv, NULL, 26);
}

/* Loops: an invariant divisor's reciprocal before the loop (idivu32), a
 * loop-carried immediate (a MOV), a backward branch (BRA), a load in a
 * forward branch's body (no if-conversion). */
static void test_loop(void **st)
{
    (void)st;
    static const char *ptx = HDR
        ".visible .entry k(.param .u32 n, .param .u32 d, .param .u64 p)\n{\n"
        ".reg .pred %p<4>; .reg .b32 %r<20>; .reg .b64 %rd<4>;\n"
        "ld.param.u32 %r1, [n];\n"             /* 0 */
        "ld.param.u32 %r2, [d];\n"             /* 1 */
        "ld.param.u64 %rd1, [p];\n"            /* 2 */
        "mov.u32 %r3, 0;\n"                    /* 3: loop-carried: a MOV */
        "mov.u32 %r4, %tid.x;\n"               /* 4: S2R + the hoisted reciprocal 18 - 9 */
        "L:\n"
        "div.u32 %r5, %r4, %r2;\n"             /* 5: in the loop: 9 */
        "rem.u32 %r6, %r4, %r5;\n"             /* 6: divisor from the loop: 17 */
        "add.s32 %r4, %r4, %r6;\n"             /* 7 */
        "setp.eq.s32 %p2, %r6, 0;\n"           /* 8: ISETP (r6 read twice) */
        "@%p2 bra M;\n"                        /* 9: body loads: a branch */
        "ld.global.u32 %r7, [%rd1];\n"         /* 10 */
        "add.s32 %r4, %r4, %r7;\n"             /* 11 */
        "M:\n"
        "add.s32 %r3, %r3, 1;\n"               /* 12 */
        "setp.lt.u32 %p1, %r3, %r1;\n"         /* 13 */
        "@%p1 bra L;\n"                        /* 14: BRA */
        "ret;\n}\n";                           /* 15 */
    static const int slots[] = {0, 0, 0, 1, 1 + 9, 9, 17, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    /* on the INT unit: the division's 9 in-loop instructions; rem.u32's 14 of 17 (I2F, MUFU.RCP, F2I on the XU) */
    static const int units[16] = {[5] = 9, [6] = 14};
    expect(ptx, slots, NULL, units, 16);
}

/* lowering.def alone: the forms' counts (forms.tsv, sm_75). */
static void test_forms(void **st)
{
    (void)st;
    static const char *ptx = HDR
        ".visible .entry k()\n{\n"
        ".reg .b32 %r<20>; .reg .s32 %s<4>; .reg .f32 %f<10>; .reg .f64 %fd<8>; .reg .b64 %rd<10>;\n"
        "div.s32 %s1, %s2, %s3;\n"             /* 0: 25 */
        "rem.u32 %r1, %r2, %r3;\n"             /* 1: 17 */
        "sqrt.rn.f64 %fd1, %fd2;\n"            /* 2: 16 + 3 */
        "rcp.rn.f64 %fd3, %fd2;\n"             /* 3: 9 + 3 */
        "rsqrt.approx.ftz.f32 %f1, %f2;\n"     /* 4: MUFU.RSQ */
        "ex2.approx.f32 %f3, %f2;\n"           /* 5: MUFU.EX2 + denormal scaling: 4 */
        "sin.approx.ftz.f32 %f4, %f2;\n"       /* 6: FMUL.RZ MUFU.SIN */
        "mul.lo.u64 %rd1, %rd2, %rd3;\n"       /* 7: 4 */
        "mul.hi.u64 %rd4, %rd2, %rd3;\n"       /* 8: 7 */
        "cvt.u32.u64 %r4, %rd4;\n"             /* 9: the low register */
        "shl.b64 %rd5, %rd1, 3;\n"             /* 10: SHF x2 (no add reads it) */
        "popc.b64 %r5, %rd5;\n"                /* 11: POPC x2 IADD3 */
        "bfe.u32 %r6, %r5, 2, 3;\n"            /* 12: SHF SGXT */
        "neg.f32 %f5, %f2;\n"                  /* 13: the FADD's -R operand (kernels/half's F2F -R0) */
        "add.f32 %f6, %f5, %f3;\n"             /* 14: FADD */
        "ret;\n}\n";                           /* 15 */
    static const int slots[] = {25, 17, 19, 12, 1, 4, 2, 4, 7, 0, 2, 3, 2, 0, 1, 1};
    /* on the instruction's own unit (forms.tsv's SASS): div.s32 25 - 3 on the XU; rem.u32 17 - 3;
     * sqrt.rn.f64 DFMA x5 DMUL x3; rcp.rn.f64 DFMA x5; the MUFU forms 1; mul.lo.u64 4, mul.hi.u64 7;
     * shl.b64 2, popc.b64 3, bfe 2 */
    static const int units[] = {22, 14, 8, 5, 1, 1, 1, 4, 7, 0, 2, 3, 2, 0, 0, 0};
    expect(ptx, slots, NULL, units, 16);
}

/* Conversions on the XU (I2F, F2I, F2F: the CUDA guide's 16 per clock per SM on 7.x, the MUFU's
 * rate); integer-to-integer ones stay on the ALU, a 64-bit value's low half is no instruction. */
static void test_xu(void **st)
{
    (void)st;
    static const char *ptx = HDR
        ".visible .entry k()\n{\n"
        ".reg .b32 %r<8>; .reg .f32 %f<8>; .reg .f64 %fd<4>; .reg .b64 %rd<4>; .reg .b16 %h<4>;\n"
        "cvt.rn.f32.s32 %f1, %r1;\n"          /* 0: I2F */
        "cvt.rzi.s32.f32 %r2, %f1;\n"         /* 1: F2I */
        "cvt.f64.f32 %fd1, %f1;\n"            /* 2: F2F.F64.F32 */
        "cvt.rn.f16.f32 %h1, %f1;\n"          /* 3: F2F.F16.F32 */
        "cvt.u32.u64 %r3, %rd1;\n"            /* 4: the low register: no instruction */
        "cvt.u16.u32 %h2, %r2;\n"             /* 5: integer to integer: the ALU */
        "ret;\n}\n";
    static const int xu[] = {1, 1, 1, 1, 0, 0, 0};
    ws_kernel *k = load(ptx);
    assert_int_equal(k->ninsts, 7);
    ws_lowered low[7];
    assert_int_equal(ws_lower_kernel(k, low), 0);
    for (uint32_t pc = 0; pc < 7; pc++) assert_int_equal(low[pc].xu, xu[pc]);
    ws_kernel_free(k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_straight),
        cmocka_unit_test(test_loop),
        cmocka_unit_test(test_forms),
        cmocka_unit_test(test_xu),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
