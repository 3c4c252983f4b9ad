/* Sweep files: parsing errors with exact file:line:col, value ranges,
 * derived values, expansion order, zip, excludes and counts, checked
 * against hand-worked values and a brute-force enumeration. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "warpsweep/sweep.h"

static ws_sweep *load_ok(const char *text)
{
    ws_sweep **sws;
    int n;
    ws_error err = {{0}};
    ws_sweep_opts o = {0};
    if (ws_sweep_load_text("t.yaml", text, strlen(text), NULL, &o, &sws, &n, &err)) {
        print_error("unexpected error: %s\n", err.msg);
        fail();
    }
    assert_int_equal(n, 1);
    ws_sweep *sw = sws[0];
    free(sws);
    return sw;
}

static void load_err(const char *text, const char *want)
{
    ws_sweep **sws;
    int n;
    ws_error err = {{0}};
    ws_sweep_opts o = {0};
    if (ws_sweep_load_text("t.yaml", text, strlen(text), NULL, &o, &sws, &n, &err) == 0) {
        print_error("expected error '%s', got none\n", want);
        ws_sweeps_free(sws, n);
        fail();
    }
    if (strncmp(err.msg, want, strlen(want)) != 0) {
        print_error("got  '%s'\nwant '%s...'\n", err.msg, want);
        fail();
    }
}

static int64_t val(const ws_sweep *sw, uint64_t k, const char *name)
{
    ws_point pt;
    ws_sweep_point(sw, k, &pt);
    return pt.cfg.v[ws_param_find(name)].i;
}

static void test_errors_positions(void **state)
{
    (void)state;
    load_err("workload: w.yaml\ngrid:\n  warpz: [1, 2]\n",
             "t.yaml:3:3: unknown parameter 'warpz' (did you mean 'warps'?)");
    load_err("workload: w.yaml\ngrid:\n  warps: [1, 0]\n",
             "t.yaml:3:14: parameter warps: 0 is out of range [1, 1024] warps");
    load_err("workload: w.yaml\ngrid:\n  warps: [1, two]\n",
             "t.yaml:3:14: parameter warps: 'two' is not an integer");
    load_err("workload: w.yaml\ngrid:\n  scheduler: [lrr, fifo]\n",
             "t.yaml:3:20: parameter scheduler: 'fifo' is not one of lrr|gto|two_level|oldest|swl");
    load_err("workload: w.yaml\nbase: {mem_latency: 0}\n",
             "t.yaml:2:21: parameter mem_latency: 0 is out of range [1, 100000] cycles");
    load_err("workload: w.yaml\ngrid:\n  mem_latency: {from: 100, to: 200000, step: 50000}\n",
             "t.yaml:3:32: parameter mem_latency: 200000 is out of range [1, 100000] cycles");
    load_err("workload: w.yaml\nzip:\n  - {warps: [1, 2, 4], mem_latency: [100, 200]}\n",
             "t.yaml:3:37: zip lists of unequal length: mem_latency has 2 values, warps (line 3) has 3");
    load_err("workload: w.yaml\ngrid: {}\n", "t.yaml:2:7: the grid is empty");
    load_err("workload: w.yaml\ngrid:\n  warps: []\n", "t.yaml:3:10: grid axis warps has no values");
    load_err("workload: w.yaml\ngird:\n  warps: [1]\n", "t.yaml:2:1: unknown key 'gird' (did you mean 'grid'?)");
    load_err("grid:\n  warps: [1]\n", "t.yaml:1:1: sweep t has no workload");
    load_err("workload: w.yaml\ngrid:\n  warps: [1, 2]\nbase2: 1\n", "t.yaml:4:1: unknown key 'base2' (did you mean 'base'?)");
    load_err("workload: w.yaml\nbase: {warps: 4}\ngrid:\n  warps: [1, 2]\n",
             "t.yaml:4:3: parameter warps is already set in base at line 2:8");
    load_err("workload: w.yaml\ngrid:\n  warps: [1, 2\n", "t.yaml:4:1: YAML: did not find expected ',' or ']'");
    load_err("workload: w.yaml\ngrid:\n  warps: {from: 1, to: 8, stride: 2}\n",
             "t.yaml:3:27: unknown range key 'stride' (did you mean 'step'?)");
    load_err("workload: w.yaml\ngrid:\n  scheduler: {from: 1, to: 3, step: 1}\n",
             "t.yaml:3:14: parameter scheduler is a choice: give a list of names");
    load_err("workload: w.yaml\ngrid:\n  warps: [1, 2]\nexclude:\n  - {warps: 3}\n",
             "t.yaml:5:13: exclude: warps=3 is not one of the sweep's values for warps");
    load_err("workload: w.yaml\ngrid:\n  warps: [1, 2]\nexclude:\n  - {cores: 3}\n",
             "t.yaml:5:6: exclude: cores does not vary in this sweep");
    ws_sweep *sw = load_ok("workload: w.yaml\ngrid:\n  warps: [1, 2]\nexclude:\n  - {warps: 1}\n  - {warps: 2}\n");
    ws_error err;
    assert_int_equal(sw->count, 0);
    assert_int_equal(ws_sweep_check_size(sw, 0, &err), -1);
    assert_string_equal(err.msg, "t.yaml:2:1: sweep t has no points (the excludes drop every one)");
    ws_sweep_free(sw);
    load_err("workload: w.yaml\nrepeat: 0\n", "t.yaml:2:9: repeat: expected an integer in [1, 1000000]");
    load_err("workload: w.yaml\nbase: {seed: 3}\nrepeat: 2\n", "t.yaml:3:9: repeat sets the seed of every point");
}

static void test_errors_derived(void **state)
{
    (void)state;
    /* column of the error = column of the name inside the quoted string */
    load_err("workload: w.yaml\nbase:\n  regfile_kb: \"=warps * warp_sise\"\n",
             "t.yaml:3:25: parameter regfile_kb: unknown name 'warp_sise' in expression (did you mean 'warp_size'?)");
    load_err("workload: w.yaml\nbase:\n  regfile_kb: =warps *\n",
             "t.yaml:3:23: parameter regfile_kb: unexpected end of expression");
    load_err("workload: w.yaml\nbase:\n  warps: \"=max_ctas * 2\"\n  max_ctas: \"=warps / 2\"\n",
             "t.yaml:4:15: derived values form a cycle: warps -> max_ctas -> warps");
    load_err("workload: w.yaml\nbase:\n  warps: \"=warps + 1\"\n", "t.yaml:3:12: derived values form a cycle: warps -> warps");
    load_err("workload: w.yaml\nbase:\n  scheduler: \"=1\"\n", "t.yaml:3:15: parameter scheduler is a choice");
    load_err("workload: w.yaml\nbase:\n  a: 1\n  b: \"=a\"\n", "t.yaml:3:3: unknown parameter 'a'");
}

static void test_streams(void **state)
{
    (void)state;
    const char *text = "name: one\nworkload: w.yaml\ngrid: {warps: [1, 2]}\n---\nname: two\nworkload: w.yaml\n"
                       "grid: {warps: [1, 2, 4]}\n";
    ws_sweep **sws;
    int n;
    ws_error err;
    ws_sweep_opts o = {0};
    assert_int_equal(ws_sweep_load_text("t.yaml", text, strlen(text), NULL, &o, &sws, &n, &err), 0);
    assert_int_equal(n, 2);
    assert_string_equal(sws[0]->name, "one");
    assert_int_equal(sws[1]->count, 3);
    assert_string_not_equal(sws[0]->hash, sws[1]->hash);
    ws_sweeps_free(sws, n);
    assert_int_equal(ws_sweep_load_text("t.yaml", text, strlen(text), "two", &o, &sws, &n, &err), 0);
    assert_int_equal(n, 1);
    assert_string_equal(sws[0]->name, "two");
    ws_sweeps_free(sws, n);
    assert_int_equal(ws_sweep_load_text("t.yaml", text, strlen(text), "three", &o, &sws, &n, &err), -1);
    assert_string_equal(err.msg, "t.yaml:1:1: no sweep named 'three' in this file (it has: one, two)");
    const char *dup = "name: one\nworkload: w.yaml\n---\nname: one\nworkload: w.yaml\n";
    assert_int_equal(ws_sweep_load_text("t.yaml", dup, strlen(dup), NULL, &o, &sws, &n, &err), -1);
    assert_string_equal(err.msg, "t.yaml:4:7: a sweep named one is already in this file");
}

static void test_sets(void **state)
{
    (void)state;
    const char *text = "workload: w.yaml\nbase: {mem_latency: 300}\ngrid: {warps: [1, 2]}\n";
    const char *sets[] = {"mem_latency=500", "scheduler=gto"};
    ws_sweep **sws;
    int n;
    ws_error err;
    ws_sweep_opts o = {sets, 2, 0};
    assert_int_equal(ws_sweep_load_text("t.yaml", text, strlen(text), NULL, &o, &sws, &n, &err), 0);
    assert_int_equal(val(sws[0], 1, "mem_latency"), 500);
    char h1[17];
    strcpy(h1, sws[0]->hash);
    ws_sweeps_free(sws, n);
    ws_sweep_opts o0 = {0};
    assert_int_equal(ws_sweep_load_text("t.yaml", text, strlen(text), NULL, &o0, &sws, &n, &err), 0);
    assert_int_equal(val(sws[0], 1, "mem_latency"), 300);
    assert_string_not_equal(h1, sws[0]->hash); /* --set changes the hash: no resume across it */
    ws_sweeps_free(sws, n);
    const char *bad[] = {"warps=4"};
    ws_sweep_opts ob = {bad, 1, 0};
    assert_int_equal(ws_sweep_load_text("t.yaml", text, strlen(text), NULL, &ob, &sws, &n, &err), -1);
    assert_string_equal(err.msg, "--set warps=4: warps is an axis of the sweep (t.yaml:3:8); --set overrides base only");
    const char *bad2[] = {"mem_latncy=4"};
    ws_sweep_opts ob2 = {bad2, 1, 0};
    assert_int_equal(ws_sweep_load_text("t.yaml", text, strlen(text), NULL, &ob2, &sws, &n, &err), -1);
    assert_string_equal(err.msg, "--set mem_latncy=4: unknown parameter 'mem_latncy' (did you mean 'mem_latency'?)");
}

static void test_ranges(void **state)
{
    (void)state;
    ws_sweep *sw = load_ok("workload: w.yaml\ngrid:\n  mem_latency: {from: 100, to: 800, step: 100}\n"
                           "  regfile_kb: {from: 32, to: 256, mul: 2}\n  max_ctas: {from: 8, to: 1, step: -3}\n");
    /* axes: workload, mem_latency(8), regfile_kb(4), max_ctas(3: 8,5,2), seed */
    assert_int_equal(sw->count, 8 * 4 * 3);
    assert_int_equal(sw->axes[1].n, 8);
    assert_int_equal(sw->axes[1].values[7].v.i, 800);
    assert_int_equal(sw->axes[2].n, 4);
    int64_t want_rf[] = {32, 64, 128, 256};
    for (int i = 0; i < 4; i++)
        assert_int_equal(sw->axes[2].values[i].v.i, want_rf[i]);
    assert_int_equal(sw->axes[3].n, 3);
    assert_int_equal(sw->axes[3].values[2].v.i, 2);
    ws_sweep_free(sw);
    /* a step that does not land on `to` stops below it */
    sw = load_ok("workload: w.yaml\ngrid:\n  mem_latency: {from: 100, to: 800, step: 300}\n");
    assert_int_equal(sw->count, 3); /* 100 400 700 */
    assert_int_equal(val(sw, 2, "mem_latency"), 700);
    ws_sweep_free(sw);
    load_err("workload: w.yaml\ngrid:\n  warps: {from: 1, to: 8, step: 0}\n", "t.yaml:3:33: parameter warps: step 0 never gets");
    load_err("workload: w.yaml\ngrid:\n  warps: {from: 1, to: 8, mul: 1.5}\n",
             "t.yaml:3:32: parameter warps is an integer: 1 * 1.5^k gives 1.5");
}

/* Mixed radix: last axis fastest; workload axis slowest; seed fastest. */
static void test_order(void **state)
{
    (void)state;
    ws_sweep *sw = load_ok("workload: [a.yaml, b.yaml]\ngrid:\n  warps: [1, 2, 4]\n  scheduler: [lrr, gto]\n"
                           "zip:\n  - {alu_latency: [1, 4], sfu_latency: [10, 20]}\nrepeat: 2\n");
    assert_int_equal(sw->count, 2 * 3 * 2 * 2 * 2);
    ws_point pt;
    /* point 13 = digits (workload 0, warps 1, scheduler 1, zip 0, seed 1):
       13 = ((0*3 + 1)*2 + 1)*4 + 0*2 + 1 */
    ws_sweep_point(sw, 13, &pt);
    assert_int_equal(pt.workload, 0);
    assert_int_equal(pt.cfg.v[ws_param_find("warps")].i, 2);
    assert_int_equal(pt.cfg.v[ws_param_find("scheduler")].i, 1); /* gto */
    assert_int_equal(pt.cfg.v[ws_param_find("alu_latency")].i, 1);
    assert_int_equal(pt.cfg.v[ws_param_find("sfu_latency")].i, 10);
    assert_int_equal(pt.seed, 1);
    ws_sweep_point(sw, 47, &pt); /* last point: everything at its last value */
    assert_int_equal(pt.workload, 1);
    assert_int_equal(pt.cfg.v[ws_param_find("warps")].i, 4);
    assert_int_equal(pt.cfg.v[ws_param_find("alu_latency")].i, 4);
    assert_int_equal(pt.cfg.v[ws_param_find("sfu_latency")].i, 20);
    assert_int_equal(pt.seed, 1);
    ws_sweep_free(sw);
}

/* count, rank, unrank against brute force */
static void check_brute(const ws_sweep *sw)
{
    uint64_t k = 0;
    for (uint64_t raw = 0; raw < sw->raw_count; raw++) {
        assert_int_equal(ws_sweep_rank(sw, raw), k);
        if (ws_sweep_raw_excluded(sw, raw))
            continue;
        assert_int_equal(ws_sweep_unrank(sw, k), raw);
        k++;
    }
    assert_int_equal(sw->count, k);
    assert_int_equal(ws_sweep_rank(sw, sw->raw_count), k);
}

static void test_excludes(void **state)
{
    (void)state;
    ws_sweep *sw = load_ok("workload: w.yaml\ngrid:\n  warps: [1, 2, 4, 8]\n  scheduler: [lrr, gto, two_level]\n"
                           "  divergence: [stack, sbi]\nexclude:\n  - {scheduler: two_level, warps: 1}\n");
    /* 4*3*2 = 24, minus two_level x warps=1 x 2 divergences = 22 */
    assert_int_equal(sw->raw_count, 24);
    assert_int_equal(sw->count, 22);
    check_brute(sw);
    /* no excluded point is ever produced */
    for (uint64_t k = 0; k < sw->count; k++)
        assert_false(val(sw, k, "warps") == 1 && val(sw, k, "scheduler") == 2);
    ws_sweep_free(sw);

    /* overlapping entries, a list value, two keys on one zip axis, an entry that fixes all axes */
    sw = load_ok("workload: w.yaml\ngrid:\n  warps: [1, 2, 4, 8, 16]\n  scheduler: [lrr, gto, two_level]\n"
                 "  divergence: [stack, sbi]\nzip:\n  - {alu_latency: [1, 2, 3], sfu_latency: [5, 6, 7]}\n"
                 "repeat: 2\nexclude:\n  - {scheduler: two_level}\n  - {warps: [1, 2], divergence: sbi}\n"
                 "  - {warps: 16, alu_latency: 2, sfu_latency: 6}\n  - {alu_latency: 3, sfu_latency: 5}\n"
                 "  - {warps: 4, scheduler: lrr, divergence: stack, alu_latency: 1, seed: 1}\n");
    /* hand count: 5*3*2*3*2 = 180 raw.
       A = two_level: 5*1*2*3*2 = 60
       B = warps in {1,2} & barrier: 2*3*1*3*2 = 36
       C = warps 16 & zip digit 1: 1*3*2*1*2 = 12
       D = zip digit with alu 3 and sfu 5: none (digit 2 has sfu 7) -> 0, but it is an error?  no:
           each key alone matches, their intersection is empty -> entry matches nothing.
       E = warps 4, lrr, stack, zip 0, seed 1: 1
       A&B = 2*1*1*3*2 = 12, A&C = 1*1*2*1*2 = 4, B&C = 0, A&E = 0, B&E = 0, C&E = 0
       union = 60 + 36 + 12 + 1 - 12 - 4 = 93 -> 87 remain */
    assert_int_equal(sw->raw_count, 180);
    assert_int_equal(sw->count, 87);
    check_brute(sw);
    ws_sweep_free(sw);
}

/* Long lists are taken whole or refused, never cut silently: an exclude
 * list of 1500 values drops 1500 points (it once stopped at 1024), 5000
 * workloads are an error at the first one past 4096, an empty exclude list
 * is an error; bytes that are not UTF-8 are reported at their line:col. */
static void test_long_lists(void **state)
{
    (void)state;
    static char text[200000];
    size_t n = (size_t)snprintf(text, sizeof text, "workload: w.yaml\ngrid:\n  mem_latency: {from: 1, to: 2000, step: 1}\n"
                                                   "exclude:\n  - {mem_latency: [");
    for (int i = 1; i <= 1500; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "%s%d", i > 1 ? ", " : "", i);
    snprintf(text + n, sizeof text - n, "]}\n");
    ws_sweep *sw = load_ok(text);
    assert_int_equal(sw->raw_count, 2000);
    assert_int_equal(sw->count, 500);
    assert_int_equal(val(sw, 0, "mem_latency"), 1501);
    ws_sweep_free(sw);

    n = (size_t)snprintf(text, sizeof text, "workload: [");
    for (int i = 0; i < 5000; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "%sw%04d.yaml", i ? ", " : "", i);
    snprintf(text + n, sizeof text - n, "]\ngrid:\n  warps: [1]\n");
    /* element 4096 starts after "workload: [" (11 chars) and 4096 x "wNNNN.yaml, " (12 chars): column 11 + 49152 + 1 */
    load_err(text, "t.yaml:1:49164: workload: more than 4096 workloads in the list");

    load_err("workload: w.yaml\ngrid:\n  warps: [1, 2]\nexclude:\n  - {warps: []}\n",
             "t.yaml:5:13: exclude: expected a value for warps, got an empty list");
    load_err("workload: w.yaml\ngrid:\n  warps: [1, \xfe]\n",
             "t.yaml:3:14: YAML: invalid leading UTF-8 octet (byte 0xfe)");
}

static void test_huge_count(void **state)
{
    (void)state;
    /* 12 axes of 10 values = 10^12 points, one exclude entry over two axes */
    char text[2048] = "workload: w.yaml\ngrid:\n";
    const char *names[] = {"warps", "warp_size", "cores", "regfile_kb", "two_level_active", "swl_limit",
                           "barrier_regs", "alu_latency", "sfu_latency", "smem_latency", "mem_latency", "max_ctas"};
    for (int i = 0; i < 12; i++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "  %s: {from: 1, to: 10, step: 1}\n", names[i]);
    strcat(text, "exclude:\n  - {warps: 1, max_ctas: [1, 2]}\n  - {cores: 3}\n");
    ws_sweep *sw = load_ok(text);
    /* 10^12 - 2*10^10 - 10^11 + 2*10^9 (the overlap) */
    uint64_t want = 1000000000000ull - 20000000000ull - 100000000000ull + 2000000000ull;
    assert_true(sw->raw_count == 1000000000000ull);
    assert_true(sw->count == want);
    /* the last point maps to the last raw index; a point in the middle round-trips */
    assert_true(ws_sweep_unrank(sw, sw->count - 1) == sw->raw_count - 1);
    uint64_t raw = ws_sweep_unrank(sw, 123456789012ull);
    assert_false(ws_sweep_raw_excluded(sw, raw));
    assert_true(ws_sweep_rank(sw, raw) == 123456789012ull);
    ws_error err;
    assert_int_equal(ws_sweep_check_size(sw, 0, &err), -1);
    assert_string_equal(err.msg, "t.yaml:2:1: sweep t has 882000000000 points, more than the limit of 1000000000 "
                                 "(raise it with --max-points N)");
    assert_int_equal(ws_sweep_check_size(sw, 1000000000000ull, &err), 0);
    ws_sweep_free(sw);
}

static void test_random_grids(void **state)
{
    (void)state;
    /* pseudo-random small grids with random excludes, checked by brute force */
    const char *names[] = {"warps", "cores", "alu_latency", "sfu_latency"};
    uint32_t s = 12345;
    for (int iter = 0; iter < 60; iter++) {
        char text[4096] = "workload: w.yaml\ngrid:\n";
        int n[4];
        for (int a = 0; a < 4; a++) {
            s = s * 1103515245 + 12345;
            n[a] = 1 + (int)((s >> 16) % 4);
            snprintf(text + strlen(text), sizeof text - strlen(text), "  %s: {from: 1, to: %d, step: 1}\n", names[a], n[a]);
        }
        s = s * 1103515245 + 12345;
        int ne = (int)((s >> 16) % 5);
        if (ne)
            strcat(text, "exclude:\n");
        for (int e = 0; e < ne; e++) {
            strcat(text, "  - {");
            int any = 0;
            for (int a = 0; a < 4; a++) {
                s = s * 1103515245 + 12345;
                if ((s >> 16) % 3 == 0)
                    continue;
                s = s * 1103515245 + 12345;
                snprintf(text + strlen(text), sizeof text - strlen(text), "%s%s: %d", any ? ", " : "", names[a],
                         1 + (int)((s >> 16) % (uint32_t)n[a]));
                any = 1;
            }
            if (!any)
                strcat(text, "warps: 1");
            strcat(text, "}\n");
        }
        ws_sweep *sw = load_ok(text);
        check_brute(sw);
        ws_sweep_free(sw);
    }
}

static void test_derived(void **state)
{
    (void)state;
    /* regfile_kb = warps * warp_size * 10 * 4 / 1024, rounded up; max_ctas derived from regfile_kb (chain) */
    ws_sweep *sw = load_ok("workload: w.yaml\nbase:\n  max_ctas: \"=max(1, regfile_kb / 8)\"\n"
                           "  regfile_kb: \"=warps * warp_size * 10 * 4 / 1024\"\ngrid:\n  warps: [1, 3, 8]\n");
    /* warps 1: 1280/1024 = 1.25 -> 2; max_ctas = max(1, 0.25) = 1
       warps 3: 3840/1024 = 3.75 -> 4; max_ctas = max(1, 0.5) = 1
       warps 8: 10240/1024 = 10 -> 10; max_ctas = 1.25 -> 2 */
    assert_int_equal(val(sw, 0, "regfile_kb"), 2);
    assert_int_equal(val(sw, 1, "regfile_kb"), 4);
    assert_int_equal(val(sw, 2, "regfile_kb"), 10);
    assert_int_equal(val(sw, 0, "max_ctas"), 1);
    assert_int_equal(val(sw, 2, "max_ctas"), 2);
    assert_true(sw->varying[ws_param_find("regfile_kb")]);
    ws_sweep_free(sw);
    /* out of range per point: that point is invalid with a message, the others are fine */
    sw = load_ok("workload: w.yaml\nbase:\n  mem_latency: \"=100000 / (warps - 2)\"\ngrid:\n  warps: [1, 2, 4]\n");
    ws_point pt;
    ws_sweep_point(sw, 0, &pt); /* -100000: below 1 */
    assert_true(pt.invalid);
    assert_string_equal(pt.message, "derived mem_latency = -100000 is out of range [1, 100000]");
    ws_sweep_point(sw, 1, &pt); /* division by zero: inf */
    assert_true(pt.invalid);
    assert_string_equal(pt.message, "derived mem_latency = inf is out of range [1, 100000]");
    ws_sweep_point(sw, 2, &pt);
    assert_false(pt.invalid);
    assert_int_equal(pt.cfg.v[ws_param_find("mem_latency")].i, 50000);
    ws_sweep_free(sw);
    /* derived values in grid lists */
    sw = load_ok("workload: w.yaml\nbase: {warps: 8}\ngrid:\n  max_ctas: [1, \"=warps * 2\"]\n");
    assert_int_equal(val(sw, 1, "max_ctas"), 16);
    ws_sweep_free(sw);
}

static void test_workload_props(void **state)
{
    (void)state;
    /* latency.yaml: grid 64, block 32, regs_per_thread 10 */
    const char *text = "workload: sweeps/kernels/latency.yaml\n"
                       "base:\n  regfile_kb: \"=warps * warp_size * regs_per_thread * 4 / 1024\"\n"
                       "  max_ctas: \"=ctas / 2 + threads_per_cta\"\ngrid:\n  warps: [4, 32]\n";
    ws_sweep **sws;
    int n;
    ws_error err;
    ws_sweep_opts o = {0};
    if (ws_sweep_load_text("sweep.yaml", text, strlen(text), NULL, &o, &sws, &n, &err)) {
        print_error("%s\n", err.msg);
        fail();
    }
    /* 4*32*10*4/1024 = 5; 32*32*10*4/1024 = 40; 64/2 + 32 = 64 */
    assert_int_equal(val(sws[0], 0, "regfile_kb"), 5);
    assert_int_equal(val(sws[0], 1, "regfile_kb"), 40);
    assert_int_equal(val(sws[0], 1, "max_ctas"), 64);
    ws_sweeps_free(sws, n);
    const char *bad = "workload: sweeps/kernels/nonexistent.yaml\nbase: {regfile_kb: \"=regs_per_thread\"}\n";
    assert_int_equal(ws_sweep_load_text("sweep.yaml", bad, strlen(bad), NULL, &o, &sws, &n, &err), -1);
    assert_non_null(strstr(err.msg, "nonexistent.yaml"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_errors_positions),
        cmocka_unit_test(test_errors_derived),
        cmocka_unit_test(test_streams),
        cmocka_unit_test(test_sets),
        cmocka_unit_test(test_ranges),
        cmocka_unit_test(test_order),
        cmocka_unit_test(test_excludes),
        cmocka_unit_test(test_long_lists),
        cmocka_unit_test(test_huge_count),
        cmocka_unit_test(test_random_grids),
        cmocka_unit_test(test_derived),
        cmocka_unit_test(test_workload_props),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
