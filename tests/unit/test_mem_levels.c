/* The memory hierarchy of issue 12 through the ws_mem seam (docs/memory.md):
 * 32-byte sectors, sectored L1 fills, the MSHR merge limit, write-back L1,
 * the crossbar + L2 + banked DRAM latencies (the pointer-chase plateaus),
 * row hits and misses, per-address atomic serialisation, the fence query
 * and the constant cache.  Every expected cycle is the documented formula
 * evaluated by hand here, never a value read back from a run. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include "warpsweep/mem.h"

/* The formulas below are derived from the seed's memory defaults (preset=seed):
 * each test sets only the stages it exercises. */
static void seed_memory(ws_config *c)
{
    ws_error err;
    ws_config_defaults(c);
    if (ws_config_set(c, "preset=seed", &err) != 0) fail_msg("preset=seed: %s", err.msg);
    ws_config_apply_preset(c, NULL);
}

static void open_mem(ws_mem *m, const char *const *sets, uint32_t cores)
{
    ws_config c;
    seed_memory(&c);
    for (; sets && *sets; sets++) {
        ws_error err;
        if (ws_config_set(&c, *sets, &err) != 0) fail_msg("%s: %s", *sets, err.msg);
    }
    ws_error err;
    memset(m, 0, sizeof *m);
    m->ops = &ws_mem_hier;
    if (m->ops->init(m, &c, cores, &err) != 0) fail_msg("init: %s", err.msg);
}

static int init_fails(const char *const *sets)
{
    ws_config c;
    seed_memory(&c);
    for (; sets && *sets; sets++) {
        ws_error err;
        if (ws_config_set(&c, *sets, &err) != 0) fail_msg("%s: %s", *sets, err.msg);
    }
    ws_error err;
    ws_mem m;
    memset(&m, 0, sizeof m);
    m.ops = &ws_mem_hier;
    int rc = m.ops->init(&m, &c, 1, &err);
    if (rc == 0) m.ops->fini(&m);
    return rc != 0;
}

/* kind 1 load, 2 store, 3 atomic; lanes x bytes at base + l*stride */
static void eff_of(ws_effect *e, int kind, uint32_t lanes, uint64_t base, uint64_t stride, uint32_t bytes)
{
    memset(e, 0, sizeof *e);
    e->mem_kind = (uint8_t)kind;
    e->mem_space = WS_SP_GLOBAL;
    e->mem_bytes = bytes;
    e->mem_mask = lanes >= 64 ? ~0ull : (1ull << lanes) - 1;
    for (uint32_t l = 0; l < lanes; l++) {
        e->mem_addr[l] = base + l * stride;
        e->mem_lane_space[l] = WS_SP_GLOBAL;
    }
}

static uint64_t acc(ws_mem *m, uint64_t cycle, uint32_t core, uint32_t warp, const ws_effect *e)
{
    ws_mem_req r = {.cycle = cycle, .core = core, .warp = warp, .inst = NULL, .eff = e};
    return m->ops->access(m, &r);
}

static void stats(ws_mem *m, ws_value *mt, int64_t cycles)
{
    memset(mt, 0, sizeof(ws_value) * WS_NMETRICS);
    mt[WS_M_cycles].i = cycles;
    mt[WS_M_warp_insts].i = 1;
    ws_mem_stats(m, mt);
}

static const uint64_t G = WS_GLOBAL_BASE;   /* line-aligned */
#define L 400u

/* Stride sweep without L1, sector_bytes 32, dram_bw 32 B/cycle (1 sector per
 * cycle): 32 lanes x 4 B at a stride of s words touch min(32, 4s) sectors in
 * max(1, 32s/32) lines; the load completes when the last sector has crossed
 * the channel: t + sectors + mem_latency; bytes = 32 x sectors. */
static void test_stride_sector_arithmetic(void **state)
{
    (void)state;
    static const struct { uint64_t s; uint32_t sectors, lines; } sw[] = {
        {1, 4, 1}, {2, 8, 2}, {4, 16, 4}, {8, 32, 8}, {16, 32, 16}, {32, 32, 32},
    };
    for (unsigned i = 0; i < sizeof sw / sizeof *sw; i++) {
        ws_mem m;
        const char *s[] = {"sector_bytes=32", "dram_bw=32", NULL};
        open_mem(&m, s, 1);
        ws_effect e;
        eff_of(&e, 1, 32, G, 4 * sw[i].s, 4);
        uint32_t lines = 0;
        ws_mem_req r = {.cycle = 100, .eff = &e, .lines_out = &lines};
        assert_int_equal(m.ops->access(&m, &r), 100 + sw[i].sectors + L);
        assert_int_equal(lines, sw[i].lines);
        ws_value mt[WS_NMETRICS];
        stats(&m, mt, 1000);
        assert_int_equal(mt[WS_M_gmem_sectors].i, sw[i].sectors);
        assert_int_equal(mt[WS_M_gmem_lines].i, sw[i].lines);
        assert_int_equal(mt[WS_M_dram_bytes].i, 32 * sw[i].sectors);
        m.ops->fini(&m);
    }
    /* sector_bytes 0 (the seed): a line fill moves the whole line */
    ws_mem m;
    const char *s[] = {"dram_bw=32", NULL};
    open_mem(&m, s, 1);
    ws_effect e;
    eff_of(&e, 1, 32, G, 32, 4);                               /* 8 lines, 1 sector each */
    assert_int_equal(acc(&m, 0, 0, 0, &e), 8 * 128 / 32 + L);
    m.ops->fini(&m);
}

/* Sectored L1: a miss fetches only the missing sectors. */
static void test_l1_sectored_fill(void **state)
{
    (void)state;
    ws_mem m;
    const char *s[] = {"sector_bytes=32", "l1_kb=16", "l1_latency=28", "dram_bw=32", NULL};
    open_mem(&m, s, 1);
    ws_effect e;
    eff_of(&e, 1, 16, G, 4, 4);                                /* sectors 0, 1 */
    assert_int_equal(acc(&m, 0, 0, 0, &e), 0 + 2 + L);
    eff_of(&e, 1, 32, G, 4, 4);                                /* sectors 0..3: 2 hit, 2 fetched */
    assert_int_equal(acc(&m, 1000, 0, 0, &e), 1000 + 2 + L);
    assert_int_equal(acc(&m, 2000, 0, 0, &e), 2000 + 28);      /* all 4 present */
    ws_value mt[WS_NMETRICS];
    stats(&m, mt, 3000);
    assert_int_equal(mt[WS_M_dram_bytes].i, 4 * 32);
    assert_int_equal(mt[WS_M_l2_bytes].i, 4 * 32);
    assert_true(mt[WS_M_l1_hit_rate].f == 1.0 / 3.0);          /* requests: miss, miss, hit */
    assert_true(mt[WS_M_l1_sector_hit_rate].f == 6.0 / 10.0);  /* sectors: 0+2 hit of 2+4, 4 of 4 */
    m.ops->fini(&m);
}

/* l1_mshr_merge 2: the miss and two merges complete with the fill at L; a
 * third merge waits for the fill and replays: L + l1_latency. */
static void test_mshr_merge_limit(void **state)
{
    (void)state;
    ws_mem m;
    const char *s[] = {"sector_bytes=32", "l1_kb=16", "l1_latency=28", "l1_mshr_merge=2", NULL};
    open_mem(&m, s, 1);
    ws_effect e;
    eff_of(&e, 1, 32, G, 4, 4);
    assert_int_equal(acc(&m, 0, 0, 0, &e), L);
    assert_int_equal(acc(&m, 1, 0, 1, &e), L);
    assert_int_equal(acc(&m, 2, 0, 2, &e), L);
    assert_int_equal(acc(&m, 3, 0, 3, &e), L + 28);
    ws_value mt[WS_NMETRICS];
    stats(&m, mt, 1000);
    assert_int_equal(mt[WS_M_l1_merge_stalls].i, 1);
    m.ops->fini(&m);
}

/* l1_write=back: a store allocates (done at l1_latency), a later load hits;
 * evicting the dirty line writes its dirty sectors back (bytes below). */
static void test_l1_write_back(void **state)
{
    (void)state;
    ws_mem m;
    /* 1 KiB, 1 way, 128 B lines: 8 sets; line x and x + 8 collide */
    const char *s[] = {"sector_bytes=32", "l1_kb=1", "l1_ways=1", "l1_latency=28", "l1_write=back", NULL};
    open_mem(&m, s, 1);
    ws_effect e;
    eff_of(&e, 2, 8, G, 4, 4);                                 /* 32 B: sector 0 of line 0 */
    assert_int_equal(acc(&m, 0, 0, 0, &e), 28);
    eff_of(&e, 1, 8, G, 4, 4);
    assert_int_equal(acc(&m, 10, 0, 0, &e), 10 + 28);          /* hit on the written sector */
    ws_value mt[WS_NMETRICS];
    stats(&m, mt, 100);
    assert_int_equal(mt[WS_M_dram_bytes].i, 0);                /* nothing left the core */
    eff_of(&e, 1, 1, G + 8 * 128, 0, 4);                       /* evicts line 0 (dirty sector 0) */
    assert_int_equal(acc(&m, 20, 0, 0, &e), 20 + L);
    stats(&m, mt, 1000);
    assert_int_equal(mt[WS_M_dram_bytes].i, 32 + 32);          /* the write-back + the fill */
    m.ops->fini(&m);
    /* write-through (default): the store goes to memory, no allocation */
    const char *t[] = {"sector_bytes=32", "l1_kb=1", "l1_ways=1", "l1_latency=28", NULL};
    open_mem(&m, t, 1);
    eff_of(&e, 2, 8, G, 4, 4);
    assert_int_equal(acc(&m, 0, 0, 0, &e), L);
    eff_of(&e, 1, 8, G, 4, 4);
    assert_int_equal(acc(&m, 10, 0, 0, &e), 10 + L);
    m.ops->fini(&m);
}

/* The levels' unloaded latencies (docs/memory.md, "pointer-chase plateaus"):
 *   L1 hit   = l1_latency
 *   L2 hit   = 2 icnt + ceil(ctrl/req_bw) + ceil(32/l2_bank_bw) + l2_latency + ceil(32/reply_bw)
 *   DRAM     = L2 hit + [tRP] + tRCD + tCL + ceil(32/channel_bw) + mem_latency
 * with icnt 10, ctrl 8, req_bw 16 (1), bank 32 (1), l2 100, reply 32 (1):
 * L2 hit = 20 + 1 + 1 + 100 + 1 = 123; tRCD 14, tCL 12, tRP 13,
 * channel_bw 16 (2), mem_latency 50: DRAM idle bank = 123 + 14 + 12 + 2 + 50 = 201,
 * row conflict = 214, row hit = 187. */
static const char *const chain[] = {
    "sector_bytes=32", "l1_kb=4", "l1_ways=4", "l1_latency=28",
    "icnt_latency=10", "icnt_req_bw=16", "icnt_reply_bw=32", "icnt_ctrl_bytes=8",
    "l2_kb=64", "l2_ways=16", "l2_slices=1", "l2_banks=1", "l2_bank_bw=32", "l2_latency=100",
    "dram_banks=1", "dram_channels=1", "dram_row_bytes=2048", "dram_tRCD=14", "dram_tCL=12", "dram_tRP=13",
    "dram_bw=16", "mem_latency=50", NULL};

static void test_level_latencies(void **state)
{
    (void)state;
    ws_mem m;
    open_mem(&m, chain, 1);
    ws_effect e;
    uint64_t t = 0;
    eff_of(&e, 1, 1, G, 0, 4);                                 /* line 0, bank idle */
    assert_int_equal(acc(&m, t, 0, 0, &e) - t, 201);
    t = 1000;
    assert_int_equal(acc(&m, t, 0, 0, &e) - t, 28);            /* L1 hit */
    eff_of(&e, 1, 1, G + 128, 0, 4);                           /* line 1: same row, open */
    t = 2000;
    assert_int_equal(acc(&m, t, 0, 0, &e) - t, 187);
    eff_of(&e, 1, 1, G + 16 * 128, 0, 4);                      /* line 16: next row, same bank */
    t = 3000;
    assert_int_equal(acc(&m, t, 0, 0, &e) - t, 214);
    /* push line 0 out of the 4 KiB L1 (8 sets x 4 ways: lines 0, 8, ..., 32 share set 0) */
    for (uint64_t k = 1; k <= 4; k++) {
        eff_of(&e, 1, 1, G + 8 * k * 128, 0, 4);
        t += 1000;
        (void)acc(&m, t, 0, 0, &e);
    }
    eff_of(&e, 1, 1, G, 0, 4);
    t += 1000;
    assert_int_equal(acc(&m, t, 0, 0, &e) - t, 123);           /* L1 miss, L2 hit */
    ws_value mt[WS_NMETRICS];
    stats(&m, mt, (int64_t)t + 1000);
    /* L2 requests: lines 0, 1, 16, 8, 24, 32 (16 hits in the L1), 0 again: 7, 1 hit */
    assert_true(mt[WS_M_l2_hit_rate].f == 1.0 / 7.0);
    /* DRAM: lines 0 (idle bank), 1 (row 0 open: hit), 16 (row 1), 8 (row 0), 24 (row 1), 32 (row 2) */
    assert_true(mt[WS_M_dram_row_hit_rate].f == 1.0 / 6.0);
    m.ops->fini(&m);
}

/* Stores through a write-back L2: acknowledged by the slice, no DRAM bytes
 * until the dirty line is evicted; the fence query returns the warp's last
 * store's completion. */
static void test_l2_store_and_fence(void **state)
{
    (void)state;
    ws_mem m;
    open_mem(&m, chain, 1);
    ws_effect e;
    eff_of(&e, 2, 32, G, 4, 4);                                /* 128 B store: 4 sectors */
    /* request: ctrl + 128 B at 16 B/cycle = 136/16 = 8.5 -> 9 cycles, +10; bank 128/32 = 4;
     * l2_latency 100; ack: 8 B at 32 = 1, +10: 0 + 19 + 4 + 100 + 11 = 134 */
    assert_int_equal(acc(&m, 0, 0, 3, &e), 134);
    assert_int_equal(ws_mem_fence(&m, 0, 3, 5), 134);
    assert_int_equal(ws_mem_fence(&m, 0, 3, 200), 200);
    assert_int_equal(ws_mem_fence(&m, 0, 2, 5), 5);            /* another warp: nothing pending */
    ws_value mt[WS_NMETRICS];
    stats(&m, mt, 1000);
    assert_int_equal(mt[WS_M_dram_bytes].i, 0);
    assert_int_equal(mt[WS_M_l2_bytes].i, 128);
    m.ops->fini(&m);
}

/* atomic_interval 8: a warp of 32 lanes on one address completes 32 x 8
 * cycles after its data is at the slice; a second warp's lanes queue behind;
 * lanes on 32 distinct addresses of one line run in parallel. */
static void test_atomic_serialisation(void **state)
{
    (void)state;
    ws_mem m;
    const char *s[] = {"sector_bytes=32", "l2_kb=64", "l2_latency=100", "l2_bank_bw=0", "atomic_interval=8",
                       "mem_latency=50", NULL};
    open_mem(&m, s, 1);
    ws_effect e;
    eff_of(&e, 3, 32, G, 0, 4);                                /* all on one word */
    /* first touch: L2 miss: 0 + l2_latency 100 + mem_latency 50 = 150, then 32 x 8 */
    assert_int_equal(acc(&m, 0, 0, 0, &e), 150 + 256);
    assert_int_equal(acc(&m, 1, 0, 1, &e), 150 + 512);         /* queued behind warp 0 */
    eff_of(&e, 3, 32, G + 4096, 4, 4);                         /* 32 words of one line */
    assert_int_equal(acc(&m, 1000, 0, 2, &e), 1000 + 150 + 8);
    ws_value mt[WS_NMETRICS];
    stats(&m, mt, 2000);
    /* waits beyond one interval: warp 0: 31 x 8; warp 1 (data at 150): (406 - 150) + 31 x 8; warp 2: 0 */
    assert_int_equal(mt[WS_M_atomic_stall_cycles].i, 248 + (406 - 150) + 248);
    m.ops->fini(&m);
}

/* Streaming through channels: 4 channels at dram_bw 64 (16 B/cycle each);
 * 64 line fills of 128 B at cycle 0 spread round-robin over the channels:
 * each channel moves 16 x 128 B in 128 cycles; per-channel bytes sum to the
 * total and every channel is equally busy. */
static void test_channels_bandwidth(void **state)
{
    (void)state;
    ws_mem m;
    const char *s[] = {"dram_banks=4", "dram_channels=4", "dram_bw=64", "dram_tRCD=0", "dram_tCL=0", "dram_tRP=0",
                       "mem_latency=100", NULL};
    open_mem(&m, s, 1);
    ws_effect e;
    uint64_t last = 0;
    for (uint32_t i = 0; i < 2; i++) {                          /* 2 x 32 lines */
        eff_of(&e, 1, 32, G + i * 32 * 128, 128, 4);
        uint64_t d = acc(&m, 0, 0, i, &e);
        if (d > last) last = d;
    }
    assert_int_equal(last, 16 * 128 / 16 + 100);
    ws_value mt[WS_NMETRICS];
    stats(&m, mt, 128);
    assert_int_equal(mt[WS_M_dram_bytes].i, 64 * 128);
    assert_true(mt[WS_M_dram_util_max].f == 1.0);
    assert_true(mt[WS_M_dram_util_mean].f == 1.0);
    m.ops->fini(&m);
}

/* FR-FCFS on one bank (docs/memory.md, "FR-FCFS"): n pairs of one-sector reads,
 * rows 0 and 1 interleaved (lines k and 16 + k, 16 lines per 2 KiB row), all at
 * cycle 0, no L1/L2/crossbar: b = 32 B / 16 B/cycle = 2 cycles a burst.
 * fcfs: every request after the first is a row conflict, the last column is at
 * tRCD + (2n-1)(b + tRP + tRCD).  frfcfs: row 0's later requests group behind
 * the first, only row 1's first opens a row: the last column is at
 * 2 tRCD + tRP + (2n-1) b, row hits (2n-2)/2n.  Completion = column + tCL + b + L. */
static void frfcfs_pairs(const char *sched, uint32_t n, uint64_t *last, double *hit_rate)
{
    char sched_set[64];
    snprintf(sched_set, sizeof sched_set, "dram_sched=%s", sched);
    const char *sets[] = {"sector_bytes=32", "dram_banks=1", "dram_channels=1", "dram_row_bytes=2048",
                          "dram_tRCD=14", "dram_tCL=12", "dram_tRP=13", "dram_bw=16", "mem_latency=50",
                          sched_set, NULL};
    ws_mem m;
    open_mem(&m, sets, 1);
    ws_effect e;
    *last = 0;
    for (uint32_t k = 0; k < n; k++)
        for (uint32_t row = 0; row < 2; row++) {
            eff_of(&e, 1, 1, G + (16 * row + k) * 128, 0, 4);
            uint64_t done = acc(&m, 0, 0, 2 * k + row, &e);
            if (done > *last) *last = done;
        }
    ws_value mt[WS_NMETRICS];
    stats(&m, mt, 1000);
    *hit_rate = mt[WS_M_dram_row_hit_rate].f;
    m.ops->fini(&m);
}

static void test_frfcfs_groups_rows(void **state)
{
    (void)state;
    const uint64_t tRCD = 14, tRP = 13, tCL = 12, b = 2, lat = 50;
    for (uint32_t n = 2; n <= 8; n *= 2) {
        uint64_t last;
        double hits;
        frfcfs_pairs("fcfs", n, &last, &hits);
        assert_int_equal(last, tRCD + (2 * n - 1) * (b + tRP + tRCD) + tCL + b + lat);
        assert_true(hits == 0.0);
        frfcfs_pairs("frfcfs", n, &last, &hits);
        assert_int_equal(last, 2 * tRCD + tRP + (2 * n - 1) * b + tCL + b + lat);
        assert_true(hits == (double)(2 * n - 2) / (double)(2 * n));
    }
}

static void test_const_and_errors(void **state)
{
    (void)state;
    ws_effect e;
    eff_of(&e, 1, 32, 64, 0, 4);                               /* uniform: broadcast */
    assert_int_equal(ws_mem_const_done(&e, 10, 8), 18);
    eff_of(&e, 1, 32, 64, 4, 4);                               /* 32 addresses: 31 more cycles */
    assert_int_equal(ws_mem_const_done(&e, 10, 8), 18 + 31);
    const char *a[] = {"sector_bytes=48", NULL};
    assert_true(init_fails(a));
    const char *b[] = {"sector_bytes=256", NULL};              /* > l1_line 128 */
    assert_true(init_fails(b));
    const char *c[] = {"l2_kb=3", "l2_slices=2", "l2_ways=16", NULL};
    assert_true(init_fails(c));
    const char *d[] = {"dram_banks=2", "dram_row_bytes=100", NULL};
    assert_true(init_fails(d));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stride_sector_arithmetic),
        cmocka_unit_test(test_l1_sectored_fill),
        cmocka_unit_test(test_mshr_merge_limit),
        cmocka_unit_test(test_l1_write_back),
        cmocka_unit_test(test_level_latencies),
        cmocka_unit_test(test_l2_store_and_fence),
        cmocka_unit_test(test_atomic_serialisation),
        cmocka_unit_test(test_channels_bandwidth),
        cmocka_unit_test(test_frfcfs_groups_rows),
        cmocka_unit_test(test_const_and_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
