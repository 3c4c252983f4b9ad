/*
 * PTX front end: what is refused, and where. Each case asserts the exact
 * "file:line:col: " prefix (line and column counted by hand in the snippet,
 * 1-based; HDR is lines 1-3) and that the message names the token.
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

static void refused(const char *text, const char *prefix, const char *needle)
{
    ws_error err = {{0}};
    ws_kernel *k = ws_ptx_decode(text, "e.ptx", NULL, &err);
    if (k) {
        ws_kernel_free(k);
        fail_msg("accepted, expected an error starting with %s", prefix);
    }
    if (strncmp(err.msg, prefix, strlen(prefix)) != 0)
        fail_msg("message '%s' does not start with '%s'", err.msg, prefix);
    if (needle && !strstr(err.msg, needle)) fail_msg("message '%s' does not mention '%s'", err.msg, needle);
    assert_null(strchr(err.msg, '\n'));
}

#define BODY(lines) HDR ".entry k() {\n  .reg .pred %p<2>;\n  .reg .b32 %r<2>;\n" lines "  ret;\n}\n"
/* BODY: line 4 ".entry", 5 .pred, 6 .b32, the snippet starts on line 7 */

static void test_unknown_instruction(void **state)
{
    (void)state;
    /* texture objects are supported (src/exec/exec_tex.c); a .texref name is not */
    refused(BODY("  tex.1d.v4.s32.f32 %r0, [t, {%r1}];\n"), "e.ptx:7:27: ", ".texref");
    refused(BODY("  frobnicate %r0;\n"), "e.ptx:7:3: ", "'frobnicate'");
}

static void test_syntax_error(void **state)
{
    (void)state;
    /* missing comma: error at the second register, column 15 */
    refused(BODY("  add.s32 %r0 %r1, 1;\n"), "e.ptx:7:15: ", "'%r1'");
    /* missing ';' before the next line's instruction */
    refused(BODY("  mov.u32 %r0, 1\n  ret;\n"), "e.ptx:8:3: ", "'ret'");
    /* stray character */
    refused(BODY("  mov.u32 %r0, #1;\n"), "e.ptx:7:16: ", "'#'");
    /* unterminated body */
    refused(HDR ".entry k() {\n  ret;\n", "e.ptx:4:1: ", "missing '}'");
    /* malformed float literal */
    refused(BODY("  mov.b32 %r0, 0f3F80;\n"), "e.ptx:7:16: ", "0f3F80");
}

static void test_undefined_names(void **state)
{
    (void)state;
    refused(BODY("  mov.u32 %r0, %r7;\n"), "e.ptx:7:16: ", "undefined register '%r7'");
    refused(BODY("  @%p5 bra L;\nL:\n"), "e.ptx:7:4: ", "'%p5'");
    refused(BODY("  bra NOWHERE;\n"), "e.ptx:7:7: ", "undefined label 'NOWHERE'");
    refused(BODY("  mov.u32 %r0, nosuch;\n"), "e.ptx:7:16: ", "undefined symbol 'nosuch'");
    refused(BODY("  mov.u32 %r0, %envreg3;\n"), "e.ptx:7:16: ", "not supported");
    refused(BODY("  .reg .b32 %r1;\n"), "e.ptx:7:13: ", "declared twice");
}

static void test_half_types(void **state)
{
    (void)state;
    /* f16/bf16 and the packed pairs are supported (test_exec_half.c); tf32 and fp8 are not */
    refused(BODY("  .reg .tf32 %h<2>;\n"), "e.ptx:7:8: ", "'.tf32'");
    refused(BODY("  cvt.rn.tf32.f32 %r0, %r1;\n"), "e.ptx:7:9: ", "'.tf32'");
    refused(BODY("  cvt.rn.satfinite.e5m2x2.f32 %r0, %r1, %r1;\n"), "e.ptx:7:19: ", "'.e5m2x2'");
    refused(BODY("  rcp.approx.f16 %r0, %r1;\n"), "e.ptx:7:3: ", "'rcp' is not supported on .f16");
}

static void test_calls(void **state)
{
    (void)state;
    /* calls to functions defined in the module are inlined (test_ptx_call.c); refused:
     * undefined and .extern functions, indirect calls, recursion, non-.param arguments */
    refused(BODY("  call.uni foo, (%r0);\n"), "e.ptx:7:12: ", "undefined function 'foo'");
    refused(HDR ".extern .func (.param .b32 r) vprintf (.param .b64 a, .param .b64 b);\n"
            ".entry k() {\n  .reg .b32 %r<2>;\n  {\n  .param .b64 p0;\n  .param .b64 p1;\n  .param .b32 rv;\n"
            "  call.uni (rv), vprintf, (p0, p1);\n  }\n  ret;\n}\n",
            "e.ptx:11:18: ", "'vprintf', which is declared but not defined in this module");
    refused(HDR ".func f(.param .b32 a) { ret; }\n.entry k() {\n  .reg .b32 %r<2>;\n  .reg .b64 %rd<2>;\n"
            "  call.uni %rd1, (%r1);\n  ret;\n}\n", "e.ptx:8:12: ", "indirect calls");
    refused(HDR ".entry k() {\n  .reg .b64 %rd<2>;\n  proto: .callprototype ()_ (.param .b32 _);\n  ret;\n}\n",
            "e.ptx:6:10: ", "indirect calls");
    refused(HDR ".func f(.param .b32 a) { ret; }\n.entry k() {\n  .reg .b32 %r<2>;\n  call.uni f, (%r1);\n  ret;\n}\n",
            "e.ptx:7:3: ", "argument 1 of the call to 'f' is a register or immediate, but the function declares it .param");
    refused(HDR ".func f(.param .b32 a) { ret; }\n.entry k() {\n  .reg .pred %p<2>;\n  {\n  .param .b32 q;\n"
            "  @%p1 call.uni f, (q);\n  }\n  ret;\n}\n", "e.ptx:9:3: ", "guarded calls");
    refused(HDR ".func f(.param .b32 a) { ret; }\n.entry k() {\n  {\n  .param .b64 q;\n"
            "  call.uni f, (q);\n  }\n  ret;\n}\n", "e.ptx:8:3: ", "'q' is 8 bytes but parameter 'a' of 'f' is 4");
    refused(HDR ".func f(.param .b32 a) { ret; }\n.entry k() {\n  call.uni f;\n  ret;\n}\n", "e.ptx:6:3: ",
            "call passes 0 arguments and 0 return values, 'f' takes 1 and 0");
    refused(BODY("  st.param.b32 [x], %r0;\n"), "e.ptx:7:17: ", "undefined symbol 'x'");
    refused(HDR ".entry k(.param .u32 x) {\n  .reg .b32 %r<2>;\n  st.param.b32 [x], %r0;\n  ret;\n}\n", "e.ptx:6:3: ",
            "kernel parameters are read-only");
    /* address initialisers: unknown name, too narrow an element, a .shared target */
    refused(HDR ".global .u64 p = generic(nosuch);\n.entry k() { ret; }\n", "e.ptx:4:26: ", "'nosuch'");
    refused(HDR ".global .u32 a;\n.global .u8 b = a;\n.entry k() { ret; }\n", "e.ptx:5:17: ", "'a'");
    refused(HDR ".shared .u32 s;\n.global .u64 p = s;\n.entry k() { ret; }\n", "e.ptx:5:18: ", ".shared");
}

static void test_modifiers_and_operands(void **state)
{
    (void)state;
    refused(BODY("  add.foo.s32 %r0, %r0, %r1;\n"), "e.ptx:7:6: ", "'.foo'");
    refused(BODY("  add.s32 %r0, %r1;\n"), "e.ptx:7:3: ", "takes 3 operands, got 2");
    refused(BODY("  mul.s32 %r0, %r0, %r1;\n"), "e.ptx:7:3: ", ".lo, .hi or .wide");
    refused(BODY("  setp.s32 %p0, %r0, %r1;\n"), "e.ptx:7:3: ", "comparison");
    refused(BODY("  add.s32 %r0, %r0;, %r1;\n"), "e.ptx:7:3: ", "takes 3 operands");
    refused(BODY("  ld.global.v2.u32 %r0, [%r1];\n"), "e.ptx:7:3: ", "vector");
    refused(BODY("  add.s32 %r0, [%r1], 1;\n"), "e.ptx:7:16: ", "memory operand");
    refused(BODY("  selp.b32 %r0, %r0, %r1, %r1;\n"), "e.ptx:7:27: ", ".pred");
    refused(BODY("  add.s32 %r0, %r0, 1.5;\n"), "e.ptx:7:21: ", "'1.5'");
    refused(BODY("  shfl.down.b32 %r0, %r0, 1, 31;\n"), "e.ptx:7:3: ", ".sync");
}

static void test_load_missing_file(void **state)
{
    (void)state;
    ws_error err = {{0}};
    assert_null(ws_ptx_load("/nonexistent/dir/k.ptx", NULL, &err));
    assert_non_null(strstr(err.msg, "/nonexistent/dir/k.ptx"));
    assert_null(ws_ptx_decode(HDR, "e.ptx", NULL, &err));
    assert_non_null(strstr(err.msg, "no .entry"));
}

/* never crash: every prefix of a valid kernel either decodes or is refused */
static void test_truncations(void **state)
{
    (void)state;
    const char *full = HDR
        ".global .align 4 .u32 tab[2] = {1, 2};\n"
        ".visible .entry k(.param .u64 p, .param .u32 n)\n{\n"
        "  .reg .pred %p<2>;\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<3>;\n  .reg .f32 %f<2>;\n"
        "  .shared .align 4 .b8 s[64];\n"
        "  ld.param.u64 %rd1, [p];\n  ld.param.u32 %r1, [n];\n  mov.u32 %r2, %tid.x;\n"
        "  setp.ge.u32 %p1, %r2, %r1;\n  @%p1 bra $L_end;\n"
        "  cvta.to.global.u64 %rd2, %rd1;\n  mul.wide.u32 %rd1, %r2, 4;\n  add.s64 %rd2, %rd2, %rd1;\n"
        "  ld.global.f32 %f1, [%rd2];\n  add.f32 %f1, %f1, 0f3F800000;\n  st.global.f32 [%rd2+0], %f1;\n"
        "  st.shared.u32 [s+4], %r2;\n  bar.sync 0;\n"
        "$L_end:\n  ret;\n}\n";
    size_t n = strlen(full);
    char *buf = malloc(n + 1);
    assert_non_null(buf);
    int ok = 0;
    for (size_t len = 0; len <= n; len++) {
        memcpy(buf, full, len);
        buf[len] = 0;
        ws_error err = {{0}};
        ws_kernel *k = ws_ptx_decode(buf, "t.ptx", NULL, &err);
        if (k) { ok++; ws_kernel_free(k); }
        else assert_true(err.msg[0] != 0);
    }
    assert_true(ok >= 1);   /* at least the whole text */
    free(buf);
}

/* 100000 nested { } blocks: an error, not a stack overflow of the recursive
 * body parser; 255 blocks nested in the body still parse. */
static void test_deep_blocks(void **state)
{
    (void)state;
    size_t depth = 100000, n = 0;
    char *buf = malloc(2 * depth + 64);
    assert_non_null(buf);
    n += (size_t)sprintf(buf, HDR ".entry k()\n");
    for (size_t i = 0; i < depth; i++) buf[n++] = '{';
    for (size_t i = 0; i < depth; i++) buf[n++] = '}';
    buf[n] = 0;
    /* line 5: the body's own '{' at column 1, nested blocks 1..255 at columns 2..256, the next refused */
    refused(buf, "e.ptx:5:257: ", "blocks nested more than 256 deep");
    n = (size_t)sprintf(buf, HDR ".entry k()\n");
    for (size_t i = 0; i < 256; i++) buf[n++] = '{';
    n += (size_t)sprintf(buf + n, "ret;");
    for (size_t i = 0; i < 256; i++) buf[n++] = '}';
    buf[n] = 0;
    ws_error err = {{0}};
    ws_kernel *k = ws_ptx_decode(buf, "e.ptx", NULL, &err);
    if (!k) fail_msg("255 nested blocks refused: %s", err.msg);
    ws_kernel_free(k);
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unknown_instruction),
        cmocka_unit_test(test_syntax_error),
        cmocka_unit_test(test_undefined_names),
        cmocka_unit_test(test_half_types),
        cmocka_unit_test(test_calls),
        cmocka_unit_test(test_modifiers_and_operands),
        cmocka_unit_test(test_load_missing_file),
        cmocka_unit_test(test_truncations),
        cmocka_unit_test(test_deep_blocks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
