/* ws_mem_hier end to end through the ws_mem seam (docs/memory.md): the
 * fixed-latency equivalence, L1 hits/misses, MSHR-full retry, stores and
 * atomics, the shared DRAM channel and the statistics.  Every expected
 * cycle is worked out by hand from the documented model. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "warpsweep/mem.h"

#define L 400u

/* The formulas below are derived from the seed's memory defaults (preset=seed):
 * each test sets only the stages it exercises. */
static void seed_memory(ws_config *c)
{
    ws_error err;
    ws_config_defaults(c);
    if (ws_config_set(c, "preset=seed", &err) != 0) fail_msg("preset=seed: %s", err.msg);
    ws_config_apply_preset(c, NULL);
}

static ws_config cfg_with(const char *const *sets)
{
    ws_config c;
    seed_memory(&c);
    for (; sets && *sets; sets++) {
        ws_error err;
        if (ws_config_set(&c, *sets, &err) != 0) fail_msg("%s: %s", *sets, err.msg);
    }
    return c;
}

static void open_mem(ws_mem *m, const ws_mem_ops *ops, const char *const *sets, uint32_t cores)
{
    ws_config c = cfg_with(sets);
    ws_error err;
    memset(m, 0, sizeof *m);
    m->ops = ops;
    if (ops->init(m, &c, cores, &err) != 0) fail_msg("init: %s", err.msg);
}

/* kind 1 load, 2 store, 3 atomic; lanes x bytes at base + l*stride */
static void eff_of(ws_effect *e, int kind, uint32_t lanes, uint64_t base, uint64_t stride, uint32_t bytes,
                   uint8_t space)
{
    memset(e, 0, sizeof *e);
    e->mem_kind = (uint8_t)kind;
    e->mem_space = space;
    e->mem_bytes = bytes;
    e->mem_mask = lanes >= 64 ? ~0ull : (1ull << lanes) - 1;
    for (uint32_t l = 0; l < lanes; l++) {
        e->mem_addr[l] = base + l * stride;
        e->mem_lane_space[l] = space;
    }
}

static uint64_t acc(ws_mem *m, uint64_t cycle, uint32_t core, uint32_t warp, const ws_effect *e)
{
    ws_mem_req r = {.cycle = cycle, .core = core, .warp = warp, .inst = NULL, .eff = e};
    return m->ops->access(m, &r);
}

static const uint64_t G = WS_GLOBAL_BASE;

/* The locality hook (mem.h ws_mem_events): 1 KiB, 2 ways, 128-byte lines =
 * 4 sets; lines b, b+4, b+8 share a set.  Warp 3 misses b (event MISS b/3),
 * warp 5 misses b+4 (MISS b+4/5), warp 3 hits b (no event, b is now MRU),
 * warp 7 misses b+8: the LRU way is b+4, owned by warp 5 (MISS b+8/7,
 * EVICT b+4/5).  Warp 9 merges into b+8's fill in flight: no event.  Warp 3
 * misses b+4 again: evicts b (LRU after b+8 came in; owner 3). */
static void test_l1_events(void **state)
{
    (void)state;
    const char *sets[] = {"mem_latency=400", "l1_kb=1", "l1_ways=2", "l1_line=128", "l1_mshrs=8", NULL};
    ws_mem m;
    open_mem(&m, &ws_mem_hier, sets, 1);
    ws_mem_event buf[2 * WS_COALESCE_MAX];
    ws_mem_events ev = {.ev = buf, .cap = 2 * WS_COALESCE_MAX};
    const uint64_t b = G / 128;
    struct { uint64_t cycle; uint32_t warp; uint64_t line; uint32_t n; ws_mem_event e[2]; } step[] = {
        {0, 3, b, 1, {{b, 3, WS_MEV_MISS}}},
        {1, 5, b + 4, 1, {{b + 4, 5, WS_MEV_MISS}}},
        {500, 3, b, 1, {{b, 3, WS_MEV_OWN_HIT}}},      /* 3 re-reads the line it allocated */
        {501, 7, b + 8, 2, {{b + 8, 7, WS_MEV_MISS}, {b + 4, 5, WS_MEV_EVICT}}},
        {502, 9, b + 8, 0, {{0}}},                     /* a hit on warp 7's line: no event */
        {1000, 3, b + 4, 2, {{b + 4, 3, WS_MEV_MISS}, {b, 3, WS_MEV_EVICT}}},
    };
    for (unsigned i = 0; i < sizeof step / sizeof *step; i++) {
        ws_effect e;
        eff_of(&e, 1, 1, step[i].line * 128, 0, 4, WS_SP_GLOBAL);
        ev.n = 0;
        ws_mem_req r = {.cycle = step[i].cycle, .core = 0, .warp = step[i].warp, .eff = &e, .events = &ev};
        m.ops->access(&m, &r);
        assert_int_equal(ev.n, step[i].n);
        for (uint32_t k = 0; k < ev.n; k++) {
            assert_int_equal(ev.ev[k].kind, step[i].e[k].kind);
            assert_int_equal(ev.ev[k].line, step[i].e[k].line);
            assert_int_equal(ev.ev[k].warp, step[i].e[k].warp);
        }
    }
    /* a store never reports (no-write-allocate) */
    ws_effect e;
    eff_of(&e, 2, 1, (b + 12) * 128, 0, 4, WS_SP_GLOBAL);
    ev.n = 0;
    ws_mem_req r = {.cycle = 1100, .core = 0, .warp = 1, .eff = &e, .events = &ev};
    m.ops->access(&m, &r);
    assert_int_equal(ev.n, 0);
    m.ops->fini(&m);
}

/* l1_kb 0 + dram_bw 0 (the defaults): every access = cycle + mem_latency,
 * exactly as ws_mem_fixed, whatever its shape. */
static void test_fixed_equivalence(void **state)
{
    (void)state;
    ws_config def = cfg_with(NULL);
    assert_int_equal(ws_cfg_i(&def, WS_P_l1_kb), 0);
    assert_true(ws_cfg_f(&def, WS_P_dram_bw) == 0);
    ws_mem h, f;
    const char *lat[] = {"mem_latency=400", NULL};
    open_mem(&h, &ws_mem_hier, lat, 2);
    open_mem(&f, &ws_mem_fixed, lat, 2);
    static const struct { int kind; uint32_t lanes; uint64_t stride; uint32_t bytes; uint8_t sp; } shapes[] = {
        {1, 32, 4, 4, WS_SP_GLOBAL}, {1, 32, 128, 4, WS_SP_GLOBAL}, {1, 32, 16, 16, WS_SP_GLOBAL},
        {2, 32, 4, 4, WS_SP_GLOBAL}, {2, 7, 256, 8, WS_SP_GLOBAL}, {3, 32, 0, 4, WS_SP_GLOBAL},
        {1, 32, 0, 4, WS_SP_LOCAL}, {2, 32, 0, 8, WS_SP_LOCAL}, {1, 1, 0, 4, WS_SP_GLOBAL},
    };
    uint64_t cycle = 0;
    for (int rep = 0; rep < 3; rep++)
        for (unsigned i = 0; i < sizeof shapes / sizeof *shapes; i++, cycle += 3) {
            ws_effect e;
            eff_of(&e, shapes[i].kind, shapes[i].lanes, shapes[i].sp == WS_SP_LOCAL ? 0 : G,
                   shapes[i].stride, shapes[i].bytes, shapes[i].sp);
            ws_mem_req r = {.cycle = cycle, .core = i % 2, .warp = i, .inst = NULL, .eff = &e};
            assert_int_equal(ws_mem_accept(&h, &r), cycle);
            assert_int_equal(h.ops->access(&h, &r), cycle + L);
            assert_int_equal(f.ops->access(&f, &r), cycle + L);
        }
    assert_int_equal(h.accesses, f.accesses);
    h.ops->fini(&h);
    f.ops->fini(&f);
}

/* 16 KiB L1: a coalesced load misses (mem_latency), the same load later
 * hits (l1_latency); a second warp's load of the line in flight merges. */
static void test_l1_hit_miss_merge(void **state)
{
    (void)state;
    ws_mem m;
    const char *s[] = {"l1_kb=16", "l1_latency=28", "mem_latency=400", NULL};
    open_mem(&m, &ws_mem_hier, s, 1);
    ws_effect e;
    eff_of(&e, 1, 32, G, 4, 4, WS_SP_GLOBAL);                /* 1 line */
    assert_int_equal(acc(&m, 0, 0, 0, &e), 0 + L);
    assert_int_equal(acc(&m, 10, 0, 1, &e), 0 + L);          /* merged into the fill */
    assert_int_equal(acc(&m, 1000, 0, 0, &e), 1000 + 28);    /* hit */
    eff_of(&e, 1, 32, G, 8, 4, WS_SP_GLOBAL);                /* 2 lines: one hit, one miss */
    assert_int_equal(acc(&m, 2000, 0, 0, &e), 2000 + L);
    ws_value mt[WS_NMETRICS];
    memset(mt, 0, sizeof mt);
    mt[WS_M_cycles].i = 4000;
    mt[WS_M_warp_insts].i = 8;
    ws_mem_stats(&m, mt);
    /* line requests: 1 miss, 1 merge (counted as a miss), 1 hit, 1 hit + 1 miss */
    assert_true(mt[WS_M_l1_hit_rate].f == 2.0 / 5.0);
    assert_true(mt[WS_M_l1_mpki].f == 3 * 1000.0 / 8);
    assert_int_equal(mt[WS_M_gmem_lines].i, 1 + 1 + 1 + 2);
    assert_int_equal(mt[WS_M_dram_bytes].i, 2 * 128);         /* the merge moved nothing */
    assert_true(mt[WS_M_dram_utilization].f == 0);            /* unlimited */
    m.ops->fini(&m);
}

/* l1_mshrs 2: a 3-line load gets two MSHRs now, the third line waits for the
 * first to free at L and completes at 2L; meanwhile accept() tells a load to
 * retry at L, while stores and shared/param loads may go. */
static void test_mshr_full_retry(void **state)
{
    (void)state;
    ws_mem m;
    const char *s[] = {"l1_kb=16", "l1_mshrs=2", "mem_latency=400", NULL};
    open_mem(&m, &ws_mem_hier, s, 1);
    ws_inst ld = {0}, st = {0}, lds = {0};
    ld.op = WS_OP_LD; ld.space = WS_SP_GLOBAL;
    st.op = WS_OP_ST; st.space = WS_SP_GLOBAL;
    lds.op = WS_OP_LD; lds.space = WS_SP_SHARED;
    ws_mem_req q = {.cycle = 0, .core = 0, .warp = 0, .inst = &ld, .eff = NULL};
    assert_int_equal(ws_mem_accept(&m, &q), 0);
    ws_effect e;
    eff_of(&e, 1, 3, G, 128, 4, WS_SP_GLOBAL);               /* 3 lines */
    assert_int_equal(acc(&m, 0, 0, 0, &e), 2 * L);
    q.cycle = 1;
    assert_int_equal(ws_mem_accept(&m, &q), L);              /* stall, retry at L */
    q.inst = &st;
    assert_int_equal(ws_mem_accept(&m, &q), 1);
    q.inst = &lds;
    assert_int_equal(ws_mem_accept(&m, &q), 1);
    q.inst = &ld;
    q.cycle = L;
    assert_int_equal(ws_mem_accept(&m, &q), L);              /* both first MSHRs free at L */
    eff_of(&e, 1, 1, G, 0, 4, WS_SP_GLOBAL);                 /* line 0: filled at L -> hit */
    assert_int_equal(acc(&m, L, 0, 0, &e), L + 28);
    m.ops->fini(&m);
}

/* Stores: write-through, no-write-allocate, bytes = 32-byte sectors.
 * Atomics: bypass the L1; lanes on one address travel in separate
 * transactions (hier.c atom_transactions). */
static void test_store_atomic(void **state)
{
    (void)state;
    ws_mem m;
    const char *s[] = {"l1_kb=16", "mem_latency=400", "dram_bw=32", NULL};
    open_mem(&m, &ws_mem_hier, s, 1);
    ws_effect e;
    eff_of(&e, 2, 32, G, 4, 4, WS_SP_GLOBAL);                /* 128 B = 4 sectors, 1 line */
    assert_int_equal(acc(&m, 0, 0, 0, &e), 0 + 128 / 32 + L);
    eff_of(&e, 1, 32, G, 4, 4, WS_SP_GLOBAL);                /* not allocated: a miss */
    assert_int_equal(acc(&m, 1000, 0, 0, &e), 1000 + 4 + L);
    assert_int_equal(acc(&m, 2000, 0, 0, &e), 2000 + 28);    /* now it hits */
    eff_of(&e, 2, 1, G + 8, 0, 4, WS_SP_GLOBAL);             /* 1 lane: 1 sector = 32 B = 1 cycle */
    assert_int_equal(acc(&m, 3000, 0, 0, &e), 3000 + 1 + L);
    eff_of(&e, 3, 32, G, 0, 4, WS_SP_GLOBAL);                /* atomic on a cached line: memory; 32 lanes */
    assert_int_equal(acc(&m, 4000, 0, 0, &e), 4000 + 32 + L); /* on one address: 32 transactions x 32 B */
    eff_of(&e, 2, 32, G, 128, 4, WS_SP_GLOBAL);              /* stride 32 words: 32 lines x 1 sector */
    assert_int_equal(acc(&m, 5000, 0, 0, &e), 5000 + 32 + L);
    ws_value mt[WS_NMETRICS];
    memset(mt, 0, sizeof mt);
    mt[WS_M_cycles].i = 6000;
    mt[WS_M_warp_insts].i = 6;
    ws_mem_stats(&m, mt);
    int64_t bytes = 128 + 128 + 32 + 32 * 32 + 32 * 32;
    assert_int_equal(mt[WS_M_dram_bytes].i, bytes);
    assert_true(mt[WS_M_dram_utilization].f == (double)bytes / (32.0 * 6000));
    assert_true(mt[WS_M_l1_hit_rate].f == 0.5);              /* loads only: 1 miss, 1 hit */
    m.ops->fini(&m);
}

/* Several cores: private L1s, one DRAM channel served in call order. */
static void test_cores_share_dram(void **state)
{
    (void)state;
    ws_mem m;
    const char *s[] = {"l1_kb=16", "mem_latency=400", "dram_bw=32", NULL};
    open_mem(&m, &ws_mem_hier, s, 2);
    ws_effect e;
    eff_of(&e, 1, 32, G, 4, 4, WS_SP_GLOBAL);
    assert_int_equal(acc(&m, 0, 0, 0, &e), L + 4);
    assert_int_equal(acc(&m, 0, 1, 0, &e), L + 8);           /* core 1's L1 misses too; queued */
    eff_of(&e, 1, 32, G, 16, 4, WS_SP_GLOBAL);               /* 4 lines, line 0 hit on core 0 */
    assert_int_equal(acc(&m, 1000, 0, 0, &e), 1000 + 12 + L);
    m.ops->fini(&m);
}

/* Local memory is private per warp: the same offset in two warps is two lines. */
static void test_local_private(void **state)
{
    (void)state;
    ws_mem m;
    const char *s[] = {"l1_kb=16", "mem_latency=400", NULL};
    open_mem(&m, &ws_mem_hier, s, 1);
    ws_effect e;
    eff_of(&e, 1, 32, 16, 0, 4, WS_SP_LOCAL);
    assert_int_equal(acc(&m, 0, 0, 0, &e), L);
    assert_int_equal(acc(&m, 1, 0, 1, &e), 1 + L);           /* other warp: a miss, not a merge */
    assert_int_equal(acc(&m, 1000, 0, 0, &e), 1000 + 28);
    m.ops->fini(&m);
}

static void test_bad_config(void **state)
{
    (void)state;
    ws_config c = cfg_with((const char *[]){"l1_kb=1", "l1_ways=16", NULL});
    ws_mem m = {0};
    ws_error err = {{0}};
    m.ops = &ws_mem_hier;
    assert_true(m.ops->init(&m, &c, 1, &err) < 0);
    assert_non_null(strstr(err.msg, "l1_kb"));
    assert_null(m.state);
    c = cfg_with((const char *[]){"l1_line=96", NULL});
    assert_true(m.ops->init(&m, &c, 1, &err) < 0);
    assert_non_null(strstr(err.msg, "l1_line"));
    /* a model without statistics reports zeros */
    ws_mem f;
    open_mem(&f, &ws_mem_fixed, NULL, 1);
    ws_value mt[WS_NMETRICS];
    memset(mt, 0xff, sizeof mt);
    ws_mem_stats(&f, mt);
    assert_int_equal(mt[WS_M_dram_bytes].i, 0);
    assert_true(mt[WS_M_l1_hit_rate].f == 0);
    f.ops->fini(&f);
}

/* jitter (docs/noise.md): a read's or an atomic's reply is late by the next
 * draw of its core's stream, a store's ack is not. The draws are those of
 * tests/unit/jitter_model.py, an independent Python model of the generator:
 *   python3 tests/unit/jitter_model.py 0 0 8 16  -> core 0, seed 0
 *   python3 tests/unit/jitter_model.py 0 1 8 16  -> core 1, seed 0
 *   python3 tests/unit/jitter_model.py 5 0 8 16  -> core 0, seed 5
 * On the seed's memory (no L1, no L2, no bandwidth limit) a load or atomic at
 * t completes at t + 400 + draw, a store at t + 400. */
static void test_jitter(void **state)
{
    (void)state;
    static const uint64_t s0c0[] = {3, 2, 0, 5, 2, 4, 3, 5, 4, 8, 0, 5, 1, 0, 6, 6};
    static const uint64_t s0c1[] = {2, 6, 0, 0, 7, 4, 4, 2, 2, 2, 7, 2, 5, 6, 0, 7};
    static const uint64_t s5c0[] = {5, 7, 1, 4, 7, 4, 7, 5, 8, 8, 8, 2, 8, 5, 8, 0};
    const char *s0[] = {"mem_latency=400", "jitter=8", "seed=0", NULL};
    const char *s5[] = {"mem_latency=400", "jitter=8", "seed=5", NULL};
    ws_mem m;
    ws_effect ld, st, at;
    eff_of(&ld, 1, 1, G, 0, 4, WS_SP_GLOBAL);
    eff_of(&st, 2, 1, G, 0, 4, WS_SP_GLOBAL);
    eff_of(&at, 3, 1, G, 0, 4, WS_SP_GLOBAL);
    /* seed 0, two cores interleaved: loads, stores and atomics on core 0, loads on core 1 */
    open_mem(&m, &ws_mem_hier, s0, 2);
    unsigned d0 = 0, d1 = 0;
    for (uint64_t k = 0; k < 16; k++) {
        uint64_t t = 1000 * k;
        if (k % 4 == 1)
            assert_int_equal(acc(&m, t, 0, 0, &st), t + L);                 /* no draw */
        else
            assert_int_equal(acc(&m, t, 0, 0, k % 4 == 3 ? &at : &ld), t + L + s0c0[d0++]);
        assert_int_equal(acc(&m, t + 1, 1, 0, &ld), t + 1 + L + s0c1[d1++]);
    }
    m.ops->fini(&m);
    /* another seed, another stream */
    open_mem(&m, &ws_mem_hier, s5, 1);
    for (uint64_t k = 0; k < 16; k++)
        assert_int_equal(acc(&m, 1000 * k, 0, 0, &ld), 1000 * k + L + s5c0[k]);
    m.ops->fini(&m);
}

/* l2_dirty_end_bytes (issue 46 item 7): the dirty bytes a write-back L2 holds at the end, the
 * eventual DRAM write-back that dram_bytes leaves out. A 1 KiB L2 of 128-byte lines, 8 ways:
 * one set of 8 lines, 32-byte sectors. By hand:
 *   a 1-lane store at G:                            1 sector dirty                =  32 B
 *   a 32-lane x 4-byte store at G + 128 (line 1):   4 sectors                     = 128 B -> 160
 *   the same store again:                           the same sectors              -> 160
 *   1-lane stores to lines 2..8 (7 more lines):     7 sectors                     -> 384
 *     line 8 is the 9th line of the set: LRU line 0 (1 sector) is evicted and written back:
 *     dirty 384 - 32 = 352, dram_bytes 32 (stores only: no loads were made)
 *   with l2_write=through nothing stays dirty: 0. */
static void test_l2_dirty_end(void **state)
{
    (void)state;
    for (int through = 0; through < 2; through++) {
        const char *s[] = {"sector_bytes=32", "l2_kb=1", "l2_ways=8", "l2_slices=1", "l1_line=128",
                           through ? "l2_write=through" : "l2_write=back", NULL};
        ws_mem m;
        open_mem(&m, &ws_mem_hier, s, 1);
        ws_effect e;
        ws_value mt[WS_NMETRICS];
        eff_of(&e, 2, 1, G, 0, 4, WS_SP_GLOBAL);
        acc(&m, 0, 0, 0, &e);
        eff_of(&e, 2, 32, G + 128, 4, 4, WS_SP_GLOBAL);
        acc(&m, 1000, 0, 0, &e);
        acc(&m, 2000, 0, 0, &e);
        memset(mt, 0, sizeof mt);
        mt[WS_M_cycles].i = 3000;
        ws_mem_stats(&m, mt);
        assert_int_equal(mt[WS_M_l2_dirty_end_bytes].i, through ? 0 : 160);
        for (uint64_t line = 2; line <= 8; line++) {
            eff_of(&e, 2, 1, G + 128 * line, 0, 4, WS_SP_GLOBAL);
            acc(&m, 1000 * (line + 1), 0, 0, &e);
        }
        memset(mt, 0, sizeof mt);
        mt[WS_M_cycles].i = 10000;
        ws_mem_stats(&m, mt);
        assert_int_equal(mt[WS_M_l2_dirty_end_bytes].i, through ? 0 : 352);
        if (!through)
            assert_int_equal(mt[WS_M_dram_bytes].i, 32);
        m.ops->fini(&m);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixed_equivalence),
        cmocka_unit_test(test_l1_hit_miss_merge),
        cmocka_unit_test(test_mshr_full_retry),
        cmocka_unit_test(test_store_atomic),
        cmocka_unit_test(test_cores_share_dram),
        cmocka_unit_test(test_local_private),
        cmocka_unit_test(test_bad_config),
        cmocka_unit_test(test_l1_events),
        cmocka_unit_test(test_jitter),
        cmocka_unit_test(test_l2_dirty_end),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
