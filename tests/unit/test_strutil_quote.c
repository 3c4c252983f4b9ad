/* ws_quote and ws_printable_name (src/util/strutil.c): the escapes and the
 * elision of long values, against expectations written out by hand (a cap of
 * 16 leaves 13 characters inside the quotes; an elided value keeps 5 + 5 of
 * them around "..."). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "warpsweep/strutil.h"

static const char *q(const char *s, size_t len, size_t cap)
{
    static char out[256];
    return ws_quote(out, cap, s, len);
}

static void test_escapes(void **state)
{
    (void)state;
    assert_string_equal(q("abc", 3, 64), "'abc'");
    assert_string_equal(q("", 0, 64), "''");
    assert_string_equal(q("a\nb", 3, 64), "'a\\nb'");
    assert_string_equal(q("\t\r", 2, 64), "'\\t\\r'");
    assert_string_equal(q("it's", 4, 64), "'it\\'s'");
    assert_string_equal(q("a\\b", 3, 64), "'a\\\\b'");
    assert_string_equal(q("\x01\x7f\xff", 3, 64), "'\\x01\\x7f\\xff'");
    assert_string_equal(q("a\0b", 3, 64), "'a\\x00b'");   /* a NUL does not end the value */
    assert_string_equal(q("\x1b[2J", 4, 64), "'\\x1b[2J'"); /* a terminal escape is shown, not obeyed */
}

static void test_elision(void **state)
{
    (void)state;
    assert_string_equal(q("abcdefghijklm", 13, 16), "'abcdefghijklm'");   /* 13 fit exactly */
    assert_string_equal(q("abcdefghijklmn", 14, 16), "'abcde...jklmn'");  /* 14 do not */
    assert_string_equal(q("0123456789abcdefghij", 20, 16), "'01234...fghij'");
    assert_int_equal(strlen(q("0123456789abcdefghij", 20, 16)), 15);
    /* escapes are never cut: the head stops at 4 of its 5 ("\n\n", then a third "\n" would make 6) */
    assert_string_equal(q("\n\n\nxxxxxxxxxxxxxxxxxxxx\n\n", 25, 16), "'\\n\\n...x\\n\\n'");
    /* a long value in a larger buffer: 40 inside the quotes, 19 + 18 around "..." */
    char big[100];
    memset(big, 'a', sizeof big);
    memcpy(big, "START", 5);
    memcpy(big + 95, "END!!", 5);
    const char *r = q(big, sizeof big, 43);
    assert_int_equal(strlen(r), 42);
    assert_memory_equal(r, "'START", 6);
    assert_memory_equal(r + 20, "...", 3);
    assert_string_equal(r + strlen(r) - 6, "END!!'");
}

static void test_printable_name(void **state)
{
    (void)state;
    char buf[64];
    const char *plain = "dir/x.npy";
    assert_ptr_equal(ws_printable_name(buf, sizeof buf, plain), plain);
    assert_string_equal(ws_printable_name(buf, sizeof buf, "a\nb.npy"), "'a\\nb.npy'");
    assert_string_equal(ws_printable_name(buf, sizeof buf, "x'y"), "'x\\'y'");
    assert_string_equal(ws_printable_name(buf, 16, "a/very/long/directory/x.npy"), "'a/ver...x.npy'");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_escapes),
        cmocka_unit_test(test_elision),
        cmocka_unit_test(test_printable_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
