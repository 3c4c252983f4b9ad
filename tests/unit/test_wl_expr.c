/* Workload-variable expressions (src/workload/wl_expr.c): values by hand,
 * error messages and their offsets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "warpsweep/workload.h"

static const ws_wl_var vars[] = {{"n", 1000}, {"block", 256}, {"k_2", 3}};

static double ok(const char *e)
{
    double v = -1;
    int off;
    char err[200];
    if (ws_wl_expr_eval(e, vars, 3, &v, &off, err, sizeof err)) fail_msg("'%s': %s", e, err);
    return v;
}

static void bad(const char *e, const char *msg, int want_off)
{
    double v;
    int off;
    char err[200];
    assert_int_equal(ws_wl_expr_eval(e, vars, 3, &v, &off, err, sizeof err), -1);
    if (!strstr(err, msg)) fail_msg("'%s': '%s' lacks '%s'", e, err, msg);
    assert_int_equal(off, want_off);
}

static void test_values(void **state)
{
    (void)state;
    assert_true(ok("cdiv(n, block)") == 4);           /* 1000 / 256 = 3.9 -> 4 */
    assert_true(ok("cdiv(1024, block)") == 4);
    assert_true(ok("n % 7") == 6);                     /* 1000 = 142 * 7 + 6 */
    assert_true(ok("-(2 + k_2) * 4") == -20);
    assert_true(ok("2 + 3 * 4 - 6 / 2") == 11);
    assert_true(ok("min(n, block) + max(1, k_2)") == 259);
    assert_true(ok("floor(n / 3) + ceil(0.1)") == 334);
    assert_true(ok("  block  ") == 256);
    assert_true(ok("1.5e3") == 1500);
}

static void test_errors(void **state)
{
    (void)state;
    bad("cdiv(n, blok)", "unknown variable 'blok'", 8);
    bad("block / 0", "division by zero", 6);
    bad("n % 0", "remainder by zero", 2);
    bad("n % 2.5", "% needs integers", 7);
    bad("block)", "unexpected text after the expression", 5);
    bad("(block", "expected ')'", 6);
    bad("sqrt(4)", "unknown function", 7);
    bad("min(1)", "unknown function or wrong argument count", 6);
    bad("", "the expression ends too early", 0);
    bad("cdiv(1, 0)", "cdiv by zero", 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
