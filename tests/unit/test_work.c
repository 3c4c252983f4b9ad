/* The workload's unit of work (`work:`, docs/model.md "Work throughput"): the
 * key's errors, and work_units / work_per_s / work_per_area of a run, the
 * expected values computed here by hand from the launch shapes (saxpy: 4
 * CTAs x 64 threads) and the run's own cycles, clock and area:
 *   per_thread: 1          -> 256 units per launch
 *   per_launch: 1000       -> 1000
 *   both, 3 launches       -> 3 x (10 + 0.5 x 256) = 414
 *   no work:               -> the reference's thread instructions, and
 *                             work_per_area = ref_inst_per_area. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <unistd.h>
#include <cmocka.h>
#include "warpsweep/params.h"
#include "warpsweep/workload.h"
#include "warpsweep/sim.h"


static char dir[256];

static const char *saxpy_ptx(void)
{
    static char path[512];
    const char *src = getenv("WS_SOURCE_DIR");
    snprintf(path, sizeof path, "%s/sweeps/kernels/saxpy.ptx", src ? src : ".");
    return path;
}

/* A saxpy workload with `extra` appended (YAML lines); one launch, or three
 * (a repeat loop) with `loop`. */
static const char *write_wl(const char *name, const char *extra, int loop)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s.yaml", dir, name);
    FILE *f = fopen(path, "w");
    if (!f) fail_msg("cannot write %s", path);
    fprintf(f, "name: %s\nkernel: %s\n", name, saxpy_ptx());
    fprintf(f, "buffers:\n  x: {type: f32, count: 256, init: iota}\n  y: {type: f32, count: 256, init: 1}\n");
    if (loop)
        fprintf(f, "launches:\n  - loop:\n      repeat: 3\n      body:\n"
                   "        - {entry: _Z5saxpyifPKfPf, grid: 4, block: 64, regs_per_thread: 10, params: [256, 2.5, x, y]}\n");
    else
        fprintf(f, "entry: _Z5saxpyifPKfPf\ngrid: 4\nblock: 64\nregs_per_thread: 10\nparams: [256, 2.5, x, y]\n");
    fputs(extra, f);
    fclose(f);
    return path;
}

static ws_workload *load_ok(const char *path)
{
    ws_error err = {{0}};
    ws_workload *wl = ws_workload_load(path, &err);
    if (!wl) fail_msg("%s: %s", path, err.msg);
    return wl;
}

static void run(const ws_workload *wl, ws_result *res)
{
    ws_config cfg;
    ws_config_defaults(&cfg);
    ws_sim *s = ws_sim_new();
    assert_non_null(s);
    ws_sim_run(s, wl, &cfg, NULL, res);
    ws_sim_free(s);
    assert_int_equal(res->status, WS_ST_OK);
}

static void check_units(const ws_result *res, double units)
{
    ws_config cfg;
    ws_config_defaults(&cfg);
    double cycles = (double)res->metrics[WS_M_cycles].i, ghz = ws_cfg_f(&cfg, WS_P_clock_ghz);
    assert_true(res->metrics[WS_M_work_units].f == units);
    double per_s = units * ghz / cycles;
    assert_true(fabs(res->metrics[WS_M_work_per_s].f - per_s) <= 1e-12 * per_s);
    double per_area = per_s / res->metrics[WS_M_area_mm2].f;
    assert_true(fabs(res->metrics[WS_M_work_per_area].f - per_area) <= 1e-12 * per_area);
}

static void test_declared(void **state)
{
    (void)state;
    ws_result res;
    ws_workload *wl = load_ok(write_wl("per_thread", "work: {name: elements, per_thread: 1}\n", 0));
    assert_string_equal(wl->work_name, "elements");
    run(wl, &res);
    check_units(&res, 256);
    ws_workload_free(wl);

    wl = load_ok(write_wl("per_launch", "work: {name: vectors, per_launch: 1000}\n", 0));
    run(wl, &res);
    check_units(&res, 1000);
    ws_workload_free(wl);

    wl = load_ok(write_wl("both", "work: {name: things, per_launch: 10, per_thread: 0.5}\n", 1));
    run(wl, &res);
    assert_int_equal(res.metrics[WS_M_launches].i, 3);
    check_units(&res, 3 * (10 + 0.5 * 256));
    ws_workload_free(wl);
}

static void test_undeclared(void **state)
{
    (void)state;
    ws_result res, ref;
    ws_workload *wl = load_ok(write_wl("none", "", 0));
    assert_null(wl->work_name);
    run(wl, &res);
    /* the reference run's thread instructions, as work_ipc counts them */
    ws_config cfg;
    ws_config_defaults(&cfg);
    ws_memimage mem;
    memset(&mem, 0, sizeof mem);
    ws_reference_run(wl, (uint64_t)ws_cfg_i(&cfg, WS_P_seed), (uint32_t)ws_cfg_i(&cfg, WS_P_warp_size),
                     100000000ull, &mem, &ref);
    ws_memimage_free(&mem);
    assert_int_equal(ref.status, WS_ST_OK);
    check_units(&res, (double)ref.metrics[WS_M_thread_insts].i);
    assert_true(res.metrics[WS_M_work_per_area].f == res.metrics[WS_M_ref_inst_per_area].f);
    ws_workload_free(wl);
}

static void test_errors(void **state)
{
    (void)state;
    struct { const char *yaml, *msg; } cases[] = {
        {"work: 5\n", "work must be a mapping"},
        {"work: {per_thread: 1}\n", "work needs a name"},
        {"work: {name: x}\n", "work needs per_launch (units per launch) or per_thread"},
        {"work: {name: x, per_thread: -1}\n", "work per_thread must be a finite number >= 0, not -1"},
        {"work: {name: x, per_launch: 0}\n", "per_launch and per_thread are both 0"},
        {"work: {name: x, per_thread: 1, per_cta: 2}\n", "per_cta"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *path = write_wl("bad", cases[i].yaml, 0);
        ws_error err = {{0}};
        ws_workload *wl = ws_workload_load(path, &err);
        if (wl) fail_msg("case %zu loaded", i);
        if (!strstr(err.msg, cases[i].msg)) fail_msg("case %zu: '%s' lacks '%s'", i, err.msg, cases[i].msg);
        if (!strstr(err.msg, "bad.yaml:")) fail_msg("case %zu: no file:line: '%s'", i, err.msg);
    }
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/ws_test_work_XXXXXX");
    if (!mkdtemp(dir)) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_declared),
        cmocka_unit_test(test_undeclared),
        cmocka_unit_test(test_errors),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd)) {}
    return rc;
}
