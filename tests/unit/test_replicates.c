/* Configurations and intervals (src/store/replicates.c, docs/noise.md): the
 * Student-t quantile against scipy (an independent implementation), the
 * mean, deviation and half-width against hand arithmetic, and the tie and
 * front rules on constructed cases worked out in the comments. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "warpsweep/replicates.h"

/* python3 -c "from scipy.stats import t; print(repr(t.ppf(0.975, df)))" (scipy 1.10) */
static const struct { uint32_t df; double t; } t975[] = {
    {1, 12.706204736432095}, {2, 4.302652729911275}, {3, 3.182446305284263}, {4, 2.7764451051977987},
    {5, 2.5705818366147395}, {6, 2.4469118487916806}, {9, 2.2621571627409915}, {10, 2.2281388519649385},
    {29, 2.045229642132703}, {30, 2.0422724563012373}, {100, 1.9839715184496334}, {999, 1.9623414611334487},
    {2000, 1.9611508260994375}, {2001, 1.961150232622441}, {5000, 1.9604385517065075},
    {100000, 1.9599877075346093},
};

static void test_t_quantile(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof t975 / sizeof t975[0]; i++) {
        double got = rep_t975(t975[i].df);
        /* the exact CDF up to df 2000, the 1/df series beyond (its next term ~1e-16 at 2001) */
        if (fabs(got - t975[i].t) > 1e-9 * t975[i].t)
            fail_msg("t(0.975, %u) = %.17g, scipy %.17g", t975[i].df, got, t975[i].t);
    }
    assert_true(isnan(rep_t975(0)));
}

static void test_stat(void **state)
{
    (void)state;
    rep_stat s = {0};
    assert_true(isnan(rep_stat_half(&s)));
    rep_stat_add(&s, 4);
    /* one run: a mean, no interval */
    assert_true(s.n == 1 && s.mean == 4 && isnan(rep_stat_sd(&s)) && isnan(rep_stat_half(&s)));
    rep_stat_add(&s, 1);
    rep_stat_add(&s, 3);
    rep_stat_add(&s, 2);
    /* {4, 1, 3, 2}: mean 2.5; squared deviations 2.25 + 2.25 + 0.25 + 0.25 = 5; sd = sqrt(5/3) =
     * 1.2909944; half = t(0.975, 3) sd / sqrt(4) = 3.1824463 x 1.2909944 / 2 = 2.0542632 */
    assert_true(s.n == 4);
    assert_true(fabs(s.mean - 2.5) < 1e-15);
    assert_true(fabs(rep_stat_sd(&s) - sqrt(5.0 / 3)) < 1e-14);
    assert_true(fabs(rep_stat_half(&s) - 3.182446305284263 * sqrt(5.0 / 3) / 2) < 1e-9);
    /* large constant offsets: Welford keeps the deviation (1e9 + {0, 1, 2}: sd 1) */
    rep_stat b = {0};
    for (int i = 0; i < 3; i++) rep_stat_add(&b, 1e9 + i);
    assert_true(fabs(rep_stat_sd(&b) - 1) < 1e-6);
}

static void test_ties(void **state)
{
    (void)state;
    /* lowest first: the best is 3 (98, one run: half-width 0).
     *   0: 100 +- 2:   |100 - 98| = 2 <= 2 + 0: touches, tied
     *   1: 101 +- 1.5: 3 > 1.5: apart
     *   2: 105 +- 1:   7 > 1: apart
     * tied {0, 3}: two */
    const double mean[] = {100, 101, 105, 98}, half[] = {2, 1.5, 1, NAN};
    uint8_t tied[4];
    assert_int_equal(rep_ties(4, mean, half, 3, tied), 2);
    assert_true(tied[0] == 1 && tied[1] == 0 && tied[2] == 0 && tied[3] == 1);
    /* best 0 (a maximised metric, say): 101 +- 1.5 overlaps 100 +- 2 (1 <= 3.5); 105 +- 1
     * overlaps (5 <= 3? no); 98: |2| <= 2 + 0, tied. {0, 1, 3} */
    assert_int_equal(rep_ties(4, mean, half, 0, tied), 3);
    assert_true(tied[0] == 1 && tied[1] == 1 && tied[2] == 0 && tied[3] == 1);
    /* a best alone: none tied, not even itself */
    const double m2[] = {10, 20}, h2[] = {1, 1};
    assert_int_equal(rep_ties(2, m2, h2, 0, tied), 0);
    assert_true(tied[0] == 0 && tied[1] == 0);
}

static void test_front(void **state)
{
    (void)state;
    /* keys smaller-better: x = area, y = -throughput. Five configurations:
     *   0: (1, -10) h (0, 0.5)     front (least area)
     *   1: (2, -20) h (0, 0.5)     front (more throughput)
     *   2: (2, -19.8) h (0, 0.5)   dominated by 1 on means (same x, y worse by 0.2) but its
     *                              interval overlaps 1's (0.2 < 1): REP_NOISE
     *   3: (3, -15) h (0, 0.5)     dominated by 1 beyond noise: 2 + 0 <= 3 - 0, -20 + 0.5 <= -15 - 0.5
     *   4: (1.5, -9.9) h (0, 0.2)  dominated by 0 on means (1 < 1.5, -10 < -9.9); y intervals
     *                              [-10.5, -9.5] and [-10.1, -9.7] overlap, and 1 (y -20) is at
     *                              x 2 > 1.5: no dominator beyond noise, REP_NOISE */
    const double kx[] = {1, 2, 2, 3, 1.5}, hx[] = {0, 0, 0, 0, 0};
    const double ky[] = {-10, -20, -19.8, -15, -9.9}, hy[] = {0.5, 0.5, 0.5, 0.5, 0.2};
    uint8_t cls[5];
    assert_int_equal(rep_front(5, kx, hx, ky, hy, cls), 0);
    assert_int_equal(cls[0], REP_FRONT);
    assert_int_equal(cls[1], REP_FRONT);
    assert_int_equal(cls[2], REP_NOISE);
    assert_int_equal(cls[3], REP_DOMINATED);
    assert_int_equal(cls[4], REP_NOISE);
    /* the same means with no noise (half-widths 0, or NaN: single runs): nothing is REP_NOISE,
     * and the front is the plain Pareto front {0, 1} */
    const double z[] = {0, 0, 0, 0, 0}, nan5[] = {NAN, NAN, NAN, NAN, NAN};
    assert_int_equal(rep_front(5, kx, z, ky, nan5, cls), 0);
    assert_true(cls[0] == REP_FRONT && cls[1] == REP_FRONT && cls[2] == REP_DOMINATED && cls[3] == REP_DOMINATED
                && cls[4] == REP_DOMINATED);
    /* equal means are all on the front */
    const double ex[] = {1, 1}, ey[] = {5, 5};
    assert_int_equal(rep_front(2, ex, z, ey, z, cls), 0);
    assert_true(cls[0] == REP_FRONT && cls[1] == REP_FRONT);
}

static void test_index(void **state)
{
    (void)state;
    rep_index ix = {0};
    int added;
    /* 5000 keys: the table grows past its first 1024 slots several times */
    for (uint64_t i = 0; i < 5000; i++) {
        assert_int_equal(rep_index_get(&ix, (rep_key){i * 0x9e3779b97f4a7c15ull, i}, &added), (int64_t)i);
        assert_true(added);
    }
    for (uint64_t i = 0; i < 5000; i += 7) {
        assert_int_equal(rep_index_get(&ix, (rep_key){i * 0x9e3779b97f4a7c15ull, i}, &added), (int64_t)i);
        assert_false(added);
    }
    assert_int_equal(rep_index_find(&ix, (rep_key){1, 2}), -1);
    rep_index_free(&ix);
    /* rows differing only in seed share a key; another parameter or workload does not */
    ws_row *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
    a->params[WS_P_warps].i = 32;
    *b = *a;
    b->params[WS_P_seed].i = 5;
    b->seed = 5;
    rep_key ka = rep_key_of(a, 0, 0), kb = rep_key_of(b, 0, 0);
    assert_true(ka.a == kb.a && ka.b == kb.b);
    kb = rep_key_of(b, 0, 1);   /* a ranking split by seed keeps them apart */
    assert_false(ka.a == kb.a && ka.b == kb.b);
    kb = rep_key_of(b, 0, 0);
    assert_true(ka.a == kb.a && ka.b == kb.b);
    kb = rep_key_of(b, 1, 0);
    assert_false(ka.a == kb.a && ka.b == kb.b);
    b->params[WS_P_warps].i = 48;
    kb = rep_key_of(b, 0, 0);
    assert_false(ka.a == kb.a && ka.b == kb.b);
    free(a);
    free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_t_quantile),
        cmocka_unit_test(test_stat),
        cmocka_unit_test(test_ties),
        cmocka_unit_test(test_front),
        cmocka_unit_test(test_index),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
