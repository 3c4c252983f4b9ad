/* The area model (src/sim/area.c, docs/area.md).  Every expected value is
 * computed by hand from the documented formula and the published figures in
 * docs/area.md (CACTI 6.5 as shipped with GPUWattch), never taken from the
 * program's output. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "warpsweep/area.h"

/* (16/22)^2 = 256/484: the documented scaling of the 22 nm CACTI fit to the
 * 16 nm defaults. */
#define S16_22 (256.0 / 484.0)

static void set(ws_config *c, const char *assignment)
{
    ws_error err;
    memset(&err, 0, sizeof err);
    if (ws_config_set(c, assignment, &err) != 0)
        fail_msg("ws_config_set(%s): %s", assignment, err.msg);
}

static void near(double got, double want, double tol, const char *what)
{
    if (!(fabs(got - want) <= tol))
        fail_msg("%s: got %.9g, want %.9g (tolerance %g)", what, got, want, tol);
}

static int registered(const char *name) { return ws_param_find(name) >= 0; }

/* The configuration the hand calculations below were made for: the registry
 * defaults before model version 2 (one scheduler, 32 warps, the stack; since
 * then the defaults are a V100 SM, CHANGES.md). */
static void defaults_v1(ws_config *c)
{
    ws_config_defaults(c);
    set(c, "warps=32");
    set(c, "schedulers=1");
    set(c, "scheduler=lrr");
    set(c, "divergence=stack");
    set(c, "smem_latency=24");
    set(c, "clock_ghz=1.5");
    set(c, "tensor_f16_macs=256");
}

/* RF fit (docs/area.md): at 22 nm, one bank, no overhead, the register file
 * is 0.0513 + 0.00162 × KB mm², within 12.5% of every CACTI 6.5 entry. */
static void test_rf_fit_reproduces_cacti_22nm(void **state)
{
    (void)state;
    static const double kb[4] = {16, 64, 128, 256};
    static const double cacti22[4] = {0.088, 0.15, 0.23, 0.53};
    /* Hand-computed fit values and their signed relative errors. */
    static const double fit[4] = {0.07722, 0.15498, 0.25866, 0.46602};
    static const double err_pct[4] = {-12.25, +3.32, +12.46, -12.07};
    for (int i = 0; i < 4; i++) {
        ws_config c;
        defaults_v1(&c);
        set(&c, "area.node_nm=22");
        set(&c, "rf_banks=1");        /* x schedulers=1 */
        set(&c, "area.rf_overhead=1");
        char a[64];
        snprintf(a, sizeof a, "regfile_kb=%d", (int)kb[i]);
        set(&c, a);
        ws_area ar;
        ws_area_compute(&c, &ar);
        near(ar.rf_mm2, fit[i], 1e-9, "rf fit at 22 nm");
        double rel = ar.rf_mm2 / cacti22[i] - 1;
        near(rel * 100, err_pct[i], 0.01, "relative error vs CACTI (%)");
        assert_true(fabs(rel) <= 0.125);
    }
}

/* Defaults (16 nm): 256 KB in rf_banks=2 x schedulers=1 banks, ×2 overhead:
 * 2 × (2 × 0.0513 + 256 × 0.00162) × 256/484 = 2 × 0.51732 × 0.528926 = 0.547248. */
static void test_default_rf(void **state)
{
    (void)state;
    ws_config c;
    defaults_v1(&c);
    ws_area ar;
    ws_area_compute(&c, &ar);
    near(ar.rf_mm2, 2 * 0.51732 * S16_22, 1e-12, "default rf");
    near(ar.rf_mm2, 0.547248, 1e-6, "default rf (rounded by hand)");
    /* Periphery-dominated: the 8 banks' periphery is about half the array. */
    near(ws_area_sram_mm2(&c, 256, 8), 0.82512 * S16_22, 1e-12, "sram(256, 8)");
    near(ws_area_sram_mm2(&c, 0, 8), 0, 0, "empty array costs nothing");
}

/* Round parameter values; every term by hand (node 16 nm, scale 1):
 *   fixed 2, 4 schedulers × 1 = 4,
 *   rf = 1.5 × (4 × 0.03 + 128 × 0.001) = 0.372,
 *   warp state = 48 × 0.001 = 0.048,
 *   barrier bits = 8 × 32 + 32 × (2 + 32) = 1344; × 48 warps × 0.5 µm² = 0.032256 mm²,
 *   core = 6.452256 (+ L1/smem if the memory system registered l1_kb/smem_kb: 0 KB here),
 *   chip = 80 × core + 100 + 80 × 2. */
static void hand_config(ws_config *c)
{
    defaults_v1(c);
    set(c, "area.core_fixed_mm2=2");
    set(c, "area.scheduler_mm2=1");
    set(c, "schedulers=4");
    set(c, "area.sram_bank_mm2=0.03");
    set(c, "area.sram_kb_mm2=0.001");
    set(c, "rf_banks=1");          /* x 4 schedulers = 4 banks */
    set(c, "collectors=0");
    set(c, "issue_width=1");
    set(c, "area.rf_overhead=1.5");
    set(c, "regfile_kb=128");
    set(c, "warps=48");
    set(c, "area.warp_state_mm2=0.001");
    set(c, "divergence=sbi");
    set(c, "barrier_regs=8");
    set(c, "warp_size=32");
    set(c, "area.pc_bits=32");
    set(c, "area.state_bit_um2=0.5");
    set(c, "cores=80");
    set(c, "area.uncore_mm2=100");
    set(c, "area.uncore_per_core_mm2=2");
    if (registered("l1_kb"))
        set(c, "l1_kb=0");
    if (registered("smem_kb"))
        set(c, "smem_kb=0");
}

static void test_hand_calculation(void **state)
{
    (void)state;
    ws_config c;
    hand_config(&c);
    ws_area ar;
    ws_area_compute(&c, &ar);
    near(ar.fixed_mm2, 2, 1e-12, "fixed");
    near(ar.sched_mm2, 4, 1e-12, "schedulers");
    near(ar.rf_mm2, 0.372, 1e-12, "rf");
    near(ar.l1_smem_mm2, 0, 0, "l1/smem of 0 KB");
    near(ar.warp_state_mm2, 0.048, 1e-12, "warp state");
    assert_int_equal(ws_area_divergence_bits(&c), 1344);
    near(ar.divergence_mm2, 0.032256, 1e-12, "divergence");
    near(ar.core_mm2, 6.452256, 1e-12, "core");
    near(ar.uncore_mm2, 260, 1e-9, "uncore");
    near(ar.chip_mm2, 80 * 6.452256 + 260, 1e-9, "chip");
}

/* The area_* metrics of hand_config: each core term x 80 cores, the uncore as it is:
 * rf 80 x 0.372 = 29.76, sram 0, warp state 80 x 0.048 = 3.84, divergence 80 x 0.032256 =
 * 2.58048, collectors and dispatch 0, schedulers 80 x 4 = 320, fixed 80 x 2 = 160, uncore 260;
 * sum 776.18048 = area_mm2 (80 x 6.452256 + 260). */
static void test_area_metrics(void **state)
{
    (void)state;
    ws_config c;
    hand_config(&c);
    ws_area ar;
    ws_area_compute(&c, &ar);
    ws_value m[WS_NMETRICS];
    memset(m, 0, sizeof m);
    ws_area_metrics(&c, &ar, m);
    near(m[WS_M_area_rf_mm2].f, 29.76, 1e-9, "area_rf_mm2");
    near(m[WS_M_area_sram_mm2].f, 0, 0, "area_sram_mm2");
    near(m[WS_M_area_warp_state_mm2].f, 3.84, 1e-9, "area_warp_state_mm2");
    near(m[WS_M_area_divergence_mm2].f, 2.58048, 1e-9, "area_divergence_mm2");
    near(m[WS_M_area_collector_mm2].f, 0, 0, "area_collector_mm2");
    near(m[WS_M_area_dispatch_mm2].f, 0, 0, "area_dispatch_mm2");
    near(m[WS_M_area_sched_mm2].f, 320, 1e-9, "area_sched_mm2");
    near(m[WS_M_area_core_fixed_mm2].f, 160, 1e-9, "area_core_fixed_mm2");
    near(m[WS_M_area_uncore_mm2].f, 260, 1e-9, "area_uncore_mm2");
    double sum = 0;
    for (int k = WS_M_area_rf_mm2; k <= WS_M_area_uncore_mm2; k++)
        sum += m[k].f;
    near(sum, 776.18048, 1e-9, "sum of the parts");
    near(sum, ar.chip_mm2, 1e-9 * ar.chip_mm2, "the parts sum to area_mm2");
}

static void test_chip_is_cores_times_core_plus_uncore(void **state)
{
    (void)state;
    static const int cores[3] = {1, 7, 84};
    for (int i = 0; i < 3; i++) {
        ws_config c;
        defaults_v1(&c);
        char a[64];
        snprintf(a, sizeof a, "cores=%d", cores[i]);
        set(&c, a);
        set(&c, "area.uncore_mm2=37.5");
        ws_area ar;
        ws_area_compute(&c, &ar);
        /* default per-core uncore 2.4 mm² */
        near(ar.uncore_mm2, 37.5 + 2.4 * cores[i], 1e-9, "uncore");
        near(ar.chip_mm2, cores[i] * ar.core_mm2 + ar.uncore_mm2, 1e-9, "chip");
        near(ar.core_mm2, ar.fixed_mm2 + ar.sched_mm2 + ar.rf_mm2 + ar.l1_smem_mm2
                          + ar.warp_state_mm2 + ar.divergence_mm2 + ar.collector_mm2 + ar.dispatch_mm2,
             1e-12, "core = sum of terms");
    }
}

/* Doubling warps 48 -> 96 (everything else as hand_config) adds exactly
 * 48 × (0.001 + 1344 × 0.5e-6) = 48 × 0.001672 = 0.080256 mm² per core and
 * leaves every other term unchanged. */
static void test_doubling_warps_adds_per_warp_terms(void **state)
{
    (void)state;
    ws_config c;
    hand_config(&c);
    ws_area a, b;
    ws_area_compute(&c, &a);
    set(&c, "warps=96");
    ws_area_compute(&c, &b);
    near(b.core_mm2 - a.core_mm2, 0.080256, 1e-12, "added per core");
    near(b.warp_state_mm2 - a.warp_state_mm2, 0.048, 1e-12, "added warp state");
    near(b.divergence_mm2 - a.divergence_mm2, 0.032256, 1e-12, "added divergence state");
    assert_true(b.rf_mm2 == a.rf_mm2 && b.fixed_mm2 == a.fixed_mm2 && b.sched_mm2 == a.sched_mm2
                && b.l1_smem_mm2 == a.l1_smem_mm2 && b.uncore_mm2 == a.uncore_mm2);
    near(b.chip_mm2 - a.chip_mm2, 80 * 0.080256, 1e-9, "added per chip");
}

/* Defaults (warp 32, PC 64 bits): stack 32 × (64 + 64 + 32) = 5120 bits per
 * warp; barrier 16 × 32 + 32 × (2 + 64) = 2624 bits. At 64 warps × 0.5 µm²
 * the difference is 2496 × 64 × 0.5e-6 = 0.079872 mm². */
/* Issue 13's schemes at the defaults (warp_size W 32, area.pc_bits P 64,
 * area.stack_entries E 32, barrier_regs 16, aware_timeout 1000), docs/area.md:
 *   barrier   16 × 32 + 32 × (2 + 64) + 32 × 5            = 2784
 *   multipath 32 × (64 + 32 + 6) + 32 × (64 + 6 + 64)      = 3264 + 4288 = 7552
 *   dualpath  32 × (3 × 64 + 2 × 32)                       = 8192
 *   aware     7552 + 32 × 10 (1000 < 2^10)                 = 7872
 *   tbc       32 × (2 × 64 + 32 + 6) + 32 × 5              = 5312 + 160 = 5472
 *             (warps 32: a pending-warp count of ceil(log2 33) = 6 bits per
 *             entry, a home-warp number of log2 32 = 5 bits per lane) */
static void test_scheme_bits(void **state)
{
    (void)state;
    ws_config c;
    defaults_v1(&c);
    set(&c, "divergence=barrier");
    assert_int_equal(ws_area_divergence_bits(&c), 2784);
    set(&c, "divergence=multipath");
    assert_int_equal(ws_area_divergence_bits(&c), 7552);
    set(&c, "divergence=dualpath");
    assert_int_equal(ws_area_divergence_bits(&c), 8192);
    set(&c, "divergence=aware");
    assert_int_equal(ws_area_divergence_bits(&c), 7872);
    set(&c, "aware_timeout=1024");          /* 1024 needs 11 bits */
    assert_int_equal(ws_area_divergence_bits(&c), 7552 + 32 * 11);
    set(&c, "divergence=tbc");
    assert_int_equal(ws_area_divergence_bits(&c), 5472);
    set(&c, "warps=64");                    /* count 7 bits (65 values), home warp 6 bits */
    assert_int_equal(ws_area_divergence_bits(&c), 32 * (128 + 32 + 7) + 32 * 6);
}

static void test_barrier_vs_stack(void **state)
{
    (void)state;
    ws_config c;
    defaults_v1(&c);
    set(&c, "warps=64");
    set(&c, "divergence=stack");
    assert_int_equal(ws_area_divergence_bits(&c), 5120);
    ws_area st, ba;
    ws_area_compute(&c, &st);
    set(&c, "divergence=sbi");
    assert_int_equal(ws_area_divergence_bits(&c), 2624);
    ws_area_compute(&c, &ba);
    near(st.divergence_mm2, 5120 * 64 * 0.5e-6, 1e-12, "stack state");
    near(ba.divergence_mm2, 2624 * 64 * 0.5e-6, 1e-12, "barrier state");
    near(st.core_mm2 - ba.core_mm2, 0.079872, 1e-12, "stack - barrier");
    /* Hanoi comparison (docs/area.md): 8 barrier registers: 8×32 + 32×66 = 2368 bits = 296 B. */
    set(&c, "barrier_regs=8");
    assert_int_equal(ws_area_divergence_bits(&c), 2368);
    /* The parameters are counts: a fractional value is rounded. warp_size 16:
     * stack 16 × (2 × 32 + 16) = 1280. */
    set(&c, "divergence=stack");
    set(&c, "area.stack_entries=15.6");
    set(&c, "area.pc_bits=32");
    set(&c, "warp_size=16");
    assert_int_equal(ws_area_divergence_bits(&c), 1280);
}

/* First-order node scaling: at 32 nm every term is (32/16)^2 = 4 times the 16 nm one. */
static void test_node_scaling(void **state)
{
    (void)state;
    ws_config c;
    hand_config(&c);
    ws_area a, b;
    ws_area_compute(&c, &a);
    set(&c, "area.node_nm=32");
    near(ws_area_node_scale(&c), 4, 1e-15, "scale");
    ws_area_compute(&c, &b);
    near(b.core_mm2, 4 * 6.452256, 1e-9, "core at 32 nm");
    near(b.rf_mm2, 4 * 0.372, 1e-12, "rf at 32 nm");
    near(b.uncore_mm2, 4 * 260, 1e-9, "uncore at 32 nm");
    near(b.chip_mm2, 4 * a.chip_mm2, 1e-9, "chip at 32 nm");
}

/* The optional memory-system parameters: absent -> 0; present -> two arrays
 * (32 KB L1 and 96 KB shared memory at defaults):
 * 2 × ((0.0513 + 32 × 0.00162) + (0.0513 + 96 × 0.00162)) × 256/484
 *   = 2 × 0.30996 × 0.528926 = 0.327892 mm². */
static void test_l1_smem(void **state)
{
    (void)state;
    ws_config c;
    defaults_v1(&c);
    ws_area ar;
    if (!registered("l1_kb") && !registered("smem_kb")) {
        ws_area_compute(&c, &ar);
        near(ar.l1_smem_mm2, 0, 0, "no memory-system parameters: no L1/smem area");
        return;
    }
    double want = 0;
    if (registered("l1_kb")) {
        set(&c, "l1_kb=32");
        want += 0.0513 + 32 * 0.00162;
    }
    if (registered("smem_kb")) {
        set(&c, "smem_kb=96");
        want += 0.0513 + 96 * 0.00162;
    }
    ws_area_compute(&c, &ar);
    near(ar.l1_smem_mm2, 2 * want * S16_22, 1e-12, "l1 + smem");
}

/* Calibration (docs/area.md): Volta-like core at the default 16 nm class:
 * 1.8 + 4 × 1.05 + 0.872854 (rf) + 64 × 0.0005 + 64 × 2624 × 0.5e-6
 * = 6.988822 mm² (+ 0.327892 with 32 KB L1 + 96 KB smem = 7.316714);
 * GV100: 815 mm² / 84 SMs = 9.70 mm² per SM including its uncore share. */
static void test_volta_calibration(void **state)
{
    (void)state;
    ws_config c;
    defaults_v1(&c);
    set(&c, "warps=64");
    set(&c, "regfile_kb=256");
    set(&c, "schedulers=4");
    set(&c, "divergence=sbi");
    set(&c, "cores=84");
    /* + the default 2 collectors per scheduler: 2 x 4 x 3072 bits x 0.5 um2 = 0.012288 */
    double want_core = 6.988822 + 0.012288;
    if (registered("l1_kb") && registered("smem_kb")) {
        set(&c, "l1_kb=32");
        set(&c, "smem_kb=96");
        want_core = 7.316714 + 0.012288;
    }
    ws_area ar;
    ws_area_compute(&c, &ar);
    near(ar.core_mm2, want_core, 1e-6, "Volta-like core");
    double per_sm = 815.0 / 84;
    assert_true(ar.core_mm2 > per_sm / 1.5 && ar.core_mm2 < per_sm * 1.5);
    assert_true(fabs(ar.chip_mm2 / 815.0 - 1) < 0.05);
}

static void test_throughput_per_area(void **state)
{
    (void)state;
    near(ws_throughput_per_area(100, 1.5, 10), 15, 1e-12, "100 × 1.5 / 10");
    near(ws_throughput_per_area(3, 2, 0.5), 12, 1e-12, "3 × 2 / 0.5");
    near(ws_throughput_per_area(3, 2, 0), 0, 0, "no area");
    ws_config c;
    defaults_v1(&c);
    near(ws_cfg_f(&c, WS_P_clock_ghz), 1.5, 0, "clock_ghz default");
}

/* Every area.* parameter is a float with a unit, a description and a
 * default inside its range; the metrics exist. */
static void test_registry(void **state)
{
    (void)state;
    int n = 0;
    for (int i = 0; i < WS_NPARAMS; i++) {
        const ws_param_def *p = &ws_params[i];
        if (strncmp(p->name, "area.", 5) != 0)
            continue;
        n++;
        assert_int_equal(p->type, WS_PT_FLOAT);
        assert_true(p->unit && p->unit[0]);
        assert_true(p->desc && strlen(p->desc) > 20);
        assert_true(p->def >= p->min && p->def <= p->max);
    }
    assert_int_equal(n, 14);
    const char *m[3] = {"area_mm2", "core_area_mm2", "throughput_per_area"};
    for (int k = 0; k < 3; k++) {
        int found = 0;
        for (int i = 0; i < WS_NMETRICS; i++)
            found |= strcmp(ws_metrics[i].name, m[k]) == 0 && ws_metrics[i].is_float;
        assert_true(found);
    }
}

/* Operand collectors and dual issue, by hand (node 16 nm, scale 1):
 *   collectors 2 × 4 schedulers × (3 × 32 × 32 = 3072 bits) × 0.5 µm² = 0.012288 mm²,
 *   dispatch (issue_width 2 - 1) × 4 schedulers × 0.05 = 0.2 mm²;
 *   with collectors=0, issue_width=1 both are 0. */
static void test_collectors_dispatch(void **state)
{
    (void)state;
    ws_config c;
    defaults_v1(&c);
    set(&c, "schedulers=4");
    set(&c, "collectors=2");
    set(&c, "issue_width=2");
    set(&c, "area.state_bit_um2=0.5");
    set(&c, "area.dispatch_mm2=0.05");
    ws_area a;
    ws_area_compute(&c, &a);
    near(a.collector_mm2, 0.012288, 1e-12, "collectors");
    near(a.dispatch_mm2, 0.2, 1e-12, "dispatch");
    set(&c, "collectors=0");
    set(&c, "issue_width=1");
    ws_area b;
    ws_area_compute(&c, &b);
    near(b.collector_mm2, 0, 0, "no collectors");
    near(b.dispatch_mm2, 0, 0, "single issue");
    near(a.core_mm2 - b.core_mm2, 0.212288, 1e-12, "core grows by both");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rf_fit_reproduces_cacti_22nm),
        cmocka_unit_test(test_default_rf),
        cmocka_unit_test(test_hand_calculation),
        cmocka_unit_test(test_area_metrics),
        cmocka_unit_test(test_chip_is_cores_times_core_plus_uncore),
        cmocka_unit_test(test_doubling_warps_adds_per_warp_terms),
        cmocka_unit_test(test_barrier_vs_stack),
        cmocka_unit_test(test_scheme_bits),
        cmocka_unit_test(test_node_scaling),
        cmocka_unit_test(test_l1_smem),
        cmocka_unit_test(test_volta_calibration),
        cmocka_unit_test(test_throughput_per_area),
        cmocka_unit_test(test_registry),
        cmocka_unit_test(test_collectors_dispatch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
