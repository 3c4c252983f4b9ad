/*
 * Calls to .func functions defined in the module, inlined at load (src/ptx/parse.c,
 * expand_calls()). The expected flat instruction streams, local-memory slots and register
 * names are worked out by hand from the rules documented there: the callee's .param
 * variables are .local slots laid out in declaration order with natural alignment (a
 * call's own .param variables share the callee's slots), an unguarded `ret` ending a
 * callee is dropped, any other becomes a branch to the instruction after the call.
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

#define HDR ".version 9.0\n.target sm_75\n.address_size 64\n"

static ws_kernel *load(const char *text)
{
    ws_error err = {{0}};
    ws_kernel *k = ws_ptx_parse(text, "c.ptx", NULL, &err);   /* with the CFG */
    if (!k) fprintf(stderr, "load failed: %s\n", err.msg);
    assert_non_null(k);
    return k;
}

static void refused(const char *text, const char *prefix, const char *needle)
{
    ws_error err = {{0}};
    ws_kernel *k = ws_ptx_parse(text, "c.ptx", NULL, &err);
    if (k) {
        ws_kernel_free(k);
        fail_msg("accepted, expected an error starting with %s", prefix);
    }
    if (strncmp(err.msg, prefix, strlen(prefix)) != 0) fail_msg("message '%s' does not start with '%s'", err.msg, prefix);
    if (needle && !strstr(err.msg, needle)) fail_msg("message '%s' does not mention '%s'", err.msg, needle);
    assert_null(strchr(err.msg, '\n'));
}

static uint32_t reg(const ws_kernel *k, const char *name)
{
    for (uint32_t i = 0; i < k->nregs; i++)
        if (!strcmp(k->reg_names[i], name)) return i;
    fail_msg("no register %s", name);
    return WS_NO_REG;
}

static int reads(const ws_inst *in, uint32_t r)
{
    for (int i = 0; i < in->n_rd; i++) if (in->rd[i] == r) return 1;
    return 0;
}

/* one .func adding its two parameters, called twice with different arguments */
static const char *add_twice =
    HDR                                                    /* 1-3 */
    ".func (.param .b32 ret) add(.param .b32 a, .param .b32 b)\n"  /* 4 */
    "{\n"                                                  /* 5 */
    "  .reg .b32 %r<4>;\n"                                 /* 6 */
    "  ld.param.u32 %r1, [a];\n"                           /* 7 */
    "  ld.param.u32 %r2, [b];\n"                           /* 8 */
    "  add.s32 %r3, %r1, %r2;\n"                           /* 9 */
    "  st.param.b32 [ret+0], %r3;\n"                       /* 10 */
    "  ret;\n"                                             /* 11 */
    "}\n"                                                  /* 12 */
    ".visible .entry k(.param .u64 out)\n"                 /* 13 */
    "{\n"                                                  /* 14 */
    "  .reg .b32 %r<4>;\n"                                 /* 15 */
    "  .reg .b64 %rd<2>;\n"                                /* 16 */
    "  { // callseq 0\n"                                   /* 17 */
    "  .param .b32 p0;\n"                                  /* 18 */
    "  st.param.b32 [p0+0], 1;\n"                          /* 19 */
    "  .param .b32 p1;\n"                                  /* 20 */
    "  st.param.b32 [p1+0], 2;\n"                          /* 21 */
    "  .param .b32 rv;\n"                                  /* 22 */
    "  call.uni (rv), add, (p0, p1);\n"                    /* 23 */
    "  ld.param.b32 %r1, [rv+0];\n"                        /* 24 */
    "  }\n"                                                /* 25 */
    "  {\n"                                                /* 26 */
    "  .param .b32 p0;\n"                                  /* 27 */
    "  st.param.b32 [p0+0], %r1;\n"                        /* 28 */
    "  .param .b32 p1;\n"                                  /* 29 */
    "  st.param.b32 [p1+0], 10;\n"                         /* 30 */
    "  .param .b32 rv;\n"                                  /* 31 */
    "  call (rv), \n  add, \n  (\n  p0, \n  p1\n  );\n"    /* 32-37 */
    "  ld.param.b32 %r2, [rv+0];\n"                        /* 38 */
    "  }\n"                                                /* 39 */
    "  ld.param.u64 %rd1, [out];\n"                        /* 40 */
    "  st.global.u32 [%rd1], %r2;\n"                       /* 41 */
    "  ret;\n"                                             /* 42 */
    "}\n";

static void test_add_twice(void **state)
{
    (void)state;
    ws_kernel *k = load(add_twice);
    /* slots: the callee's ret @0, a @4, b @8 (the call sites' p0/p1/rv share them) */
    assert_int_equal(k->local_bytes, 12);
    /* per copy: 2 stores of the arguments, 2 loads + add + store of the result in the
     * callee (its final ret dropped), 1 load of the result; then 3 instructions */
    assert_int_equal(k->ninsts, 2 + 4 + 1 + 2 + 4 + 1 + 3);
    static const struct { int op, space; int64_t addr; uint32_t line; } want[] = {
        {WS_OP_ST, WS_SP_LOCAL, 4, 19}, {WS_OP_ST, WS_SP_LOCAL, 8, 21},
        {WS_OP_LD, WS_SP_LOCAL, 4, 7}, {WS_OP_LD, WS_SP_LOCAL, 8, 8}, {WS_OP_ADD, 0, 0, 9},
        {WS_OP_ST, WS_SP_LOCAL, 0, 10}, {WS_OP_LD, WS_SP_LOCAL, 0, 24},
        {WS_OP_ST, WS_SP_LOCAL, 4, 28}, {WS_OP_ST, WS_SP_LOCAL, 8, 30},
        {WS_OP_LD, WS_SP_LOCAL, 4, 7}, {WS_OP_LD, WS_SP_LOCAL, 8, 8}, {WS_OP_ADD, 0, 0, 9},
        {WS_OP_ST, WS_SP_LOCAL, 0, 10}, {WS_OP_LD, WS_SP_LOCAL, 0, 38},
        {WS_OP_LD, WS_SP_PARAM, 0, 40}, {WS_OP_ST, WS_SP_GLOBAL, 0, 41}, {WS_OP_RET, 0, 0, 42},
    };
    for (uint32_t i = 0; i < k->ninsts; i++) {
        const ws_inst *in = &k->insts[i];
        if (in->op != want[i].op || in->line != want[i].line) fail_msg("inst %u: op %d line %u", i, in->op, in->line);
        if (want[i].space) assert_int_equal(in->space, want[i].space);
        if (want[i].space == WS_SP_LOCAL) {
            assert_int_equal(in->src[0].kind, WS_OK_ADDR);
            assert_int_equal(in->src[0].reg, WS_NO_REG);
            assert_int_equal(in->src[0].imm, want[i].addr);
            assert_int_equal(in->unit, WS_UNIT_MEM);
        }
    }
    /* kernel registers keep their numbers (%r0-3, %rd0-1), each copy gets 4 new ones */
    assert_int_equal(k->nregs, 6 + 2 * 4);
    assert_int_equal(reg(k, "%r1"), 1);
    uint32_t a1 = reg(k, "%r1@add#1"), b1 = reg(k, "%r2@add#1"), s1 = reg(k, "%r3@add#1");
    uint32_t a2 = reg(k, "%r1@add#2"), s2 = reg(k, "%r3@add#2");
    assert_true(a1 >= 6 && a2 >= 6 && a1 != a2 && s1 != s2);
    assert_int_equal(k->insts[2].dst[0].reg, a1);
    assert_int_equal(k->insts[4].dst[0].reg, s1);
    assert_true(reads(&k->insts[4], a1) && reads(&k->insts[4], b1));
    assert_int_equal(k->insts[4].n_wr, 1);
    assert_int_equal(k->insts[4].wr[0], s1);
    assert_true(reads(&k->insts[5], s1));
    assert_int_equal(k->insts[11].wr[0], s2);
    assert_true(reads(&k->insts[7], reg(k, "%r1")));    /* st [p0], %r1: the first result */
    assert_int_equal(k->insts[8].src[1].kind, WS_OK_IMM);
    assert_int_equal(k->insts[8].src[1].imm, 10);
    assert_int_equal(k->nblocks, 1);                    /* straight-line: nothing to branch over */
    char buf[160];
    ws_inst_format(k, &k->insts[4], buf, sizeof buf);
    assert_non_null(strstr(buf, "%r3@add#1"));
    ws_kernel_free(k);
}

/* nested calls; a function without a return value storing to global memory, with a
 * label and a guarded ret in the middle */
static const char *nested =
    HDR
    ".func store(.param .b64 p, .param .b32 v)\n"         /* 4 */
    "{\n"
    "  .reg .b32 %r<2>;\n  .reg .b64 %rd<2>;\n  .reg .pred %p<2>;\n"   /* 6-8 */
    "  ld.param.u64 %rd1, [p];\n"                          /* 9 */
    "  ld.param.u32 %r1, [v];\n"                           /* 10 */
    "  setp.eq.s32 %p1, %r1, 0;\n"                         /* 11 */
    "  @%p1 bra SKIP;\n"                                   /* 12 */
    "  st.global.u32 [%rd1], %r1;\n"                       /* 13 */
    "SKIP:\n"                                              /* 14 */
    "  @%p1 ret;\n"                                        /* 15 */
    "  st.global.u32 [%rd1+4], %r1;\n"                     /* 16 */
    "  ret;\n"
    "}\n"
    ".func outer(.param .b64 p)\n"
    "{\n"
    "  .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [p];\n"
    "  {\n  .param .b64 a0;\n  st.param.b64 [a0], %rd1;\n"
    "  .param .b32 a1;\n  st.param.b32 [a1], 7;\n"
    "  call.uni store, (a0, a1);\n  }\n"
    "  ret;\n"
    "}\n"
    ".entry k(.param .u64 out)\n"
    "{\n"
    "  .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  {\n  .param .b64 q;\n  st.param.b64 [q], %rd1;\n  call.uni outer, (q);\n  }\n"
    "  ret;\n"
    "}\n";

static void test_nested_void(void **state)
{
    (void)state;
    ws_kernel *k = load(nested);
    /* slots in decoding order: outer's p @0 (8 bytes), store's p @8, v @16 (4 bytes) */
    assert_int_equal(k->local_bytes, 20);
    static const int ops[] = {WS_OP_LD, WS_OP_ST,                                  /* entry */
                              WS_OP_LD, WS_OP_ST, WS_OP_ST,                        /* outer */
                              WS_OP_LD, WS_OP_LD, WS_OP_SETP, WS_OP_BRA, WS_OP_ST, WS_OP_BRA, WS_OP_ST, /* store */
                              WS_OP_RET};
    assert_int_equal(k->ninsts, sizeof ops / sizeof ops[0]);
    for (uint32_t i = 0; i < k->ninsts; i++)
        if (k->insts[i].op != ops[i]) fail_msg("inst %u: op %d, expected %d", i, k->insts[i].op, ops[i]);
    assert_int_equal(k->insts[1].src[0].imm, 0);     /* st [q] = outer's p */
    assert_int_equal(k->insts[2].src[0].imm, 0);
    assert_int_equal(k->insts[3].src[0].imm, 8);     /* st [a0] = store's p */
    assert_int_equal(k->insts[4].src[0].imm, 16);    /* st [a1] = store's v */
    assert_int_equal(k->insts[5].src[0].imm, 8);
    assert_int_equal(k->insts[6].src[0].imm, 16);
    /* bra SKIP: the copy's own label; @%p1 ret: a guarded branch (not .uni) past the copy */
    assert_int_equal(k->insts[8].target, 10);
    assert_int_equal(k->insts[8].src[0].imm, 10);
    assert_int_equal(k->insts[10].line, 15);
    assert_int_equal(k->insts[10].target, 12);
    assert_int_equal(k->insts[10].src[0].kind, WS_OK_LABEL);
    assert_int_equal(k->insts[10].guard, reg(k, "%p1@store#1"));
    assert_int_equal(k->insts[10].mods & WS_MOD_UNI, 0);
    assert_int_equal(k->insts[10].unit, WS_UNIT_CTRL);
    assert_int_equal(k->insts[11].src[0].reg, reg(k, "%rd1@store#1"));
    assert_int_equal(k->insts[11].src[0].imm, 4);
    assert_true(reads(&k->insts[3], reg(k, "%rd1@outer#1")));
    ws_kernel_free(k);
}

/* a ret in the middle of a callee (unguarded): bra.uni to the instruction after the call;
 * a loop around the call keeps its back edge to the copy's first instruction */
static void test_ret_and_loop(void **state)
{
    (void)state;
    ws_kernel *k = load(HDR
        ".func f()\n{\n  .reg .b32 %r<2>;\n  mov.u32 %r1, 1;\n  ret;\n  mov.u32 %r1, 2;\n  ret;\n}\n"
        ".entry k()\n{\n  .reg .pred %p<2>;\n  .reg .b32 %r<2>;\n"
        "L:\n  call.uni f;\n  add.s32 %r1, %r1, 1;\n  setp.lt.s32 %p1, %r1, 4;\n  @%p1 bra L;\n  ret;\n}\n");
    /* 0 mov, 1 bra.uni 3 (the first ret), 2 mov (dead), [final ret dropped] 3 add, 4 setp, 5 bra 0, 6 ret */
    assert_int_equal(k->ninsts, 7);
    assert_int_equal(k->insts[1].op, WS_OP_BRA);
    assert_int_equal(k->insts[1].target, 3);
    assert_true(k->insts[1].mods & WS_MOD_UNI);
    assert_int_equal(k->insts[5].op, WS_OP_BRA);
    assert_int_equal(k->insts[5].target, 0);
    assert_true(k->insts[5].is_backedge);
    ws_kernel_free(k);
}

static void test_refused(void **state)
{
    (void)state;
    /* mutual recursion: found at the call that closes the cycle (g's call of f, line 13) */
    refused(HDR
            ".func f(.param .b32 a)\n{\n  {\n  .param .b32 b;\n  st.param.b32 [b], 1;\n  call.uni g, (b);\n  }\n  ret;\n}\n"
            ".func g(.param .b32 a)\n{\n  {\n  .param .b32 b;\n  st.param.b32 [b], 1;\n  call.uni f, (b);\n  }\n  ret;\n}\n"
            ".entry k()\n{\n  {\n  .param .b32 c;\n  st.param.b32 [c], 0;\n  call.uni f, (c);\n  }\n  ret;\n}\n",
            "c.ptx:18:3: ", "recursive call to 'f' (f -> g -> f)");
    /* direct recursion */
    refused(HDR ".func f()\n{\n  call.uni f;\n  ret;\n}\n.entry k()\n{\n  call.uni f;\n  ret;\n}\n",
            "c.ptx:6:3: ", "recursive call to 'f' (f -> f)");
    /* a call to an .extern function (printf's vprintf) */
    refused(HDR ".extern .func (.param .b32 r) vprintf(.param .b64 a, .param .b64 b);\n"
            ".entry k()\n{\n  {\n  .param .b64 a;\n  .param .b64 b;\n  .param .b32 r;\n"
            "  call.uni (r), vprintf, (a, b);\n  }\n  ret;\n}\n",
            "c.ptx:11:17: ", "'vprintf'");
    /* an unreachable function is not decoded (its f16 is never looked at) */
    ws_kernel *k = load(HDR ".func u()\n{\n  .reg .f16 %h;\n  ret;\n}\n.entry k()\n{\n  ret;\n}\n");
    assert_int_equal(k->ninsts, 1);
    ws_kernel_free(k);
}

/* a 16-byte struct argument and return value as .param byte arrays, read and written with
 * vector ld/st.param (sm_100 nvcc's form); a vector-typed .param variable (.param .v4 .f32,
 * which ptxas refuses: "cannot be allocated in .param state space") is refused with its
 * position */
static void test_param_arrays(void **state)
{
    (void)state;
    ws_kernel *k = load(HDR
        ".func (.param .align 16 .b8 rv[16]) f(.param .align 16 .b8 x[16], .param .b32 s)\n{\n"
        "  .reg .f32 %f<6>;\n  ld.param.v4.f32 {%f1, %f2, %f3, %f4}, [x];\n  ld.param.f32 %f5, [s];\n"
        "  st.param.v4.f32 [rv], {%f5, %f4, %f3, %f2};\n  ret;\n}\n"
        ".entry k()\n{\n  .reg .f32 %f<5>;\n  {\n  .param .align 16 .b8 p[16];\n"
        "  st.param.v4.f32 [p], {%f1, %f2, %f3, %f4};\n  .param .b32 q;\n  st.param.f32 [q], %f1;\n"
        "  .param .align 16 .b8 r[16];\n  call.uni (r), f, (p, q);\n"
        "  ld.param.v4.f32 {%f1, %f2, %f3, %f4}, [r+0];\n  }\n  ret;\n}\n");
    /* st p, st q, [callee: ld x, ld s, st rv; final ret dropped], ld r, ret */
    assert_int_equal(k->ninsts, 7);
    const ws_inst *st = &k->insts[0], *ldx = &k->insts[2], *strv = &k->insts[4], *ldr = &k->insts[5];
    assert_int_equal(st->src[0].kind, WS_OK_ADDR);      /* st: src[0] the address, src[1] the values */
    assert_int_equal(ldx->dst[0].kind, WS_OK_VEC);
    assert_int_equal(ldx->dst[0].nvec, 4);
    assert_int_equal(strv->src[1].kind, WS_OK_VEC);
    /* the argument and the return value are the callee's slots: st [p] and ld [x] alike,
     * st [rv] and ld [r] alike, 16-byte aligned */
    assert_int_equal(st->src[0].imm, ldx->src[0].imm);
    assert_int_equal(strv->src[0].imm, ldr->src[0].imm);
    assert_int_equal(ldx->src[0].imm % 16, 0);
    assert_int_equal(strv->src[0].imm % 16, 0);
    ws_kernel_free(k);
    refused(HDR ".func (.param .v4 .f32 rv) f()\n{\n  ret;\n}\n"
            ".entry k()\n{\n  {\n  .param .align 16 .b8 r[16];\n  call.uni (r), f;\n  }\n  ret;\n}\n",
            "c.ptx:4:15: ", "'.v4'");
}

/* f1..f6, each calling the previous 8 times: 8^6 = 262144 copies of f0's instruction */
static void test_size_cap(void **state)
{
    (void)state;
    size_t cap = 1 << 16, o = 0;
    char *t = malloc(cap);
    o += (size_t)snprintf(t + o, cap - o, HDR ".func f0()\n{\n  .reg .b32 %%r<2>;\n  mov.u32 %%r1, 1;\n  ret;\n}\n");
    for (int f = 1; f <= 6; f++) {
        o += (size_t)snprintf(t + o, cap - o, ".func f%d()\n{\n", f);
        for (int c = 0; c < 8; c++) o += (size_t)snprintf(t + o, cap - o, "  call.uni f%d;\n", f - 1);
        o += (size_t)snprintf(t + o, cap - o, "  ret;\n}\n");
    }
    o += (size_t)snprintf(t + o, cap - o, ".entry k()\n{\n  call.uni f6;\n  ret;\n}\n");
    refused(t, "c.ptx:", "longer than 200000 instructions");
    free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_add_twice),
        cmocka_unit_test(test_nested_void),
        cmocka_unit_test(test_ret_and_loop),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_param_arrays),
        cmocka_unit_test(test_size_cap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
