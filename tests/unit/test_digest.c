/* XXH64 (src/util/digest.c) against an independent model of the xxHash
 * specification (tests/unit/xxh64_model.py prints the table) and values
 * published with xxHash's Python binding ('a', 'abc', 'xxhash' seeded). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "warpsweep/digest.h"

static const struct { size_t len; uint64_t seed, want; } vectors[] = {
    /* input byte i = (i * 7 + 3) mod 256; every branch: tails of 1, 4 and 8 bytes, whole stripes */
    {0, 0, 0xef46db3751d8e999ull},   /* the specification's example value */
    {1, 0, 0x1f25c8d0bc1f4bb6ull},
    {3, 0, 0x31d2363f52e564c9ull},
    {4, 0, 0x9bb64b7d66ee9fdaull},
    {7, 0, 0x9a7b149959ce60d8ull},
    {8, 0, 0xdab99d95c6f90092ull},
    {31, 0, 0xa2aa5f33cc4a6119ull},
    {32, 0, 0x23c3c17ef790fd97ull},
    {33, 0, 0x50a7cfc7ba588784ull},
    {63, 0, 0x5e3e54b431c7493cull},
    {64, 0, 0x0eb64b3ef6eeb01full},
    {100, 0, 0xa61f8d4c170fe531ull},
    {1000, 0, 0x5f235fa033f1a3fbull},
    {100, 0x1ull, 0x8d8957e68f02c7ceull},
    {100, 0x9e3779b185ebca87ull, 0x9869d9ef85051be9ull},
};

static void test_model_vectors(void **state)
{
    (void)state;
    unsigned char buf[1001];
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (unsigned char)((i * 7 + 3) % 256);
    for (size_t v = 0; v < sizeof vectors / sizeof vectors[0]; v++)
        assert_int_equal(ws_xxh64(buf, vectors[v].len, vectors[v].seed), vectors[v].want);
    /* the same bytes at an odd address: reads do not assume alignment */
    memmove(buf + 1, buf, 1000);
    assert_int_equal(ws_xxh64(buf + 1, 1000, 0), 0x5f235fa033f1a3fbull);
}

static void test_published_values(void **state)
{
    (void)state;
    assert_int_equal(ws_xxh64("a", 1, 0), 0xd24ec4f1a98c6e5bull);
    assert_int_equal(ws_xxh64("abc", 3, 0), 0x44bc2cf5ad770999ull);
    assert_int_equal(ws_xxh64("xxhash", 6, 20141025), 0xb559b98d844e0635ull);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_model_vectors),
        cmocka_unit_test(test_published_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
