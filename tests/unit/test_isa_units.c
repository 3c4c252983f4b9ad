/*
 * ws_inst_classify: the execution unit and cost class of decoded PTX
 * instructions (isa.def's unit and cost columns, resolved by type, rounding,
 * .approx/.full, .wide and state space). Each expectation is the rule in
 * isa.def's header applied by hand, with what ptxas makes of the instruction:
 *  - 64-bit integer add and mul.wide: ptxas emits 32-bit halves (IADD3 +
 *    IADD3.X; IMAD.WIDE produces a register pair) -> INT, cost wide;
 *  - div/rem of integers: a reciprocal-and-correct sequence (PTX ISA, div:
 *    no hardware integer divider) -> INT, cost idiv;
 *  - IEEE div.rn.f32: a subroutine of MUFU.RCP + FMA Newton steps -> FP32, fdiv;
 *  - div.approx.f32, ex2.approx.f32: one MUFU operation (PTX ISA: "fast,
 *    approximate") -> SFU, one;
 *  - sqrt.rn.f64: Newton iterations in double precision -> FP64, ddiv;
 *  - setp.f64, cvt between f32 and f64: double-precision compares and
 *    conversions (DSETP, F2F.F64) -> FP64;
 *  - ld.param: a constant-bank operand, a move -> INT; ld.global -> the LD/ST
 *    pipe (MEM); bra -> the branch unit (CTRL); shfl -> SYNC.
 * The expected values are not taken from the decoder's output.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "warpsweep/ptx.h"

typedef struct {
    const char *text;     /* one PTX instruction */
    ws_unit unit;
    ws_cost cost;
} expect_t;

static const expect_t cases[] = {
    {"add.f32 %f1, %f2, %f3;", WS_UNIT_FP32, WS_COST_ONE},
    {"fma.rn.f64 %fd1, %fd2, %fd3, %fd4;", WS_UNIT_FP64, WS_COST_ONE},
    {"add.s64 %rd1, %rd2, %rd3;", WS_UNIT_INT, WS_COST_WIDE},
    {"mul.wide.u32 %rd1, %r1, %r2;", WS_UNIT_INT, WS_COST_WIDE},
    {"div.u32 %r1, %r2, %r3;", WS_UNIT_INT, WS_COST_IDIV},
    {"rem.s32 %r1, %r2, %r3;", WS_UNIT_INT, WS_COST_IDIV},
    {"div.rn.f32 %f1, %f2, %f3;", WS_UNIT_FP32, WS_COST_FDIV},
    {"div.approx.f32 %f1, %f2, %f3;", WS_UNIT_SFU, WS_COST_ONE},
    {"div.full.f32 %f1, %f2, %f3;", WS_UNIT_SFU, WS_COST_ONE},
    {"div.rn.f64 %fd1, %fd2, %fd3;", WS_UNIT_FP64, WS_COST_DDIV},
    {"sqrt.rn.f64 %fd1, %fd2;", WS_UNIT_FP64, WS_COST_DDIV},
    {"sqrt.approx.f32 %f1, %f2;", WS_UNIT_SFU, WS_COST_ONE},
    {"rcp.rn.f32 %f1, %f2;", WS_UNIT_FP32, WS_COST_FDIV},
    {"ex2.approx.f32 %f1, %f2;", WS_UNIT_SFU, WS_COST_ONE},
    {"sin.approx.f32 %f1, %f2;", WS_UNIT_SFU, WS_COST_ONE},
    {"setp.lt.f64 %p1, %fd1, %fd2;", WS_UNIT_FP64, WS_COST_ONE},
    {"setp.lt.f32 %p1, %f1, %f2;", WS_UNIT_FP32, WS_COST_ONE},
    {"setp.lt.s32 %p1, %r1, %r2;", WS_UNIT_INT, WS_COST_ONE},
    {"cvt.rn.f32.f64 %f1, %fd1;", WS_UNIT_FP64, WS_COST_ONE},
    {"cvt.f64.f32 %fd1, %f1;", WS_UNIT_FP64, WS_COST_ONE},
    {"cvt.rn.f32.s32 %f1, %r1;", WS_UNIT_FP32, WS_COST_ONE},
    {"add.s32 %r1, %r2, %r3;", WS_UNIT_INT, WS_COST_ONE},
    {"ld.param.u64 %rd1, [p];", WS_UNIT_INT, WS_COST_ONE},
    {"ld.param.f64 %fd1, [p];", WS_UNIT_INT, WS_COST_ONE},       /* a move, whatever its type */
    {"mov.f64 %fd1, %fd2;", WS_UNIT_INT, WS_COST_ONE},
    {"selp.f32 %f1, %f2, %f3, %p1;", WS_UNIT_INT, WS_COST_ONE},
    {"and.b64 %rd1, %rd2, %rd3;", WS_UNIT_INT, WS_COST_WIDE},    /* two 32-bit LOP3s */
    {"setp.lt.s64 %p1, %rd1, %rd2;", WS_UNIT_INT, WS_COST_WIDE}, /* ISETP + ISETP.EX */
    {"ld.global.u32 %r1, [%rd1];", WS_UNIT_MEM, WS_COST_ONE},
    {"st.shared.u32 [%r1], %r2;", WS_UNIT_MEM, WS_COST_ONE},
    {"bra $L__end;", WS_UNIT_CTRL, WS_COST_ONE},
    {"shfl.sync.bfly.b32 %r1, %r2, 1, 31, -1;", WS_UNIT_SYNC, WS_COST_ONE},
};
#define NCASES (sizeof cases / sizeof cases[0])

/* A kernel holding every case, one per line; first_line gets the PTX line of cases[0]. */
static ws_kernel *decode_cases(uint32_t *first_line)
{
    static char text[8192];
    int n = snprintf(text, sizeof text,
                     ".version 9.0\n.target sm_70\n.address_size 64\n"    /* lines 1-3 */
                     ".visible .entry k(.param .u64 p)\n{\n"             /* 4-5 */
                     "  .reg .pred %%p<2>;\n  .reg .b32 %%r<4>;\n"        /* 6-7 */
                     "  .reg .b64 %%rd<4>;\n  .reg .f32 %%f<4>;\n"        /* 8-9 */
                     "  .reg .f64 %%fd<5>;\n  .shared .b32 s[32];\n");    /* 10-11 */
    *first_line = 12;
    for (size_t i = 0; i < NCASES; i++) n += snprintf(text + n, sizeof text - (size_t)n, "  %s\n", cases[i].text);
    snprintf(text + n, sizeof text - (size_t)n, "$L__end:\n  ret;\n}\n");
    ws_error err = {{0}};
    ws_kernel *k = ws_ptx_parse(text, "units.ptx", NULL, &err);
    if (!k) fail_msg("decode failed: %s", err.msg);
    return k;
}

static void test_classify(void **state)
{
    (void)state;
    uint32_t first;
    ws_kernel *k = decode_cases(&first);
    assert_int_equal(k->ninsts, NCASES + 1);
    for (size_t i = 0; i < NCASES; i++) {
        const ws_inst *in = NULL;
        for (uint32_t j = 0; j < k->ninsts; j++)
            if (k->insts[j].line == first + i) in = &k->insts[j];
        if (!in) fail_msg("no instruction at line %u (%s)", (unsigned)(first + i), cases[i].text);
        if (in->unit != cases[i].unit || in->cost != cases[i].cost)
            fail_msg("%s: unit %s cost %s, want unit %s cost %s", cases[i].text, ws_unit_name(in->unit),
                     ws_cost_name(in->cost), ws_unit_name(cases[i].unit), ws_cost_name(cases[i].cost));
    }
    ws_kernel_free(k);
}

/* Classification is a function of the decoded fields: re-running it on a
 * copy gives the same answer, and changing the type alone moves an add
 * between INT, FP32 and FP64 (isa.def: ALU by type). */
static void test_classify_by_type(void **state)
{
    (void)state;
    uint32_t first;
    ws_kernel *k = decode_cases(&first);
    ws_inst in = k->insts[0];                   /* add.f32 */
    in.unit = 0xff;
    in.cost = 0xff;
    ws_inst_classify(&in);
    assert_int_equal(in.unit, WS_UNIT_FP32);
    assert_int_equal(in.cost, WS_COST_ONE);
    in.type = WS_TY_F64;
    ws_inst_classify(&in);
    assert_int_equal(in.unit, WS_UNIT_FP64);
    in.type = WS_TY_U32;
    ws_inst_classify(&in);
    assert_int_equal(in.unit, WS_UNIT_INT);
    assert_int_equal(in.cost, WS_COST_ONE);
    in.type = WS_TY_U64;
    ws_inst_classify(&in);
    assert_int_equal(in.unit, WS_UNIT_INT);
    assert_int_equal(in.cost, WS_COST_WIDE);
    ws_kernel_free(k);
}

static void test_names(void **state)
{
    (void)state;
    assert_string_equal(ws_unit_name(WS_UNIT_INT), "INT");
    assert_string_equal(ws_unit_name(WS_UNIT_FP32), "FP32");
    assert_string_equal(ws_unit_name(WS_UNIT_FP64), "FP64");
    assert_string_equal(ws_unit_name(WS_UNIT_SFU), "SFU");
    assert_string_equal(ws_unit_name(WS_NUNITS), "?");
    assert_string_equal(ws_cost_name(WS_COST_DDIV), "ddiv");
    assert_string_equal(ws_cost_name(WS_NCOSTS), "?");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_classify),
        cmocka_unit_test(test_classify_by_type),
        cmocka_unit_test(test_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
