/* One-line error messages (src/util/error.c, issue 46 item 12): control bytes
 * escaped, a long value elided in its middle so that the reason after it
 * stays, short messages as formatted. Expected strings written by hand. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "warpsweep/error.h"

static void test_short_unchanged(void **state)
{
    (void)state;
    ws_error e;
    ws_fail(&e, "%s: '%s' is not a number", "w.yaml", "12x");
    assert_string_equal(e.msg, "w.yaml: '12x' is not a number");
    ws_fail_at(&e, "s.yaml", 4, 11, "parameter %s: %d", "warps", 3);
    assert_string_equal(e.msg, "s.yaml:4:11: parameter warps: 3");
    assert_int_equal(ws_fail(NULL, "x"), -1);
}

static void test_controls_escaped(void **state)
{
    (void)state;
    ws_error e;
    ws_fail_at(&e, "w.yaml", 6, 10, "'%s': unknown variable 'blok'", "=blok +\n32\t\r\x01\x7f");
    assert_string_equal(e.msg, "w.yaml:6:10: '=blok +\\n32\\t\\r\\x01\\x7f': unknown variable 'blok'");
    assert_null(strchr(e.msg, '\n'));
    /* UTF-8 stays as it is */
    ws_fail(&e, "'%s'", "caf\xc3\xa9");
    assert_string_equal(e.msg, "'caf\xc3\xa9'");
}

static void test_long_value_keeps_reason(void **state)
{
    (void)state;
    char value[2000];
    memset(value, 'x', sizeof value - 1);
    value[0] = 'A';
    value[sizeof value - 2] = 'Z';
    value[sizeof value - 1] = 0;
    ws_error e;
    ws_fail_at(&e, "s.yaml", 4, 11, "parameter warps: '%s' is not an integer", value);
    size_t n = strlen(e.msg);
    /* 511 bytes exactly: the whole line fits WS_ERROR_LEN with its NUL */
    assert_int_equal(n, WS_ERROR_LEN - 1);
    const char *start = "s.yaml:4:11: parameter warps: 'Axxx", *end = "xxxZ' is not an integer";
    assert_memory_equal(e.msg, start, strlen(start));
    assert_string_equal(e.msg + n - strlen(end), end);
    assert_non_null(strstr(e.msg, "x...x"));
    /* two values: the longer one is elided, the short one kept whole */
    ws_fail(&e, "'%s' and '%s': no", "short", value);
    assert_memory_equal(e.msg, "'short' and 'Axx", 16);
    assert_string_equal(e.msg + strlen(e.msg) - 6, "Z': no");
    /* no quoted value long enough: the middle of the message */
    ws_fail(&e, "%s end", value);
    assert_int_equal(strlen(e.msg), WS_ERROR_LEN - 1);
    assert_int_equal(e.msg[0], 'A');
    assert_string_equal(e.msg + strlen(e.msg) - 5, "Z end");
}

static void test_self_reference(void **state)
{
    (void)state;
    ws_error e;
    ws_fail(&e, "inner '%s'", "v");
    ws_fail(&e, "outer: %s", e.msg);   /* the argument aliases the result */
    assert_string_equal(e.msg, "outer: inner 'v'");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_short_unchanged),
        cmocka_unit_test(test_controls_escaped),
        cmocka_unit_test(test_long_value_keeps_reason),
        cmocka_unit_test(test_self_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
