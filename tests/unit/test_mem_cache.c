/* L1 tags/LRU/MSHRs (cache.c) and the DRAM channel (dram.c), by hand
 * (docs/memory.md). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "mem/mem_internal.h"

#define LAT 28

/* 1 KiB, 2 ways, 128-byte lines: 1024 / (2*128) = 4 sets; lines 0, 4, 8
 * all map to set 0. */
static void test_geometry_and_errors(void **state)
{
    (void)state;
    ws_l1 c;
    ws_error err = {{0}};
    assert_int_equal(ws_l1_init(&c, 1, 2, 128, LAT, 4, &err), 0);
    assert_int_equal(c.sets, 1024 / (2 * 128));
    ws_l1_free(&c);
    assert_int_equal(ws_l1_init(&c, 48, 4, 128, LAT, 4, &err), 0);   /* 96 sets: not a power of two is fine */
    assert_int_equal(c.sets, 48 * 1024 / (4 * 128));
    ws_l1_free(&c);
    assert_true(ws_l1_init(&c, 1, 16, 128, LAT, 4, &err) < 0);       /* 2 KiB per set > 1 KiB */
    assert_non_null(strstr(err.msg, "l1_kb"));
    assert_true(ws_l1_init(&c, 1, 2, 96, LAT, 4, &err) < 0);
    assert_non_null(strstr(err.msg, "power of two"));
}

/* One slice of an L2 interleaved over 4 slices (line l in slice l mod 4): 1 KiB, 2 ways,
 * 128-byte lines = 4 sets. Slice 0 sees lines 0, 4, 8, ...: by the slice-local index l / 4
 * lines 0..28 step 4 fill sets 0, 1, 2, 3, 0, 1, 2, 3, so all 8 stay resident; indexed by
 * l mod 4 they would all land in set 0 and only the last 2 would stay. */
static void test_interleaved_slice_sets(void **state)
{
    (void)state;
    ws_cache c;
    ws_error err = {{0}};
    ws_cache_geom g = {.name = "L2", .bytes = 1024, .ways = 2, .line = 128, .latency = LAT, .mshrs = 4,
                       .write_back = 1, .interleave = 4};
    assert_int_equal(ws_cache_init(&c, &g, &err), 0);
    assert_int_equal(c.sets, 4);
    for (uint64_t l = 0; l < 32; l += 4) ws_cache_install(&c, l);
    for (uint64_t l = 0; l < 32; l += 4) {
        int found = 0;
        for (size_t i = 0; i < (size_t)c.sets * c.ways; i++) found += c.tag[i] == l;
        assert_int_equal(found, 1);
    }
    ws_cache_free(&c);
}

static void miss_fill(ws_l1 *c, uint64_t line, uint64_t now, uint64_t done)
{
    uint64_t d, at;
    assert_int_equal(ws_l1_probe(c, line, now, &d), WS_L1_MISS);
    uint32_t slot = ws_l1_mshr_pick(c, now, &at);
    assert_int_equal(at, now);
    ws_l1_fill(c, slot, line, done);
}

static void test_lru_two_way(void **state)
{
    (void)state;
    ws_l1 c;
    ws_error err;
    assert_int_equal(ws_l1_init(&c, 1, 2, 128, LAT, 8, &err), 0);
    const uint64_t A = 0, B = 4, C = 8, D = 1;                 /* A, B, C: set 0; D: set 1 */
    uint64_t d;
    miss_fill(&c, A, 0, 10);
    miss_fill(&c, B, 1, 20);
    miss_fill(&c, D, 2, 30);                                   /* other set: evicts nothing */
    assert_int_equal(ws_l1_probe(&c, A, 100, &d), WS_L1_HIT);  /* A now most recent */
    assert_int_equal(d, 100 + LAT);
    miss_fill(&c, C, 101, 200);                                /* evicts B, the LRU */
    assert_int_equal(ws_l1_probe(&c, A, 300, &d), WS_L1_HIT);
    assert_int_equal(ws_l1_probe(&c, C, 301, &d), WS_L1_HIT);  /* order now: A, C (C most recent) */
    assert_int_equal(ws_l1_probe(&c, D, 302, &d), WS_L1_HIT);
    miss_fill(&c, B, 400, 500);                                /* evicts A */
    assert_int_equal(ws_l1_probe(&c, A, 600, &d), WS_L1_MISS);
    assert_int_equal(ws_l1_probe(&c, C, 600, &d), WS_L1_HIT);
    assert_int_equal(ws_l1_probe(&c, B, 600, &d), WS_L1_HIT);
    /* a store touches a present line (LRU) but never allocates */
    assert_int_equal(ws_l1_store(&c, C, 700), 1);              /* C most recent again */
    assert_int_equal(ws_l1_store(&c, A, 700), 0);
    assert_int_equal(ws_l1_probe(&c, A, 701, &d), WS_L1_MISS);
    miss_fill(&c, A, 701, 800);                                /* evicts B (C was stored to) */
    assert_int_equal(ws_l1_probe(&c, B, 900, &d), WS_L1_MISS);
    assert_int_equal(ws_l1_probe(&c, C, 900, &d), WS_L1_HIT);
    ws_l1_free(&c);
}

static void test_mshr_merge_and_full(void **state)
{
    (void)state;
    ws_l1 c;
    ws_error err;
    assert_int_equal(ws_l1_init(&c, 1, 2, 128, LAT, 2, &err), 0);
    uint64_t d, at;
    miss_fill(&c, 3, 0, 400);
    /* a second miss to the same line while its fill is in flight merges */
    assert_int_equal(ws_l1_probe(&c, 3, 5, &d), WS_L1_MERGE);
    assert_int_equal(d, 400);
    /* merging shortly before the fill returns still costs a hit latency */
    assert_int_equal(ws_l1_probe(&c, 3, 390, &d), WS_L1_MERGE);
    assert_int_equal(d, 390 + LAT);
    assert_int_equal(ws_l1_mshr_free_at(&c, 6), 6);            /* one MSHR still free */
    miss_fill(&c, 9, 6, 450);
    assert_int_equal(ws_l1_mshr_free_at(&c, 7), 400);          /* full: retry when the first frees */
    uint32_t slot = ws_l1_mshr_pick(&c, 7, &at);
    assert_int_equal(at, 400);
    ws_l1_fill(&c, slot, 17, 900);                             /* a miss sent at 400 */
    assert_int_equal(ws_l1_mshr_free_at(&c, 401), 450);
    assert_int_equal(ws_l1_probe(&c, 3, 400, &d), WS_L1_HIT);  /* fill returned */
    assert_int_equal(d, 400 + LAT);
    /* a merge is still found through the MSHR after the tag was evicted */
    ws_l1_free(&c);
    assert_int_equal(ws_l1_init(&c, 1, 1, 128, LAT, 4, &err), 0);   /* direct-mapped, 8 sets */
    miss_fill(&c, 1, 0, 400);
    miss_fill(&c, 9, 1, 410);                                  /* same set: evicts line 1's tag */
    assert_int_equal(ws_l1_probe(&c, 1, 2, &d), WS_L1_MERGE);  /* its MSHR still has it */
    assert_int_equal(d, 400);
    assert_int_equal(ws_l1_probe(&c, 1, 401, &d), WS_L1_MISS); /* done and evicted */
    ws_l1_free(&c);
}

/* dram_bw 32 B/cycle, 4 lines of 128 B at cycle 0: each takes 4 cycles on
 * the channel, back to back: L+4, L+8, L+12, L+16. */
static void test_dram_queue(void **state)
{
    (void)state;
    const uint64_t L = 400;
    ws_dram d;
    ws_dram_init(&d, L, 32);
    for (uint64_t i = 1; i <= 4; i++)
        assert_int_equal(ws_dram_request(&d, 0, 128), L + 4 * i);
    /* channel free at 16: a request at 100 starts at once */
    assert_int_equal(ws_dram_request(&d, 100, 128), 100 + 4 + L);
    /* a request at 102 waits for the channel (free at 104) */
    assert_int_equal(ws_dram_request(&d, 102, 32), 104 + 1 + L);
    assert_int_equal(d.bytes, 5 * 128 + 32);
    /* fractional: 3 B/cycle, 4-byte requests take 4/3 cycles each:
     * ends 4/3, 8/3, 4 -> ceil 2, 3, 4 */
    ws_dram_init(&d, L, 3);
    assert_int_equal(ws_dram_request(&d, 0, 4), L + 2);
    assert_int_equal(ws_dram_request(&d, 0, 4), L + 3);
    assert_int_equal(ws_dram_request(&d, 0, 4), L + 4);
    /* 0.5 B/cycle: 32 bytes take 64 cycles */
    ws_dram_init(&d, L, 0.5);
    assert_int_equal(ws_dram_request(&d, 10, 32), 10 + 64 + L);
    /* unlimited */
    ws_dram_init(&d, L, 0);
    for (int i = 0; i < 100; i++) assert_int_equal(ws_dram_request(&d, 7, 128), 7 + L);
    assert_int_equal(d.bytes, 100 * 128);
}

/* Little's law: with W requests of B bytes always in flight, throughput is
 * min(bw, W*B / round-trip).  Closed loop: each of W "warps" re-issues its
 * request the cycle the previous one completes. */
static void test_dram_littles_law(void **state)
{
    (void)state;
    const uint64_t L = 400, B = 128;
    const double bw = 8;
    for (uint32_t W = 1; W <= 64; W *= 2) {
        ws_dram d;
        ws_dram_init(&d, L, bw);
        uint64_t next[64] = {0};
        uint64_t end = 200000, last = 0;
        /* event order: always serve the warp with the earliest next issue
         * (lowest index on ties) - deterministic */
        for (;;) {
            uint32_t w = 0;
            for (uint32_t i = 1; i < W; i++) if (next[i] < next[w]) w = i;
            if (next[w] >= end) break;
            next[w] = ws_dram_request(&d, next[w], (uint32_t)B);
            if (next[w] > last) last = next[w];
        }
        double got = (double)d.bytes / (double)last;
        /* unloaded round trip: L + B/bw; offered load W*B per round trip */
        double offered = (double)W * B / ((double)L + B / bw);
        double want = offered < bw ? offered : bw;
        assert_true(got > 0.97 * want && got <= want * 1.0001 + 1e-9);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_geometry_and_errors),
        cmocka_unit_test(test_lru_two_way),
        cmocka_unit_test(test_interleaved_slice_sets),
        cmocka_unit_test(test_mshr_merge_and_full),
        cmocka_unit_test(test_dram_queue),
        cmocka_unit_test(test_dram_littles_law),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
