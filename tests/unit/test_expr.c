/* Derived-value expressions: precedence, functions, names, errors.
 * Expected values are ordinary arithmetic worked out by hand. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "warpsweep/sweep.h"

static double ev(const char *text, const double *vars)
{
    int off = -1;
    ws_error err;
    ws_expr *e = ws_expr_compile(text, &off, &err);
    if (!e) {
        print_error("compile '%s' failed at %d: %s\n", text, off, err.msg);
        fail();
    }
    double r = ws_expr_eval(e, vars);
    ws_expr_free(e);
    return r;
}

static double vars0[WS_NVARS];

static void test_precedence(void **state)
{
    (void)state;
    assert_true(ev("1 + 2 * 3", vars0) == 7);
    assert_true(ev("(1 + 2) * 3", vars0) == 9);
    assert_true(ev("10 - 4 - 3", vars0) == 3);       /* left associative */
    assert_true(ev("64 / 4 / 2", vars0) == 8);
    assert_true(ev("7 % 4 * 2", vars0) == 6);        /* same level as * */
    assert_true(ev("-2 * 3", vars0) == -6);
    assert_true(ev("2 - -3", vars0) == 5);
    assert_true(ev("-(2 + 3) * 2", vars0) == -10);
    assert_true(ev("1 + +2", vars0) == 3);
    assert_true(ev("7 / 2", vars0) == 3.5);           /* real division */
    assert_true(ev("2.5e1 + .5", vars0) == 25.5);
}

static void test_functions(void **state)
{
    (void)state;
    assert_true(ev("min(3, 8)", vars0) == 3);
    assert_true(ev("max(3, 8)", vars0) == 8);
    assert_true(ev("ceil(2.1)", vars0) == 3);
    assert_true(ev("floor(2.9)", vars0) == 2);
    assert_true(ev("log2(1024)", vars0) == 10);
    assert_true(ev("pow2(5)", vars0) == 32);
    assert_true(ev("pow2(ceil(log2(48)))", vars0) == 64);
    assert_true(ev("max(min(1, 2), 3 * 2) + 1", vars0) == 7);
    assert_true(isnan(ev("5 % 0", vars0)));
    assert_true(isinf(ev("1 / 0", vars0)));
}

static void test_names(void **state)
{
    (void)state;
    double v[WS_NVARS] = {0};
    v[ws_param_find("warps")] = 8;
    v[ws_param_find("warp_size")] = 32;
    v[WS_VAR_REGS_PER_THREAD] = 10;
    v[WS_VAR_THREADS_PER_CTA] = 128;
    v[WS_VAR_CTAS] = 4;
    /* 8 * 32 * 10 * 4 / 1024 = 10 */
    assert_true(ev("warps * warp_size * regs_per_thread * 4 / 1024", v) == 10);
    assert_true(ev("threads_per_cta / warp_size * ctas", v) == 16);
    int off;
    ws_error err;
    ws_expr *e = ws_expr_compile("warps + 2 * warp_size", &off, &err);
    assert_non_null(e);
    assert_true(ws_expr_uses(e, ws_param_find("warps")));
    assert_true(ws_expr_uses(e, ws_param_find("warp_size")));
    assert_false(ws_expr_uses(e, ws_param_find("cores")));
    assert_int_equal(ws_expr_use_offset(e, ws_param_find("warp_size")), 12);
    ws_expr_free(e);
}

static void expect_error(const char *text, int offset, const char *needle)
{
    int off = -1;
    ws_error err = {{0}};
    ws_expr *e = ws_expr_compile(text, &off, &err);
    assert_null(e);
    if (off != offset || !strstr(err.msg, needle)) {
        print_error("'%s': offset %d message '%s' (want %d, '%s')\n", text, off, err.msg, offset, needle);
        fail();
    }
}

static void test_errors(void **state)
{
    (void)state;
    expect_error("warpz * 2", 0, "unknown name 'warpz' in expression (did you mean 'warps'?)");
    expect_error("2 * regs_per_thred", 4, "did you mean 'regs_per_thread'");
    expect_error("(1 + 2", 6, "expected ')'");
    expect_error("1 + 2)", 5, "unbalanced ')'");
    expect_error("1 +", 3, "unexpected end");
    expect_error("sqrt(4)", 0, "unknown function 'sqrt'");
    expect_error("min(1)", 5, "min() takes two arguments");
    expect_error("ceil(1, 2)", 6, "ceil() takes one argument");
    expect_error("2 $ 3", 2, "unexpected text");
    expect_error("scheduler + 1", 0, "choice parameter 'scheduler'");
}

/* Hostile input: nesting deep enough to overflow the stack of a recursive
 * parser is refused at a fixed depth (256); 254 levels still compile; an
 * out-of-range literal is an error at its position, not a silent inf. */
static void test_limits(void **state)
{
    (void)state;
    static char buf[300000];
    size_t n = 0;
    for (int i = 0; i < 100000; i++) buf[n++] = '(';
    buf[n++] = '1';
    for (int i = 0; i < 100000; i++) buf[n++] = ')';
    buf[n] = 0;
    expect_error(buf, 256, "nested more than 256 levels deep");
    n = 0;
    for (int i = 0; i < 200000; i++) buf[n++] = '-';
    buf[n++] = '1';
    buf[n] = 0;
    expect_error(buf, 256, "nested more than 256 levels deep");
    n = 0;
    for (int i = 0; i < 254; i++) buf[n++] = '(';
    buf[n++] = '2';
    for (int i = 0; i < 254; i++) buf[n++] = ')';
    buf[n] = 0;
    assert_true(ev(buf, vars0) == 2);
    n = 0;   /* 20000 terms in a flat sum: no nesting, no limit */
    for (int i = 0; i < 20000; i++) { if (i) buf[n++] = '+'; buf[n++] = '1'; }
    buf[n] = 0;
    assert_true(ev(buf, vars0) == 20000);
    expect_error("2 * 1e309", 4, "number out of range");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_precedence),
        cmocka_unit_test(test_functions),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
