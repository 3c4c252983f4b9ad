/*
 * Warp schedulers on hand-built state: the priority lists each policy must
 * produce (GPGPU-Sim definitions, docs/model.md), independent of the core.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "sim/core_internal.h"

#define CAP 16
static uint32_t a_res[CAP], a_age[CAP], a_prio[CAP], a_fifo[CAP];
static ws_cwarp fake_warps[CAP];
static ws_core fake_core;

static ws_sched mk(const ws_sched_ops *ops, uint32_t limit)
{
    ws_sched s;
    memset(&s, 0, sizeof s);
    memset(fake_warps, 0, sizeof fake_warps);
    fake_core.warps = fake_warps;
    s.ops = ops;
    s.core = &fake_core;
    s.cap = CAP;
    s.res = a_res; s.age = a_age; s.prio = a_prio; s.fifo = a_fifo;
    s.limit = limit;
    s.dirty = 1;
    return s;
}

static void order(ws_sched *s, uint64_t now, uint32_t *out, uint32_t *n)
{
    const uint32_t *l;
    uint32_t start;
    *n = s->ops->order(s, now, &l, &start);
    for (uint32_t i = 0; i < *n; i++) out[i] = l[(start + i) % *n];
}

#define ASSERT_ORDER(s, now, ...)                                          \
    do {                                                                   \
        uint32_t want[] = {__VA_ARGS__}, got[CAP], n;                      \
        order(s, now, got, &n);                                            \
        assert_int_equal(n, sizeof want / sizeof want[0]);                 \
        for (uint32_t i = 0; i < n; i++) assert_int_equal(got[i], want[i]); \
    } while (0)

static void test_lrr(void **st)
{
    (void)st;
    ws_sched s = mk(&ws_sched_lrr, 0);
    /* scheduler 1 of 2: slots 1, 3, 5, 7, launched in the order 5, 1, 7, 3 */
    s.ops->add(&s, 5); s.ops->add(&s, 1); s.ops->add(&s, 7); s.ops->add(&s, 3);
    ASSERT_ORDER(&s, 0, 1, 3, 5, 7);          /* nothing issued yet: slot order */
    s.ops->issued(&s, 3, 0);
    ASSERT_ORDER(&s, 1, 5, 7, 1, 3);          /* starts after the last issued */
    s.ops->issued(&s, 7, 1);
    ASSERT_ORDER(&s, 2, 1, 3, 5, 7);          /* wraps */
    s.ops->remove(&s, 1);
    s.ops->issued(&s, 5, 2);
    ASSERT_ORDER(&s, 3, 7, 3, 5);
    s.ops->remove(&s, 5);                     /* last issued left: next one after it */
    ASSERT_ORDER(&s, 4, 7, 3);
}

static void test_gto_oldest(void **st)
{
    (void)st;
    ws_sched s = mk(&ws_sched_gto, 0);
    s.ops->add(&s, 4); s.ops->add(&s, 0); s.ops->add(&s, 2);   /* ages: 4 oldest */
    ASSERT_ORDER(&s, 0, 4, 0, 2);
    s.ops->issued(&s, 2, 0);
    ASSERT_ORDER(&s, 1, 2, 4, 0);             /* greedy, then oldest */
    s.ops->issued(&s, 0, 1);
    ASSERT_ORDER(&s, 2, 0, 4, 2);
    s.ops->remove(&s, 0);
    ASSERT_ORDER(&s, 3, 4, 2);
    ws_sched o = mk(&ws_sched_oldest, 0);
    o.ops->add(&o, 4); o.ops->add(&o, 0); o.ops->add(&o, 2);
    o.ops->issued(&o, 2, 0);
    ASSERT_ORDER(&o, 1, 4, 0, 2);             /* oldest ignores who issued */
}

static void park(uint32_t w, int parked);

/* gto and oldest against GPGPU-Sim's scheduler_unit::order_by_priority
 * (shader.cc): gto = the last-issued warp first, whatever its state, then
 * the others oldest first (sort_warps_by_oldest_dynamic_id; dynamic warp id
 * = launch order); oldest = the sort alone.  GPGPU-Sim sorts warps waiting at
 * a barrier or done last; here they keep their age place and the core skips
 * them, so the warp that issues is the same.  Launch order 3, 1, 2, 0:
 *   nothing issued:           gto 3 1 2 0 (GPGPU-Sim's greedy entry starts
 *                             at the first supervised slot: 0 3 1 2)
 *   2 issues:                 2 3 1 0   (greedy even though it is young)
 *   2 parks at a barrier:     2 3 1 0   (still listed first; it cannot issue,
 *                             3 does: GPGPU-Sim 2 3 1 0 as well)
 *   3 issues:                 3 1 2 0   (GPGPU-Sim 3 1 0 2: 2 is waiting)
 *   3 finishes:               1 2 0     (no greedy warp: GPGPU-Sim keeps
 *                             the slot greedy for the next warp in it)
 *   oldest, any issue:        3 1 2 0 */
static void test_gto_gpgpusim(void **st)
{
    (void)st;
    ws_sched s = mk(&ws_sched_gto, 0);
    s.ops->add(&s, 3); s.ops->add(&s, 1); s.ops->add(&s, 2); s.ops->add(&s, 0);
    ASSERT_ORDER(&s, 0, 3, 1, 2, 0);
    s.ops->issued(&s, 2, 0);
    ASSERT_ORDER(&s, 1, 2, 3, 1, 0);
    park(2, 1);                     /* gto has no parking hook: nothing to tell */
    ASSERT_ORDER(&s, 2, 2, 3, 1, 0);
    s.ops->issued(&s, 3, 2);
    ASSERT_ORDER(&s, 3, 3, 1, 2, 0);
    s.ops->remove(&s, 3);
    ASSERT_ORDER(&s, 4, 1, 2, 0);
    ws_sched o = mk(&ws_sched_oldest, 0);
    o.ops->add(&o, 3); o.ops->add(&o, 1); o.ops->add(&o, 2); o.ops->add(&o, 0);
    o.ops->issued(&o, 0, 0);
    ASSERT_ORDER(&o, 1, 3, 1, 2, 0);
}

static void test_swl(void **st)
{
    (void)st;
    ws_sched s = mk(&ws_sched_swl, 2);
    s.ops->add(&s, 6); s.ops->add(&s, 1); s.ops->add(&s, 3); s.ops->add(&s, 0);
    ASSERT_ORDER(&s, 0, 6, 1);                /* only the 2 oldest */
    s.ops->issued(&s, 1, 0);
    ASSERT_ORDER(&s, 1, 1, 6);
    s.ops->remove(&s, 6);
    ASSERT_ORDER(&s, 2, 1, 3);                /* the next oldest enters the window */
}

/* ccws state comes from ops->setup through an allocator: a static arena. */
static _Alignas(64) unsigned char arena[1 << 16];
static size_t arena_used;
static void *arena_take(void *ctx, size_t n)
{
    (void)ctx;
    n = (n + 63) & ~(size_t)63;
    if (arena_used + n > sizeof arena) return NULL;
    void *p = arena + arena_used;
    arena_used += n;
    return p;
}

static ws_sched mk_setup(const ws_sched_ops *ops, const char *const *sets)
{
    ws_sched s = mk(ops, 0);
    ws_config cfg;
    ws_config_defaults(&cfg);
    for (; *sets; sets++) {
        ws_error err;
        if (ws_config_set(&cfg, *sets, &err) != 0) fail_msg("%s: %s", *sets, err.msg);
    }
    arena_used = 0;
    assert_int_equal(s.ops->setup(&s, &cfg, arena_take, NULL), 0);
    return s;
}

static ws_sched mk_ccws(const char *const *sets) { return mk_setup(&ws_sched_ccws, sets); }

static void mev(ws_sched *s, uint32_t kind, uint64_t line, uint32_t warp, uint64_t now)
{
    ws_mem_event e = {.line = line, .warp = warp, .kind = kind};
    s->ops->mem_event(s, &e, now);
}

/* Which of warps 0..3 may issue their global loads now (bit w: warp w)? */
static void assert_loads(ws_sched *s, uint64_t now, uint32_t want)
{
    for (uint32_t w = 0; w < 4; w++)
        if (s->ops->may_issue_load(s, w, now) != (int)(want >> w & 1))
            fail_msg("t%llu: warp %u may_issue_load %d, want %d", (unsigned long long)now, w,
                     !(want >> w & 1), (int)(want >> w & 1));
}

/* ccws, 4 warps (0 oldest), base 100, KThrottle 2, decay 1 point/cycle,
 * VTA of 4 tags in 2 ways (2 sets: even and odd lines).  Cutoff = 4 x 100 =
 * 400.  A VTA hit sets the warp's score to LLDS = VTA hits x KThrottle x
 * cutoff / instructions issued (Equation 1), at least the base.  Walking the
 * stack, a warp may load if the scores before it sum to less than the
 * cutoff (the warp reaching the cutoff is in).  The order
 * is always GTO over all four warps (throttled warps issue their other
 * instructions); the cutoff decides whose loads may issue.  By hand:
 *   t0: 4 instructions issued (warp 0); all scores 100, the stack is exactly
 *       the cutoff: GTO 0 1 2 3, every warp may load
 *   line 10 (warp 2's) is evicted: it enters warp 2's VTA; warp 1 missing
 *       on line 10 is no VTA hit (not in its VTA), nor is warp 2 hitting it
 *       (an own hit: no miss)
 *   t1: warp 2 misses on line 10: hit 1, LLDS = 1 x 2 x 400 / 4 = 200.
 *       Stack 2 (200), 0, 1, 3 (100, oldest first): cumulative 200, 300,
 *       400, 500 > 400: 3's loads held; loads: 0 1 2
 *       again (the tag stays): hit 2, LLDS = 400: the stack is full at 2
 *       (the first always may): loads: 2
 *   t101: 400 - 100 = 300: 2 and 0 fit (400): loads 0 2; the next event is
 *       the next cycle (held loads while a score decays)
 *       0 parked at a CTA barrier takes no share: 2, 0 (free), 1 (400): 0 1 2
 *   2 issues at 101 (5 instructions).  t301: 300 - 200 = 100: GTO 2 0 1 3,
 *       all load
 *   warp 0's lines 0, 2, 4 (set 0 of its VTA) are evicted: 4 replaces 0
 *       (LRU).  Miss on 0: no hit.  Miss on 2: hit 3, LLDS = 3 x 2 x 400 /
 *       5 = 480 > 400: only 0 loads.  Miss on 4: hit 4, LLDS 640: 0
 *   t700: 640 - 399 = 241: 0 (241), 1 (341), 2 (441 reaches 400): loads
 *       0 1 2; 3 is held (and the greedy warp 2 stays first in the order) */
static void test_ccws(void **st)
{
    (void)st;
    const char *sets[] = {"ccws_base_score=100", "ccws_kthrottle=2", "ccws_decay=1", "ccws_vta_entries=4",
                          "ccws_vta_ways=2", NULL};
    ws_sched s = mk_ccws(sets);
    for (uint32_t w = 0; w < 4; w++) { s.ops->add(&s, w); park(w, 0); }
    for (int i = 0; i < 4; i++) s.ops->issued(&s, 0, 0);
    ASSERT_ORDER(&s, 0, 0, 1, 2, 3);
    assert_loads(&s, 0, 0xf);
    mev(&s, WS_MEV_EVICT, 10, 2, 0);
    mev(&s, WS_MEV_MISS, 10, 1, 0);
    assert_loads(&s, 0, 0xf);
    mev(&s, WS_MEV_OWN_HIT, 10, 2, 0);          /* a hit is no lost locality, even on a VTA tag */
    assert_loads(&s, 0, 0xf);
    mev(&s, WS_MEV_MISS, 10, 2, 1);
    ASSERT_ORDER(&s, 1, 0, 1, 2, 3);
    assert_loads(&s, 1, 0x7);
    assert_false(s.ops->eligible(&s, 3));
    assert_true(s.ops->eligible(&s, 2));
    mev(&s, WS_MEV_MISS, 10, 2, 1);
    ASSERT_ORDER(&s, 1, 0, 1, 2, 3);
    assert_loads(&s, 1, 0x4);
    assert_loads(&s, 101, 0x5);
    assert_int_equal(s.ops->next_event(&s, 101), 102);
    park(0, 1); s.ops->parking(&s, 0);
    assert_loads(&s, 101, 0x7);
    park(0, 0); s.ops->parking(&s, 0);
    assert_loads(&s, 101, 0x5);
    s.ops->issued(&s, 2, 101);
    ASSERT_ORDER(&s, 301, 2, 0, 1, 3);
    assert_loads(&s, 301, 0xf);
    assert_int_equal(s.ops->next_event(&s, 301), UINT64_MAX);
    mev(&s, WS_MEV_EVICT, 0, 0, 301);
    mev(&s, WS_MEV_EVICT, 2, 0, 301);
    mev(&s, WS_MEV_EVICT, 4, 0, 301);
    mev(&s, WS_MEV_MISS, 0, 0, 301);
    assert_loads(&s, 301, 0xf);
    mev(&s, WS_MEV_MISS, 2, 0, 301);
    ASSERT_ORDER(&s, 301, 2, 0, 1, 3);
    assert_loads(&s, 301, 0x1);
    mev(&s, WS_MEV_MISS, 4, 0, 301);
    assert_loads(&s, 301, 0x1);
    ASSERT_ORDER(&s, 700, 2, 0, 1, 3);
    assert_loads(&s, 700, 0x7);
}

/* ccws holds only loads: one issue per cycle, a warp's instructions in order
 * ('a' ALU, 'l' global load), each ready the cycle after the previous one;
 * the first warp of the order that may issue its next instruction does.
 * Base 100, KThrottle 8, decay 1/cycle, 2 warps: cutoff 200.  Warp 0 issued
 * 4 instructions; at t0 warp 1 misses on its evicted line 5: a VTA hit,
 * LLDS = 1 x 8 x 200 / 4 = 400.  Stack 1 (400 - t at cycle t), then 0: warp
 * 0 may load once warp 1's score is below the cutoff: 400 - t < 200 from
 * t201.  Warp 0 runs "aal", warp 1 "l"; order GTO, warp 0 greedy:
 *   t1: 0 issues a (a throttled warp's ALU work goes on)   t2: 0 issues a
 *   t3: 0's load is held, 1 issues its load
 *   t4..t200: nothing issues (0 held; the next event is every cycle)
 *   t201: 0's load issues
 * Equation 1 counts the resident warps only: warp 1 leaves (its hit and its
 * instruction go), warp 2 arrives; at t300 warp 0 (7 instructions) hits its
 * VTA: LLDS = 1 x 8 x 200 / 7 = 228 (with warp 1's counts it would be
 * 2 x 8 x 200 / 8 = 400).  Warp 2 is held until 228 - d < 200: d = 29. */
static void test_ccws_holds_loads_only(void **st)
{
    (void)st;
    const char *sets[] = {"ccws_base_score=100", "ccws_kthrottle=8", "ccws_decay=1", "ccws_vta_entries=4",
                          "ccws_vta_ways=2", NULL};
    ws_sched s = mk_ccws(sets);
    for (uint32_t w = 0; w < 2; w++) { s.ops->add(&s, w); park(w, 0); }
    for (int i = 0; i < 4; i++) s.ops->issued(&s, 0, 0);
    mev(&s, WS_MEV_EVICT, 5, 1, 0);
    mev(&s, WS_MEV_MISS, 5, 1, 0);
    const char *prog[2] = {"aal", "l"};
    uint32_t pc[2] = {0, 0};
    uint64_t when[4];
    uint32_t who[4], n = 0;
    for (uint64_t now = 1; now <= 250 && n < 4; now++) {
        const uint32_t *l;
        uint32_t start, k = s.ops->order(&s, now, &l, &start);
        for (uint32_t i = 0; i < k; i++) {
            uint32_t w = l[(start + i) % k];
            char op = prog[w][pc[w]];
            if (!op || (op == 'l' && !s.ops->may_issue_load(&s, w, now))) continue;
            pc[w]++;
            when[n] = now; who[n++] = w;
            s.ops->issued(&s, w, now);
            break;
        }
        if (now == 100) assert_int_equal(s.ops->next_event(&s, now), 101);
    }
    assert_int_equal(n, 4);
    const uint64_t want_t[] = {1, 2, 3, 201};
    const uint32_t want_w[] = {0, 0, 1, 0};
    for (uint32_t i = 0; i < 4; i++) {
        assert_int_equal(when[i], want_t[i]);
        assert_int_equal(who[i], want_w[i]);
    }
    assert_int_equal(s.ops->next_event(&s, 201), UINT64_MAX);   /* nothing held any more */

    s.ops->remove(&s, 1);
    s.ops->add(&s, 2); park(2, 0);
    mev(&s, WS_MEV_EVICT, 7, 0, 300);
    mev(&s, WS_MEV_MISS, 7, 0, 300);
    assert_false(s.ops->may_issue_load(&s, 2, 300));
    assert_false(s.ops->may_issue_load(&s, 2, 328));
    assert_true(s.ops->may_issue_load(&s, 2, 329));
    assert_true(s.ops->may_issue_load(&s, 0, 329));
}

/* Warp w waits at a CTA barrier (every live lane held), or not. */
static void park(uint32_t w, int parked)
{
    fake_warps[w].live = 1;
    fake_warps[w].fw.valid = 1;
    fake_warps[w].held = parked ? 1 : 0;
    if (!parked) fake_warps[w].wake = 0;      /* as cta_release does */
}

static void wait_mem(uint32_t w, uint64_t until)
{
    fake_warps[w].wake = until;
    fake_warps[w].wake_reason = WS_STALL_MEM;
}

/* fetch_group, groups of 2: warps 0..5 form groups {0,1} {2,3} {4,5}.  The
 * first warp of each expected order is the one that issues in that cycle.
 *   t0: group 0 active, nothing issued yet           0 1 | 2 3 4 5
 *   t1: round-robin after 0 inside the group          1 0 | 2 3 4 5
 *   t2: after 1, wrapping inside the group            0 1 | ...
 *   t3: 0 and 1 wait on loads (until 100): group 0 is stalled, group 1
 *       takes over; 1 (last issued) is not in it: it starts at 2
 *                                                     2 3 | 4 5 0 1
 *   t4: after 2                                       3 2 | 4 5 0 1
 *   t5: 2 waits on a load (until 50), 3 is parked at a CTA barrier: group 1
 *       is stalled (a parked warp counts as a long wait), group 2 takes over
 *                                                     4 5 | 0 1 2 3
 *   t6: 4 waits on a dependency only: no switch       4 5 | 0 1 2 3
 *   t7: 4 and 5 wait on loads (200, 300): every group is stalled, group 2
 *       stays; the next event is the end of the earliest long wait outside
 *       it, warp 2's at 50 (3 is parked: no time event)
 *   t50: 2's load is back: group 0 is still stalled (until 100), group 1 is
 *       not: it takes over, round-robin after 2 (the last issued in it)
 *                                                     3 2 | 4 5 0 1 */
static void test_fetch_group(void **st)
{
    (void)st;
    ws_sched s = mk(&ws_sched_fetch_group, 2);
    for (uint32_t w = 0; w < 6; w++) s.ops->add(&s, w);
    ASSERT_ORDER(&s, 0, 0, 1, 2, 3, 4, 5);
    s.ops->issued(&s, 0, 0);
    ASSERT_ORDER(&s, 1, 1, 0, 2, 3, 4, 5);
    s.ops->issued(&s, 1, 1);
    ASSERT_ORDER(&s, 2, 0, 1, 2, 3, 4, 5);
    wait_mem(0, 100); wait_mem(1, 100);
    ASSERT_ORDER(&s, 3, 2, 3, 4, 5, 0, 1);
    s.ops->issued(&s, 2, 3);
    ASSERT_ORDER(&s, 4, 3, 2, 4, 5, 0, 1);
    wait_mem(2, 50); park(3, 1);
    ASSERT_ORDER(&s, 5, 4, 5, 0, 1, 2, 3);
    assert_int_equal(s.ops->next_event(&s, 5), UINT64_MAX);   /* group 2 can issue */
    fake_warps[4].wake = 10; fake_warps[4].wake_reason = WS_STALL_DEP;
    ASSERT_ORDER(&s, 6, 4, 5, 0, 1, 2, 3);
    wait_mem(4, 200); wait_mem(5, 300);
    ASSERT_ORDER(&s, 7, 4, 5, 0, 1, 2, 3);
    assert_int_equal(s.ops->next_event(&s, 7), 50);
    ASSERT_ORDER(&s, 50, 3, 2, 4, 5, 0, 1);
    assert_int_equal(s.group, 1);
    /* two schedulers: this one holds slots 1, 3, 5, 7 (local warps 0..3);
     * groups of 2 are {1, 3} and {5, 7} */
    ws_sched t = mk(&ws_sched_fetch_group, 2);
    t.stride = 2;
    t.ops->add(&t, 5); t.ops->add(&t, 1); t.ops->add(&t, 7); t.ops->add(&t, 3);
    ASSERT_ORDER(&t, 0, 1, 3, 5, 7);
    wait_mem(1, 100); wait_mem(3, 100);
    ASSERT_ORDER(&t, 1, 5, 7, 1, 3);
}

static void test_two_level(void **st)
{
    (void)st;
    ws_sched s = mk(&ws_sched_two_level, 2);
    for (uint32_t w = 0; w < 5; w++) s.ops->add(&s, w);      /* active {0,1}, FIFO 2,3,4 */
    ASSERT_ORDER(&s, 0, 0, 1);
    s.ops->issued(&s, 0, 0);
    ASSERT_ORDER(&s, 1, 1, 0);                /* round-robin in the active set */
    /* warp 1 waits on a load until cycle 100, warp 3 on one until 50 */
    fake_warps[1].wake = 100; fake_warps[1].wake_reason = WS_STALL_MEM;
    fake_warps[3].wake = 50; fake_warps[3].wake_reason = WS_STALL_MEM;
    /* 1 demoted to the FIFO tail; 2 (first ready pending) promoted; 3 skipped;
     * round-robin resumes after 0, the last issued */
    ASSERT_ORDER(&s, 2, 2, 0);
    assert_int_equal(s.nfifo, 3);
    assert_int_equal(s.fifo[s.fhead], 3);
    /* a dependency wait (not long latency) does not demote */
    fake_warps[0].wake = 10; fake_warps[0].wake_reason = WS_STALL_DEP;
    s.ops->issued(&s, 2, 2);
    ASSERT_ORDER(&s, 3, 0, 2);
    /* 2 starts waiting on memory: demoted; the first ready pending is 4 */
    fake_warps[2].wake = 80; fake_warps[2].wake_reason = WS_STALL_MEM;
    ASSERT_ORDER(&s, 4, 0, 4);
    /* next_event: the earliest end of a pending warp's wait (3 at 50) */
    assert_int_equal(s.ops->next_event(&s, 4), 50);
}


/* Issue 10, bug 4: a warp parked at a CTA barrier leaves the active set and
 * comes back, in FIFO order, once released.  Active set of 2, warps 0..3 of
 * one CTA reaching a bar.sync one after the other; the first warp of each
 * order is the one that issues (and parks) in that cycle.  Derived by hand:
 *   cycle 0: active {0,1}, FIFO 2,3            -> 0 issues, parks
 *   cycle 1: 0 demoted, 2 promoted: {1,2}       -> 1 issues, parks
 *   cycle 2: 1 demoted, 3 promoted (0 parked): {2,3} -> 2 issues, parks
 *   cycle 3: 2 demoted, nothing promotable: {3} -> 3 arrives last, releases all
 *   cycle 4: 0 promoted (FIFO head): {3,0}, round-robin after 3 -> 0, 3
 *   cycle 5: FIFO 1,2 wait for room; after 0 issued: 3, 0 */
static void test_two_level_barrier(void **st)
{
    (void)st;
    ws_sched s = mk(&ws_sched_two_level, 2);
    for (uint32_t w = 0; w < 4; w++) { s.ops->add(&s, w); park(w, 0); }
    ASSERT_ORDER(&s, 0, 0, 1);
    park(0, 1); s.ops->issued(&s, 0, 0);
    ASSERT_ORDER(&s, 1, 1, 2);
    park(1, 1); s.ops->issued(&s, 1, 1);
    ASSERT_ORDER(&s, 2, 2, 3);
    park(2, 1); s.ops->issued(&s, 2, 2);
    ASSERT_ORDER(&s, 3, 3);
    /* every pending warp is parked: nothing can change on its own, so time
     * may jump (before the fix: cycle 4, every cycle) */
    assert_int_equal(s.ops->next_event(&s, 3), UINT64_MAX);
    for (uint32_t w = 0; w < 3; w++) park(w, 0);   /* warp 3 arrives: released */
    s.ops->issued(&s, 3, 3);
    ASSERT_ORDER(&s, 4, 0, 3);
    assert_int_equal(s.nfifo, 2);
    assert_int_equal(s.fifo[s.fhead], 1);
    s.ops->issued(&s, 0, 4);
    ASSERT_ORDER(&s, 5, 3, 0);
    /* the active set is full: a ready pending warp is no event either */
    assert_int_equal(s.ops->next_event(&s, 5), UINT64_MAX);
}

/* The same class of bug in the other policies: lrr, gto and oldest list every
 * resident warp, so parked warps (skipped by the core while they wait) never
 * hide a CTA-mate; swl's window skips them. */
static void test_others_barrier(void **st)
{
    (void)st;
    const ws_sched_ops *full[] = {&ws_sched_lrr, &ws_sched_gto, &ws_sched_oldest};
    for (int i = 0; i < 3; i++) {
        ws_sched s = mk(full[i], 1);
        for (uint32_t w = 0; w < 3; w++) { s.ops->add(&s, w); park(w, 0); }
        park(0, 1); park(1, 1);
        s.ops->issued(&s, 1, 0);
        uint32_t got[CAP], n, seen = 0;
        order(&s, 1, got, &n);
        assert_int_equal(n, 3);
        for (uint32_t j = 0; j < n; j++) seen |= 1u << got[j];
        assert_int_equal(seen, 7);
    }
    ws_sched w = mk(&ws_sched_swl, 1);
    for (uint32_t x = 0; x < 3; x++) { w.ops->add(&w, x); park(x, 0); }
    ASSERT_ORDER(&w, 0, 0);
    park(0, 1); w.ops->parking(&w, 0);
    ASSERT_ORDER(&w, 1, 1);                   /* 0 parked: 1 takes its place */
    park(1, 1); w.ops->parking(&w, 1);
    ASSERT_ORDER(&w, 2, 2);
    park(0, 0); park(1, 0); w.ops->parking(&w, 0);
    ASSERT_ORDER(&w, 3, 0);                   /* released: the oldest again */
}

/* ccws, one point system per core (the authors' GPGPU-Sim: one
 * scheduling_point_system per shader core): 2 schedulers, warps 0 and 2 on
 * scheduler 0, 1 and 3 on scheduler 1 (slot w on w % 2), 0 oldest.  Base
 * 100, KThrottle 2: the cutoff is 4 x 100 = 400 over the core's 4 warps.
 *   4 instructions issued (warp 0).  Warp 1's line 10 is evicted, warp 1
 *   misses on it: hit 1, LLDS = 1 x 2 x 400 / 4 = 200 (per scheduler it
 *   would be 1 x 2 x 200 / 4 = 100, the base: nothing throttled).  Stack 1
 *   (200), 0, 2, 3: 200, 300, 400 reaches the cutoff at 2: 3 (scheduler 1)
 *   is held.  Again: hit 2, LLDS = 400: warp 1 alone fills the cutoff, and
 *   scheduler 0's warps 0 and 2 are held by scheduler 1's warp.
 *   t100 (100 points of decay since the hit at t0): 300: 1, then 0 (400):
 *   0 may load, 2 and 3 not. */
static uint32_t b_res[CAP], b_age[CAP], b_prio[CAP], b_fifo[CAP];

static void test_ccws_per_core(void **st)
{
    (void)st;
    const char *sets[] = {"ccws_base_score=100", "ccws_kthrottle=2", "ccws_decay=1", "ccws_vta_entries=4",
                          "ccws_vta_ways=2", NULL};
    ws_sched sc[2];
    sc[0] = mk(&ws_sched_ccws, 0);
    sc[1] = sc[0];
    sc[1].res = b_res; sc[1].age = b_age; sc[1].prio = b_prio; sc[1].fifo = b_fifo;
    ws_config cfg;
    ws_config_defaults(&cfg);
    for (const char *const *p = sets; *p; p++) {
        ws_error err;
        if (ws_config_set(&cfg, *p, &err) != 0) fail_msg("%s: %s", *p, err.msg);
    }
    arena_used = 0;
    fake_core.scheds = sc;
    for (uint32_t i = 0; i < 2; i++) {
        sc[i].id = i;
        sc[i].cap = CAP / 2;
        sc[i].stride = 2;
        assert_int_equal(sc[i].ops->setup(&sc[i], &cfg, arena_take, NULL), 0);
    }
    assert_ptr_equal(sc[0].pstate, sc[1].pstate);
    for (uint32_t w = 0; w < 4; w++) { sc[w % 2].ops->add(&sc[w % 2], w); park(w, 0); }
    for (int i = 0; i < 4; i++) sc[0].ops->issued(&sc[0], 0, 0);
    ASSERT_ORDER(&sc[0], 0, 0, 2);
    ASSERT_ORDER(&sc[1], 0, 1, 3);
    mev(&sc[1], WS_MEV_EVICT, 10, 1, 0);
    mev(&sc[1], WS_MEV_MISS, 10, 1, 0);
    assert_true(sc[0].ops->may_issue_load(&sc[0], 0, 0));
    assert_true(sc[0].ops->may_issue_load(&sc[0], 2, 0));
    assert_true(sc[1].ops->may_issue_load(&sc[1], 1, 0));
    assert_false(sc[1].ops->may_issue_load(&sc[1], 3, 0));
    mev(&sc[1], WS_MEV_MISS, 10, 1, 0);
    assert_false(sc[0].ops->may_issue_load(&sc[0], 0, 0));
    assert_false(sc[0].ops->may_issue_load(&sc[0], 2, 0));
    assert_true(sc[1].ops->may_issue_load(&sc[1], 1, 0));
    assert_false(sc[1].ops->may_issue_load(&sc[1], 3, 0));
    assert_true(sc[0].ops->may_issue_load(&sc[0], 0, 100));
    assert_false(sc[0].ops->may_issue_load(&sc[0], 2, 100));
    assert_false(sc[1].ops->may_issue_load(&sc[1], 3, 100));
    ASSERT_ORDER(&sc[0], 100, 0, 2);          /* the orders stay each scheduler's gto */
    fake_core.scheds = NULL;
}

/* daws: a 12-instruction kernel with two loops (bra at 9 back to 2: the
 * outer loop 2..9; bra at 6 back to 4: the inner loop 4..6; the forward bra
 * at 1 is no loop) and loads at 3 and 8 (outer), 5 (inner), 10 (no loop).
 * l1_kb 1, l1_line 128: the L1 holds 8 lines.  VTAs of 4 tags in 2 ways.
 * 4 warps, 0 oldest.  A warp's footprint: the loads with locality of the
 * loop of its last load, each converged one (last access 1 line) 1 line,
 * else ceil(lines x its lanes / lanes of that access).  Oldest first, warps
 * may load while the footprints fit 8 lines; the first that does not and
 * the younger ones are held; the oldest always may.  By hand:
 *   no locality yet: every footprint 0: loads 0 1 2 3
 *   0 and 1 load at 3 (2 lines, 32 lanes); 0 misses on line 50: not in its
 *     VTA, no locality: 0 1 2 3
 *   line 50 (0's) is evicted, 0 misses on it at 3: PC 3 has locality.
 *     0: 2, 1: 2 (last load at 3), 2 and 3: 0 (no load): 2 4 4 4: all load
 *   2's line 60 is evicted, 2 misses on it at 5 (1 line): PC 5 (inner loop)
 *     has locality: 2's footprint 1 (converged): 2 4 5 5: all load
 *   3 loads at 3 with 6 lines (memory divergence): 0: 6, 1: 6 -> 12 > 8:
 *     1 and the younger ones held: loads 0
 *   1 loads at 3 with 2 lines over 8 lanes (control divergence): 0 (32
 *     lanes) ceil(2 x 32 / 8) = 8 (the oldest, fits), 1: 2 -> 10: loads 0
 *   0 loads at 10 (no loop): 0: 0, 1: 2, 2: 1, 3 (32 lanes at 3): 8 -> 11:
 *     loads 0 1 2
 *   2 finishes: 0 + 2 + 8 = 10: 3 held; 1 parks at a CTA barrier (no share):
 *     0 + 8 = 8: all load; 1 unparks: 3 held again
 *   0 loads at 3 with 40 lines over 32 lanes: 0 alone exceeds 8 but is the
 *     oldest: loads 0 (1: ceil(40 x 8 / 32) = 10 held, 3 held)
 *   1 parks; 0 loads at 3 (32 lanes), then 3 with 2 lines over 10 lanes:
 *     0: ceil(2 x 32 / 10) = ceil(6.4) = 7, 3: 2 -> 9 > 8: 3 held
 * The order stays GTO over the resident warps (3 issued: 3 0 1). */
static ws_inst daws_insts[12];
static ws_kernel daws_kernel;
static ws_simrun daws_run;

static void access_at(ws_sched *s, uint32_t w, uint32_t pc, uint32_t lines, uint32_t lanes)
{
    s->ops->load_access(s, w, pc, lines, lanes, 0);
}

/* The kernel above, as the fake core's run. */
static void daws_kernel_setup(void)
{
    memset(daws_insts, 0, sizeof daws_insts);
    for (uint32_t i = 0; i < 12; i++) daws_insts[i].op = WS_OP_ADD;
    daws_insts[1] = (ws_inst){.op = WS_OP_BRA, .target = 11};
    daws_insts[6] = (ws_inst){.op = WS_OP_BRA, .target = 4};
    daws_insts[9] = (ws_inst){.op = WS_OP_BRA, .target = 2};
    daws_kernel.insts = daws_insts;
    daws_kernel.ninsts = 12;
    daws_run.k = &daws_kernel;
    daws_run.div = &ws_div_stack;   /* one split per warp: the core's parked test reads it */
    fake_core.run = &daws_run;
}

static void test_daws(void **st)
{
    (void)st;
    daws_kernel_setup();
    const char *sets[] = {"l1_kb=1", "l1_line=128", "ccws_vta_entries=4", "ccws_vta_ways=2", NULL};
    ws_sched s = mk_setup(&ws_sched_daws, sets);
    for (uint32_t w = 0; w < 4; w++) { s.ops->add(&s, w); park(w, 0); }
    ASSERT_ORDER(&s, 0, 0, 1, 2, 3);
    assert_loads(&s, 0, 0xf);
    access_at(&s, 0, 3, 2, 32);
    mev(&s, WS_MEV_MISS, 50, 0, 0);
    access_at(&s, 1, 3, 2, 32);
    assert_loads(&s, 0, 0xf);
    mev(&s, WS_MEV_EVICT, 50, 0, 0);
    access_at(&s, 0, 3, 2, 32);
    mev(&s, WS_MEV_MISS, 50, 0, 0);
    assert_loads(&s, 0, 0xf);
    mev(&s, WS_MEV_EVICT, 60, 2, 0);
    access_at(&s, 2, 5, 1, 32);
    mev(&s, WS_MEV_MISS, 60, 2, 0);
    assert_loads(&s, 0, 0xf);
    access_at(&s, 3, 3, 6, 32);
    assert_loads(&s, 0, 0x1);
    access_at(&s, 1, 3, 2, 8);
    assert_loads(&s, 0, 0x1);
    access_at(&s, 0, 10, 1, 32);
    assert_loads(&s, 0, 0x7);
    assert_false(s.ops->eligible(&s, 3));
    assert_true(s.ops->eligible(&s, 2));
    s.ops->remove(&s, 2);
    assert_loads(&s, 0, 0x7);                 /* 2 is gone: nothing holds it */
    park(1, 1); s.ops->parking(&s, 1);
    assert_loads(&s, 0, 0xf);
    park(1, 0); s.ops->parking(&s, 1);
    assert_loads(&s, 0, 0x7);
    access_at(&s, 0, 3, 40, 32);
    assert_loads(&s, 0, 0x5);
    park(1, 1); s.ops->parking(&s, 1);
    access_at(&s, 0, 3, 2, 32);
    access_at(&s, 3, 3, 2, 10);
    assert_loads(&s, 0, 0x7);
    s.ops->issued(&s, 3, 1);
    ASSERT_ORDER(&s, 1, 3, 0, 1);
    fake_core.run = NULL;
}

/* daws, locality from an own hit (the same 12-instruction kernel, 8 L1
 * lines): warps 0 and 1 load at 3 (outer loop) with 5 lines over 32 lanes:
 * no locality, both load.  Warp 1 hits a line it allocated (line 40) at 3:
 * PC 3 has locality, each warp predicts 5 lines: 5 + 5 > 8, 1 is held. */
static void test_daws_own_hit(void **st)
{
    (void)st;
    daws_kernel_setup();
    const char *sets[] = {"l1_kb=1", "l1_line=128", "ccws_vta_entries=4", "ccws_vta_ways=2", NULL};
    ws_sched s = mk_setup(&ws_sched_daws, sets);
    for (uint32_t w = 0; w < 2; w++) { s.ops->add(&s, w); park(w, 0); }
    access_at(&s, 0, 3, 5, 32);
    access_at(&s, 1, 3, 5, 32);
    assert_true(s.ops->may_issue_load(&s, 1, 0));
    mev(&s, WS_MEV_OWN_HIT, 40, 1, 0);
    assert_true(s.ops->may_issue_load(&s, 0, 0));
    assert_false(s.ops->may_issue_load(&s, 1, 0));
    fake_core.run = NULL;
}

/* The policy tables are the parameters' choices, row by row: a choice without a policy, or a
 * policy under another name, would run something else than the row says. */
static void test_policy_tables(void **st)
{
    (void)st;
    char buf[64];
    const ws_param_def *ps = &ws_params[WS_P_scheduler], *pd = &ws_params[WS_P_divergence];
    assert_int_equal(ws_sched_npolicies(), ps->nchoices);
    for (int i = 0; i < ps->nchoices; i++)
        assert_string_equal(ws_sched_policy(i)->name, ws_param_choice(WS_P_scheduler, i, buf, sizeof buf));
    assert_null(ws_sched_policy(ps->nchoices));
    assert_null(ws_sched_policy(-1));
    for (int i = 0; i < pd->nchoices; i++) {
        assert_non_null(ws_div_scheme(i));
        assert_string_equal(ws_div_scheme(i)->name, ws_param_choice(WS_P_divergence, i, buf, sizeof buf));
    }
    assert_null(ws_div_scheme(pd->nchoices));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_policy_tables),
        cmocka_unit_test(test_lrr),
        cmocka_unit_test(test_gto_oldest),
        cmocka_unit_test(test_gto_gpgpusim),
        cmocka_unit_test(test_swl),
        cmocka_unit_test(test_two_level),
        cmocka_unit_test(test_fetch_group),
        cmocka_unit_test(test_ccws),
        cmocka_unit_test(test_ccws_holds_loads_only),
        cmocka_unit_test(test_ccws_per_core),
        cmocka_unit_test(test_daws),
        cmocka_unit_test(test_daws_own_hit),
        cmocka_unit_test(test_two_level_barrier),
        cmocka_unit_test(test_others_barrier),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
