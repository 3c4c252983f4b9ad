/* Coalescing (ws_coalesce) and shared-memory bank conflicts
 * (ws_smem_conflict_degree), docs/memory.md.  Expected values come from the
 * analytical formulas (ceil(lanes*bytes*stride/line) capped at the lane
 * count; gcd(stride, banks)) computed here, never from the program. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "warpsweep/mem.h"

static void global_eff(ws_effect *e, uint32_t lanes, uint64_t base, uint64_t stride_bytes, uint32_t bytes)
{
    memset(e, 0, sizeof *e);
    e->mem_kind = 1;
    e->mem_space = WS_SP_GLOBAL;
    e->mem_bytes = bytes;
    e->mem_mask = lanes >= 64 ? ~0ull : (1ull << lanes) - 1;
    for (uint32_t l = 0; l < lanes; l++) {
        e->mem_addr[l] = base + l * stride_bytes;
        e->mem_lane_space[l] = WS_SP_GLOBAL;
    }
}

static void assert_ascending_distinct(const uint64_t *x, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++) assert_true(x[i - 1] < x[i]);
}

static uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

/* 32 lanes x 4 bytes, stride s words, 128-byte lines: ceil(32*4*s/128) lines,
 * at most 32 (one per lane). */
static void test_strides(void **state)
{
    (void)state;
    static const uint32_t strides[] = {1, 2, 4, 8, 32};
    for (unsigned i = 0; i < sizeof strides / sizeof *strides; i++) {
        uint32_t s = strides[i];
        ws_effect e;
        global_eff(&e, 32, WS_GLOBAL_BASE, 4ull * s, 4);
        uint64_t lines[WS_COALESCE_MAX];
        uint32_t n = ws_coalesce(&e, 128, lines);
        uint64_t want = ceil_div(32ull * 4 * s, 128);
        if (want > 32) want = 32;
        assert_int_equal(n, want);
        assert_ascending_distinct(lines, n);
        /* first line is the base's, last is the last lane's */
        assert_int_equal(lines[0], WS_GLOBAL_BASE / 128);
        assert_int_equal(lines[n - 1], (WS_GLOBAL_BASE + 31ull * 4 * s) / 128);
    }
}

/* 64-bit and vector accesses: the lane footprint is mem_bytes wide. */
static void test_wide(void **state)
{
    (void)state;
    static const uint32_t widths[] = {8 /* u64 */, 16 /* v4.f32 */, 32 /* v4.f64 */, 8 /* v2.f32 */};
    for (unsigned i = 0; i < 4; i++) {
        uint32_t b = widths[i];
        ws_effect e;
        global_eff(&e, 32, WS_GLOBAL_BASE, b, b);
        uint64_t lines[WS_COALESCE_MAX];
        assert_int_equal(ws_coalesce(&e, 128, lines), ceil_div(32ull * b, 128));
    }
    /* u64 at stride 2 elements: 32 * 16 bytes span = 4 lines */
    ws_effect e;
    global_eff(&e, 32, WS_GLOBAL_BASE, 16, 8);
    uint64_t lines[WS_COALESCE_MAX];
    assert_int_equal(ws_coalesce(&e, 128, lines), 4);
}

/* A lane whose bytes cross a line boundary touches both lines. */
static void test_straddle(void **state)
{
    (void)state;
    ws_effect e;
    uint64_t lines[WS_COALESCE_MAX];
    const uint64_t L = WS_GLOBAL_BASE / 128;
    global_eff(&e, 1, WS_GLOBAL_BASE + 124, 0, 8);          /* bytes 124..131 */
    assert_int_equal(ws_coalesce(&e, 128, lines), 2);
    assert_int_equal(lines[0], L);
    assert_int_equal(lines[1], L + 1);
    global_eff(&e, 1, WS_GLOBAL_BASE + 120, 0, 8);          /* bytes 120..127: one line */
    assert_int_equal(ws_coalesce(&e, 128, lines), 1);
    /* 32 lanes x 4 bytes starting 64 bytes into a line: 2 lines */
    global_eff(&e, 32, WS_GLOBAL_BASE + 64, 4, 4);
    assert_int_equal(ws_coalesce(&e, 128, lines), 2);
    /* 16-byte accesses against 8-byte "lines": each lane spans 2 */
    global_eff(&e, 2, WS_GLOBAL_BASE, 16, 16);
    assert_int_equal(ws_coalesce(&e, 8, lines), 4);
    assert_ascending_distinct(lines, 4);
}

/* Inactive lanes, duplicates, descending addresses, shared and local lanes. */
static void test_masks_and_spaces(void **state)
{
    (void)state;
    ws_effect e;
    uint64_t lines[WS_COALESCE_MAX];
    global_eff(&e, 32, WS_GLOBAL_BASE, 128, 4);
    e.mem_mask = 1ull | (1ull << 31);                         /* two lanes of stride-32 */
    assert_int_equal(ws_coalesce(&e, 128, lines), 2);
    global_eff(&e, 32, WS_GLOBAL_BASE + 40, 0, 4);           /* same word everywhere */
    assert_int_equal(ws_coalesce(&e, 128, lines), 1);
    global_eff(&e, 32, WS_GLOBAL_BASE, 0, 4);                /* descending: lane l at (31-l)*128 */
    for (int l = 0; l < 32; l++) e.mem_addr[l] = WS_GLOBAL_BASE + (uint64_t)(31 - l) * 128;
    assert_int_equal(ws_coalesce(&e, 128, lines), 32);
    assert_ascending_distinct(lines, 32);
    global_eff(&e, 32, WS_GLOBAL_BASE, 128, 4);              /* shared lanes are skipped */
    for (int l = 0; l < 16; l++) e.mem_lane_space[l] = WS_SP_SHARED;
    assert_int_equal(ws_coalesce(&e, 128, lines), 16);
    /* local: same offset in every lane is contiguous (interleaved) */
    global_eff(&e, 32, 8, 0, 4);
    for (int l = 0; l < 32; l++) e.mem_lane_space[l] = WS_SP_LOCAL;
    assert_int_equal(ws_coalesce(&e, 128, lines), ceil_div(32 * 4, 128));
    global_eff(&e, 32, 16, 0, 8);
    for (int l = 0; l < 32; l++) e.mem_lane_space[l] = WS_SP_LOCAL;
    assert_int_equal(ws_coalesce(&e, 128, lines), ceil_div(32 * 8, 128));
    e.mem_mask = 0;
    assert_int_equal(ws_coalesce(&e, 128, lines), 0);
}

static uint32_t gcd(uint32_t a, uint32_t b)
{
    while (b) { uint32_t t = a % b; a = b; b = t; }
    return a;
}

static void shared_eff(ws_effect *e, uint32_t lanes, uint64_t base, uint64_t stride_bytes, uint32_t bytes)
{
    global_eff(e, lanes, base, stride_bytes, bytes);
    e->mem_space = WS_SP_SHARED;
    for (uint32_t l = 0; l < lanes; l++) e->mem_lane_space[l] = WS_SP_SHARED;
}

/* Stride s words over 32 banks, 32 lanes: degree gcd(s, 32). */
/* Contiguous lanes (the fast path) against the same lanes with one step
 * broken (the general walk), by hand: 32 lanes x 4 B from 0x1064 touch bytes
 * 0x1064..0x10e3: 32-byte sectors 0x83..0x87 (5: 0x1060/32 = 0x83, 0x10e3/32
 * = 0x87); with lane 31 moved back onto lane 30's word (0x10dc, a duplicate)
 * the last byte is 0x10df: sectors 0x83..0x86 (4). A contiguous range longer
 * than WS_COALESCE_MAX keeps its first WS_COALESCE_MAX lines, as the walk. */
static void test_contiguous(void **state)
{
    (void)state;
    ws_effect e;
    uint64_t out[WS_COALESCE_MAX];
    global_eff(&e, 32, 0x1064, 4, 4);
    assert_int_equal(ws_coalesce(&e, 32, out), 5);
    for (uint32_t i = 0; i < 5; i++) assert_int_equal(out[i], 0x83 + i);
    e.mem_addr[31] = 0x10dc;
    assert_int_equal(ws_coalesce(&e, 32, out), 4);
    for (uint32_t i = 0; i < 4; i++) assert_int_equal(out[i], 0x83 + i);
    /* one shared lane: the walk (shared lanes are not lines) */
    global_eff(&e, 32, 0x1064, 4, 4);
    e.mem_lane_space[0] = WS_SP_SHARED;
    assert_int_equal(ws_coalesce(&e, 32, out), 5);   /* 0x1068..0x10e3: still 0x83..0x87 */
    /* 32 lanes x 64 B, 1-byte lines: 2048 lines, capped */
    global_eff(&e, 32, 0, 64, 64);
    assert_int_equal(ws_coalesce(&e, 1, out), WS_COALESCE_MAX);
    for (uint32_t i = 0; i < WS_COALESCE_MAX; i++) assert_int_equal(out[i], i);
}

static void test_bank_gcd(void **state)
{
    (void)state;
    static const uint32_t strides[] = {1, 2, 4, 32, 3, 8, 16, 6, 64};
    for (unsigned i = 0; i < sizeof strides / sizeof *strides; i++) {
        ws_effect e;
        shared_eff(&e, 32, 0, 4ull * strides[i], 4);
        assert_int_equal(ws_smem_conflict_degree(&e, 32, 0), gcd(strides[i], 32));
        shared_eff(&e, 32, 256, 4ull * strides[i], 4);       /* a base offset changes nothing */
        assert_int_equal(ws_smem_conflict_degree(&e, 32, 0), gcd(strides[i], 32));
    }
    /* other bank counts: 16 banks, stride 4 -> gcd(4,16)=4 ... but 32 lanes over
     * 16 banks touch each bank 32/16 x more: 32 lanes * stride s words cover
     * banks/gcd distinct banks, each getting 32 / (16/gcd) words. */
    ws_effect e;
    shared_eff(&e, 32, 0, 4, 4);
    assert_int_equal(ws_smem_conflict_degree(&e, 16, 0), 32 / 16);
    shared_eff(&e, 32, 0, 16, 4);
    assert_int_equal(ws_smem_conflict_degree(&e, 16, 0), 32 / (16 / gcd(4, 16)));
}

static void test_bank_broadcast_and_wide(void **state)
{
    (void)state;
    ws_effect e;
    shared_eff(&e, 32, 64, 0, 4);                            /* all lanes, one word: broadcast */
    assert_int_equal(ws_smem_conflict_degree(&e, 32, 0), 1);
    shared_eff(&e, 32, 0, 0, 4);                             /* two words in bank 0 */
    for (int l = 16; l < 32; l++) e.mem_addr[l] = 32 * 4;
    assert_int_equal(ws_smem_conflict_degree(&e, 32, 0), 2);
    shared_eff(&e, 32, 0, 8, 8);                             /* 64-bit, stride 1: 64 words */
    assert_int_equal(ws_smem_conflict_degree(&e, 32, 0), 64 / 32);
    shared_eff(&e, 32, 0, 16, 16);                           /* v4.f32: 128 words */
    assert_int_equal(ws_smem_conflict_degree(&e, 32, 0), 128 / 32);
    shared_eff(&e, 32, 0, 1, 1);                             /* bytes: 8 words, one per bank */
    assert_int_equal(ws_smem_conflict_degree(&e, 32, 0), 1);
    e.mem_mask = 0;
    assert_int_equal(ws_smem_conflict_degree(&e, 32, 0), 0);
    shared_eff(&e, 1, 12, 0, 4);
    assert_int_equal(ws_smem_conflict_degree(&e, 32, 0), 1);
}

/* Shared atomics (atomic_lanes): no broadcast; each lane's words count on
 * their banks (hand counts: 32 lanes on one word = 32 passes; 16 + 16 on two
 * words of different banks = 16; 32 distinct words 8 apart = 4 banks x 8). */
static void test_bank_atomics(void **state)
{
    (void)state;
    ws_effect e;
    shared_eff(&e, 32, 64, 0, 4);
    e.mem_kind = 3;
    assert_int_equal(ws_smem_conflict_degree(&e, 32, 1), 32);
    assert_int_equal(ws_smem_conflict_degree(&e, 32, 0), 1);    /* the seed: broadcast */
    e.mem_kind = 1;
    assert_int_equal(ws_smem_conflict_degree(&e, 32, 1), 1);    /* loads still broadcast */
    shared_eff(&e, 32, 0, 0, 4);
    for (int l = 1; l < 32; l += 2) e.mem_addr[l] = 4;          /* even lanes word 0, odd word 1 */
    e.mem_kind = 3;
    assert_int_equal(ws_smem_conflict_degree(&e, 32, 1), 16);
    shared_eff(&e, 32, 0, 32, 4);                              /* stride 8 words */
    e.mem_kind = 3;
    assert_int_equal(ws_smem_conflict_degree(&e, 32, 1), 8);
    assert_int_equal(ws_smem_conflict_degree(&e, 32, 0), 8);    /* distinct words: the same either way */
    shared_eff(&e, 32, 0, 4, 4);                               /* one word per bank */
    e.mem_kind = 3;
    assert_int_equal(ws_smem_conflict_degree(&e, 32, 1), 1);
    shared_eff(&e, 32, 0, 0, 8);                               /* 64-bit atomics on one address: 2 banks x 32 */
    e.mem_kind = 3;
    assert_int_equal(ws_smem_conflict_degree(&e, 32, 1), 32);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_strides),
        cmocka_unit_test(test_contiguous),
        cmocka_unit_test(test_wide),
        cmocka_unit_test(test_bank_atomics),
        cmocka_unit_test(test_straddle),
        cmocka_unit_test(test_masks_and_spaces),
        cmocka_unit_test(test_bank_gcd),
        cmocka_unit_test(test_bank_broadcast_and_wide),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
