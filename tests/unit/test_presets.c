/* Presets (include/warpsweep/presets.def): every line names a real preset,
 * parameter and in-range value; spot checks of each preset against the
 * published figures (written here from the sources, not from the table);
 * the seed preset is the seed's model; explicit values beat the preset in
 * either order, on the command line and in sweeps (base, grid, zip, --set,
 * derived expressions). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "warpsweep/params.h"
#include "warpsweep/sweep.h"

static int64_t preset_index(const char *name)
{
    ws_value v;
    ws_error err;
    if (ws_param_parse(WS_P_preset, name, &v, &err))
        fail_msg("%s", err.msg);
    return v.i;
}

static int param_id(const char *name)
{
    int id = ws_param_find(name);
    if (id < 0)
        fail_msg("no parameter %s", name);
    return id;
}

/* The configuration `--set` assignments give, in the order given. */
static ws_config config_of(const char *const *sets, int n)
{
    ws_config c;
    uint8_t given[WS_NPARAMS] = {0};
    ws_error err;
    ws_config_defaults(&c);
    for (int i = 0; i < n; i++)
        if (ws_config_assign(&c, given, sets[i], &err))
            fail_msg("%s: %s", sets[i], err.msg);
    ws_config_apply_preset(&c, given);
    return c;
}

static double num(const ws_config *c, const char *name)
{
    int id = param_id(name);
    return ws_params[id].type == WS_PT_FLOAT ? c->v[id].f : (double)c->v[id].i;
}

static const char *choice(const ws_config *c, const char *name, char *buf)
{
    int id = param_id(name);
    return ws_param_choice(id, c->v[id].i, buf, 64);
}

static void test_every_line_is_valid(void **state)
{
    (void)state;
    assert_true(ws_npreset_values > 0);
    for (int k = 0; k < ws_npreset_values; k++) {
        const ws_preset_value *e = &ws_preset_values[k];
        ws_value v;
        ws_error err = {{0}};
        /* a preset of the registry's `preset` choice, not none */
        if (ws_param_parse(WS_P_preset, e->preset, &v, &err) || v.i == 0)
            fail_msg("line %d: '%s' is not a preset: %s", k, e->preset, err.msg);
        assert_true(e->param >= 0 && e->param < WS_NPARAMS);
        assert_int_not_equal(e->param, WS_P_preset);
        if (ws_param_parse(e->param, e->value, &v, &err))
            fail_msg("line %d (%s %s): %s", k, e->preset, ws_params[e->param].name, err.msg);
        if (!e->source || strlen(e->source) < 10)
            fail_msg("line %d (%s %s): no source", k, e->preset, ws_params[e->param].name);
        for (int j = 0; j < k; j++)
            if (ws_preset_values[j].param == e->param && strcmp(ws_preset_values[j].preset, e->preset) == 0)
                fail_msg("%s sets %s twice", e->preset, ws_params[e->param].name);
    }
    /* every preset but none has values */
    for (int64_t p = 1; p < ws_params[WS_P_preset].nchoices; p++) {
        int n = 0;
        for (int k = 0; k < ws_npreset_values; k++)
            n += preset_index(ws_preset_values[k].preset) == p;
        assert_true(n > 0);
    }
}

/* The seed before issue 11: the new units unlimited, fixed latencies, PTX
 * order (the list), and the registry's pre-issue values
 * (docs/model.md, docs/memory.md). */
static void test_seed_is_the_seeds_model(void **state)
{
    (void)state;
    static const struct { const char *name; double v; } want[] = {
        {"int_lanes", 0}, {"fp32_lanes", 0}, {"fp64_lanes", 0}, {"sfu_lanes", 0}, {"fp64_latency", 0},
        {"int64_cost", 1}, {"idiv_latency", 0}, {"idiv_interval", 0}, {"fdiv_latency", 0},
        {"fdiv_interval", 0}, {"ddiv_latency", 0}, {"ddiv_interval", 0}, {"lsu_bytes_per_cycle", 0},
        {"collectors", 0}, {"ibuffer", 0}, {"issue_width", 1},
        {"alu_latency", 4}, {"sfu_latency", 20}, {"smem_latency", 24}, {"mem_latency", 400},
        {"l1_kb", 0}, {"dram_bw", 0}, {"warps", 32}, {"warp_size", 32}, {"cores", 1}, {"schedulers", 1},
    };
    const char *sets[] = {"preset=seed"};
    ws_config c = config_of(sets, 1);
    char buf[64];
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (num(&c, want[i].name) != want[i].v)
            fail_msg("seed %s = %g, want %g", want[i].name, num(&c, want[i].name), want[i].v);
    assert_string_equal(choice(&c, "inst_order", buf), "ptx");
    assert_string_equal(choice(&c, "scheduler", buf), "lrr");
    assert_string_equal(choice(&c, "issue", buf), "scoreboard");
    assert_string_equal(choice(&c, "divergence", buf), "stack");

    /* every parameter the seed preset does not list keeps its registry default */
    ws_config def;
    ws_config_defaults(&def);
    int64_t seed = preset_index("seed");
    for (int i = 0; i < WS_NPARAMS; i++) {
        ws_value v;
        if (i == WS_P_preset || ws_preset_get(seed, i, &v))
            continue;
        if (memcmp(&c.v[i], &def.v[i], sizeof c.v[i]) != 0)
            fail_msg("seed changes %s, which it does not list", ws_params[i].name);
    }
}

/* A few figures per preset, written from the sources (whitepapers, CUDA
 * guide, GPGPU-Sim configs) independently of presets.def. */
static void test_spot_checks(void **state)
{
    (void)state;
    static const struct { const char *preset, *name; double v; } want[] = {
        /* Fermi whitepaper / CUDA guide 4.2 cc 2.x */
        {"fermi", "warps", 48}, {"fermi", "schedulers", 2}, {"fermi", "regfile_kb", 128},
        {"fermi", "max_ctas", 8}, {"fermi", "smem_kb", 48}, {"fermi", "l1_kb", 16},
        {"fermi", "fp32_lanes", 16}, {"fermi", "sfu_lanes", 2}, {"fermi", "reg_alloc_unit", 64},
        /* V100 whitepaper, Jia et al. 2018 */
        {"volta", "warps", 64}, {"volta", "schedulers", 4}, {"volta", "regfile_kb", 256},
        {"volta", "max_ctas", 32}, {"volta", "smem_kb", 96}, {"volta", "l1_kb", 32},
        {"volta", "fp64_lanes", 8}, {"volta", "sfu_lanes", 4}, {"volta", "l1_latency", 28},
        {"volta", "clock_ghz", 1.53},
        /* Turing whitepaper, CUDA guide cc 7.5 */
        {"turing", "warps", 32}, {"turing", "max_ctas", 16}, {"turing", "smem_kb", 64},
        {"turing", "fp64_lanes", 0.5}, {"turing", "int_lanes", 16},
        /* A100 whitepaper, CUDA guide cc 8.0 */
        {"ampere", "warps", 64}, {"ampere", "max_ctas", 32}, {"ampere", "smem_kb", 164},
        {"ampere", "fp64_lanes", 8}, {"ampere", "regfile_kb", 256}, {"ampere", "clock_ghz", 1.41},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        char set[64];
        snprintf(set, sizeof set, "preset=%s", want[i].preset);
        const char *sets[] = {set};
        ws_config c = config_of(sets, 1);
        if (num(&c, want[i].name) != want[i].v)
            fail_msg("%s %s = %g, want %g", want[i].preset, want[i].name, num(&c, want[i].name), want[i].v);
    }
    char buf[64];
    const char *fermi[] = {"preset=fermi"}, *volta[] = {"preset=volta"};
    ws_config c = config_of(fermi, 1);
    assert_string_equal(choice(&c, "divergence", buf), "stack");
    c = config_of(volta, 1);
    assert_string_equal(choice(&c, "divergence", buf), "sbi");
    assert_string_equal(choice(&c, "inst_order", buf), "ptxas");
}

/* Each real preset's L1 is a legal geometry (docs/memory.md: l1_kb*1024 a
 * multiple of l1_ways*l1_line, the line a power of two) and one warp's
 * largest register allocation fits its register file. */
static void test_presets_are_consistent(void **state)
{
    (void)state;
    for (int64_t p = 1; p < ws_params[WS_P_preset].nchoices; p++) {
        char name[64], set[80];
        ws_param_choice(WS_P_preset, p, name, sizeof name);
        snprintf(set, sizeof set, "preset=%s", name);
        const char *sets[] = {set};
        ws_config c = config_of(sets, 1);
        int64_t kb = c.v[WS_P_l1_kb].i, ways = c.v[WS_P_l1_ways].i, line = c.v[WS_P_l1_line].i;
        if (ways == 0) ways = c.v[WS_P_l1_sets].i;   /* derived ways: l1_kb must be whole sets */
        if (kb && (kb * 1024) % (ways * line) != 0)
            fail_msg("%s: l1_kb %lld is not a multiple of %lld ways (sets) x %lld B", name, (long long)kb,
                     (long long)ways, (long long)line);
        assert_int_equal(line & (line - 1), 0);
        assert_true(c.v[WS_P_warps].i % c.v[WS_P_schedulers].i == 0);
        /* 255 registers x 32 threads x 4 B: the CUDA maximum per thread fits one warp (63 on Fermi) */
        int64_t max_regs = p == preset_index("fermi") ? 63 : 255;
        assert_true(max_regs * c.v[WS_P_warp_size].i * 4 <= c.v[WS_P_regfile_kb].i * 1024);
    }
}

/* The unified array and its carve-out (docs/memory.md "Carve-out"), by hand:
 *   defaults (carve-out -1): l1_kb 32, smem_kb 96 as given;
 *   every real preset's array is its l1_kb + smem_kb (fermi 16 + 48, volta 32 + 96, turing 32 + 64,
 *   ampere 28 + 164), so no preset's own split contradicts its array;
 *   volta, carve-out 64: smem 64, L1 128 - 64 = 64; carve-out 48: not one of 0/8/16/32/64/96: refused;
 *   l1_smem_kb 100 (other hardware), carve-out 48: smem 48, L1 52, allowed;
 *   ampere, carve-out 100: L1 192 - 100 = 92; turing 16: refused (32 or 64 only);
 *   a carve-out above the array, or with no array (seed: l1_smem_kb 0): refused. */
static void test_carveout(void **state)
{
    (void)state;
    static const struct { const char *preset, *carve, *array; int64_t l1, smem; int ok; const char *msg; } cases[] = {
        {NULL, NULL, NULL, 32, 96, 1, NULL},
        {"volta", "64", NULL, 64, 64, 1, NULL},
        {"volta", "96", NULL, 32, 96, 1, NULL},
        {"volta", "0", NULL, 128, 0, 1, NULL},
        {"volta", "48", NULL, 80, 48, 0, "volta's 128 KiB array offers shared memory of 0, 8, 16, 32, 64, 96 KiB only"},
        {"volta", "48", "100", 52, 48, 1, NULL},
        {"ampere", "100", NULL, 92, 100, 1, NULL},
        {"turing", "16", NULL, 80, 16, 0, "turing's 96 KiB array offers shared memory of 32, 64 KiB only"},
        {"volta", "200", NULL, 0, 200, 0, "smem_carveout_kb=200 is more than the array, l1_smem_kb=128"},
        {"seed", "8", NULL, 0, 64, 0, "needs the unified array: l1_smem_kb is 0"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char p[64], cv[64], ar[64];
        const char *sets[3];
        int n = 0;
        if (cases[k].preset) snprintf(p, sizeof p, "preset=%s", cases[k].preset), sets[n++] = p;
        if (cases[k].carve) snprintf(cv, sizeof cv, "smem_carveout_kb=%s", cases[k].carve), sets[n++] = cv;
        if (cases[k].array) snprintf(ar, sizeof ar, "l1_smem_kb=%s", cases[k].array), sets[n++] = ar;
        ws_config c = config_of(sets, n);
        if (strcmp(cases[k].preset ? cases[k].preset : "", "seed") != 0) {
            assert_int_equal(c.v[WS_P_l1_kb].i, cases[k].l1);
            assert_int_equal(c.v[WS_P_smem_kb].i, cases[k].smem);
        }
        ws_error err = {{0}};
        int rc = ws_config_check_carveout(&c, &err);
        if ((rc == 0) != cases[k].ok) fail_msg("case %zu: check %d (%s)", k, rc, err.msg);
        if (cases[k].msg) assert_non_null(strstr(err.msg, cases[k].msg));
    }
    static const char *const presets[] = {"fermi", "volta", "turing", "ampere", "gpgpusim_qv100"};
    for (size_t k = 0; k < sizeof presets / sizeof presets[0]; k++) {
        char p[64];
        snprintf(p, sizeof p, "preset=%s", presets[k]);
        const char *sets[] = {p};
        ws_config c = config_of(sets, 1);
        if (c.v[WS_P_l1_kb].i + c.v[WS_P_smem_kb].i != c.v[WS_P_l1_smem_kb].i)
            fail_msg("%s: l1_kb %lld + smem_kb %lld != l1_smem_kb %lld", presets[k], (long long)c.v[WS_P_l1_kb].i,
                     (long long)c.v[WS_P_smem_kb].i, (long long)c.v[WS_P_l1_smem_kb].i);
    }
}

/* --set: explicit beats the preset whichever comes first. */
static void test_explicit_beats_preset(void **state)
{
    (void)state;
    const char *after[] = {"alu_latency=10", "preset=seed"};
    const char *before[] = {"preset=seed", "alu_latency=10"};
    ws_config a = config_of(after, 2), b = config_of(before, 2);
    assert_int_equal(a.v[WS_P_alu_latency].i, 10);
    assert_int_equal(b.v[WS_P_alu_latency].i, 10);
    assert_memory_equal(&a, &b, sizeof a);

    const char *v1[] = {"warps=8", "preset=volta", "int_lanes=4"};
    const char *v2[] = {"int_lanes=4", "preset=volta", "warps=8"};
    ws_config c = config_of(v1, 3), d = config_of(v2, 3);
    assert_memory_equal(&c, &d, sizeof c);
    assert_int_equal(c.v[WS_P_warps].i, 8);              /* given */
    assert_true(c.v[WS_P_int_lanes].f == 4);             /* given */
    assert_int_equal(c.v[WS_P_schedulers].i, 4);         /* the preset */
    assert_int_equal(c.v[WS_P_smem_kb].i, 96);           /* the preset */

    /* the last preset given wins; none gives the registry defaults back */
    const char *two[] = {"preset=fermi", "preset=volta"};
    c = config_of(two, 2);
    assert_int_equal(c.v[WS_P_warps].i, 64);
    assert_int_equal(c.v[WS_P_reg_alloc_unit].i, 256);
    ws_config def;
    ws_config_defaults(&def);
    c.v[WS_P_preset].i = 0;
    ws_config_apply_preset(&c, NULL);
    assert_memory_equal(&c, &def, sizeof c);
    /* no preset: nothing changes */
    ws_config e = config_of(NULL, 0);
    assert_memory_equal(&e, &def, sizeof e);
}

static ws_sweep *load(const char *text, const char *const *sets, int nsets)
{
    ws_sweep **sws;
    int n;
    ws_error err = {{0}};
    ws_sweep_opts o = {.sets = sets, .nsets = nsets};
    if (ws_sweep_load_text("t.yaml", text, strlen(text), NULL, &o, &sws, &n, &err))
        fail_msg("unexpected error: %s", err.msg);
    assert_int_equal(n, 1);
    ws_sweep *sw = sws[0];
    free(sws);
    return sw;
}

static double pt_num(const ws_sweep *sw, uint64_t k, const char *name)
{
    ws_point pt;
    ws_sweep_point(sw, k, &pt);
    return num(&pt.cfg, name);
}

static void test_sweep_base_and_axis(void **state)
{
    (void)state;
    /* preset in base, an axis and a base value overriding it */
    ws_sweep *sw = load("workload: w.yaml\nbase:\n  preset: volta\n  alu_latency: 7\ngrid:\n  warps: [8, 16]\n",
                        NULL, 0);
    assert_int_equal(sw->count, 2);
    for (uint64_t k = 0; k < 2; k++) {
        assert_true(pt_num(sw, k, "warps") == (k ? 16 : 8));
        assert_true(pt_num(sw, k, "alu_latency") == 7);
        assert_true(pt_num(sw, k, "schedulers") == 4);
        assert_true(pt_num(sw, k, "smem_kb") == 96);
        assert_true(pt_num(sw, k, "sfu_lanes") == 4);
    }
    assert_false(sw->varying[WS_P_schedulers]);   /* one preset: constant */
    ws_sweep_free(sw);

    /* preset as an axis: each point expands its own; base fp32_lanes beats all */
    sw = load("workload: w.yaml\nbase:\n  fp32_lanes: 8\ngrid:\n  preset: [seed, fermi, volta]\n", NULL, 0);
    assert_int_equal(sw->count, 3);
    assert_true(pt_num(sw, 0, "warps") == 32 && pt_num(sw, 0, "int_lanes") == 0);
    assert_true(pt_num(sw, 1, "warps") == 48 && pt_num(sw, 1, "int_lanes") == 16);
    assert_true(pt_num(sw, 2, "warps") == 64 && pt_num(sw, 2, "schedulers") == 4);
    for (uint64_t k = 0; k < 3; k++)
        assert_true(pt_num(sw, k, "fp32_lanes") == 8);
    assert_true(sw->varying[WS_P_warps] && sw->varying[WS_P_int_lanes] && sw->varying[WS_P_l1_kb]);
    assert_false(sw->varying[WS_P_fp32_lanes]);   /* given */
    assert_false(sw->varying[WS_P_barrier_regs]); /* no preset sets it (mem_latency: issue 12 does) */
    assert_false(sw->varying[WS_P_warp_size]);    /* every preset gives 32, the default */
    ws_sweep_free(sw);

    /* zip of preset with a parameter it sets: the zip value wins */
    sw = load("workload: w.yaml\nzip:\n  - {preset: [fermi, volta], warps: [4, 6]}\n", NULL, 0);
    assert_true(pt_num(sw, 0, "warps") == 4 && pt_num(sw, 0, "schedulers") == 2);
    assert_true(pt_num(sw, 1, "warps") == 6 && pt_num(sw, 1, "schedulers") == 4);
    ws_sweep_free(sw);
}

static void test_sweep_set_and_derived(void **state)
{
    (void)state;
    /* --set preset= beats nothing the file gives; --set value beats the preset */
    const char *set_preset[] = {"preset=volta"};
    ws_sweep *sw = load("workload: w.yaml\nbase:\n  alu_latency: 9\ngrid:\n  warps: [8]\n", set_preset, 1);
    assert_true(pt_num(sw, 0, "alu_latency") == 9 && pt_num(sw, 0, "schedulers") == 4);
    ws_sweep_free(sw);
    const char *set_value[] = {"schedulers=2"};
    sw = load("workload: w.yaml\nbase:\n  preset: volta\ngrid:\n  warps: [8]\n", set_value, 1);
    assert_true(pt_num(sw, 0, "schedulers") == 2 && pt_num(sw, 0, "smem_kb") == 96);
    ws_sweep_free(sw);

    /* derived values see the preset's values: smem_kb = warps * 2 */
    sw = load("workload: w.yaml\nbase:\n  smem_kb: \"=warps * 2\"\ngrid:\n  preset: [fermi, volta, none]\n",
              NULL, 0);
    assert_true(pt_num(sw, 0, "smem_kb") == 96);    /* 48 warps */
    assert_true(pt_num(sw, 1, "smem_kb") == 128);   /* 64 warps */
    assert_true(pt_num(sw, 2, "smem_kb") == 128);   /* 64 warps, the default (a V100 SM) */
    ws_sweep_free(sw);
}

static void test_unknown_preset(void **state)
{
    (void)state;
    ws_sweep **sws;
    int n;
    ws_error err = {{0}};
    ws_sweep_opts o = {0};
    const char *text = "workload: w.yaml\ngrid:\n  preset: [volta, voltaa]\n";
    assert_int_equal(ws_sweep_load_text("t.yaml", text, strlen(text), NULL, &o, &sws, &n, &err), -1);
    assert_string_equal(err.msg, "t.yaml:3:19: parameter preset: 'voltaa' is not one of "
                                 "none|seed|fermi|volta|turing|ampere|gpgpusim_qv100 (did you mean 'volta'?)");
    ws_config c;
    ws_config_defaults(&c);
    uint8_t given[WS_NPARAMS] = {0};
    assert_int_equal(ws_config_assign(&c, given, "preset=Turing", &err), -1);
    assert_string_equal(err.msg, "parameter preset: 'Turing' is not one of none|seed|fermi|volta|turing|ampere|gpgpusim_qv100 "
                                 "(did you mean 'turing'?)");
    /* far from every name: no guess */
    assert_int_equal(ws_config_assign(&c, given, "preset=kepler", &err), -1);
    assert_string_equal(err.msg, "parameter preset: 'kepler' is not one of none|seed|fermi|volta|turing|ampere|gpgpusim_qv100");
}

/* The value parameter i has under preset p alone (the registry default where
 * p does not set it). */
static ws_value part_value(int64_t p, int i)
{
    ws_config d;
    ws_config_defaults(&d);
    ws_value v;
    return ws_preset_get(p, i, &v) ? v : d.v[i];
}

/* Every parameter some preset sets has one part; each part comes from the
 * preset its parameter chooses, whatever the others choose. */
static void test_parts(void **state)
{
    (void)state;
    for (int k = 0; k < ws_npreset_values; k++)
        if (ws_preset_part(ws_preset_values[k].param) < 0)
            fail_msg("%s (set by preset %s) has no part in preset_parts.def", ws_params[ws_preset_values[k].param].name,
                     ws_preset_values[k].preset);
    for (int i = 0; i < WS_NPARAMS; i++) {
        int set = 0;
        for (int k = 0; k < ws_npreset_values; k++) set |= ws_preset_values[k].param == i;
        if (ws_preset_part(i) >= 0 && !set) fail_msg("preset_parts.def lists %s, which no preset sets", ws_params[i].name);
    }
    assert_int_equal(ws_preset_part(WS_P_schedulers), WS_PART_CORE);
    assert_int_equal(ws_preset_part(WS_P_l2_kb), WS_PART_MEM);
    assert_int_equal(ws_preset_part(WS_P_area_node_nm), WS_PART_AREA);
    assert_int_equal(ws_preset_part(WS_P_barrier_regs), -1);

    /* {assignments, the preset each part must come from} */
    struct { const char *sets[3]; int n; const char *core, *mem, *area; } cases[] = {
        {{"preset_mem=ampere"}, 1, "none", "ampere", "none"},
        {{"preset=ampere", "preset_core=none"}, 2, "none", "ampere", "ampere"},
        {{"preset_core=none", "preset=ampere"}, 2, "none", "ampere", "ampere"},
        {{"preset=volta", "preset_mem=fermi", "preset_area=seed"}, 3, "volta", "fermi", "seed"},
        {{"preset=turing", "preset_mem=preset"}, 2, "turing", "turing", "turing"},
        {{"preset_area=ampere", "preset_core=seed"}, 2, "seed", "none", "ampere"},
    };
    for (size_t t = 0; t < sizeof cases / sizeof cases[0]; t++) {
        ws_config c = config_of(cases[t].sets, cases[t].n);
        const char *want[WS_NPARTS] = {cases[t].core, cases[t].mem, cases[t].area};
        for (int i = 0; i < WS_NPARAMS; i++) {
            int part = ws_preset_part(i);
            if (part < 0) continue;
            ws_value v = part_value(preset_index(want[part]), i);
            if (memcmp(&v, &c.v[i], sizeof v))
                fail_msg("case %zu: %s is not preset %s's", t, ws_params[i].name, want[part]);
        }
    }
    /* an explicit value beats its part's preset */
    const char *given[] = {"l2_kb=1", "preset_mem=ampere"};
    ws_config c = config_of(given, 2);
    assert_int_equal(c.v[WS_P_l2_kb].i, 1);
    /* the note names the core and the node when preset=ampere sets them */
    char buf[4096];
    const char *amp[] = {"preset=ampere"};
    c = config_of(amp, 1);
    assert_true(ws_preset_describe(&c, WS_PART_AREA, buf, sizeof buf));
    assert_non_null(strstr(buf, "area.node_nm=7"));
    assert_true(ws_preset_describe(&c, WS_PART_CORE, buf, sizeof buf));
    assert_non_null(strstr(buf, "schedulers=4"));
    const char *none[] = {"preset_mem=ampere"};
    c = config_of(none, 1);
    assert_false(ws_preset_describe(&c, WS_PART_CORE, buf, sizeof buf));   /* core part: none */
}

/* A part on an axis varies only its own parameters. */
static void test_sweep_parts(void **state)
{
    (void)state;
    ws_sweep *sw = load("workload: w.yaml\ngrid:\n  preset_mem: [none, ampere]\n", NULL, 0);
    assert_int_equal(sw->count, 2);
    assert_true(pt_num(sw, 0, "schedulers") == pt_num(sw, 1, "schedulers"));
    assert_true(sw->varying[WS_P_l2_kb]);
    assert_false(sw->varying[WS_P_schedulers]);
    assert_false(sw->varying[WS_P_area_node_nm]);
    ws_sweep_free(sw);
    /* preset in base, its memory on an axis: the core stays the base preset's */
    sw = load("workload: w.yaml\nbase:\n  preset: ampere\ngrid:\n  preset_mem: [preset, none]\n", NULL, 0);
    assert_true(pt_num(sw, 0, "schedulers") == 4 && pt_num(sw, 1, "schedulers") == 4);
    assert_true(pt_num(sw, 0, "area.node_nm") == 7 && pt_num(sw, 1, "area.node_nm") == 7);
    assert_true(sw->varying[WS_P_l2_kb]);
    assert_false(sw->varying[WS_P_schedulers]);
    ws_sweep_free(sw);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_carveout),
        cmocka_unit_test(test_every_line_is_valid),
        cmocka_unit_test(test_seed_is_the_seeds_model),
        cmocka_unit_test(test_spot_checks),
        cmocka_unit_test(test_presets_are_consistent),
        cmocka_unit_test(test_explicit_beats_preset),
        cmocka_unit_test(test_sweep_base_and_axis),
        cmocka_unit_test(test_sweep_set_and_derived),
        cmocka_unit_test(test_unknown_preset),
        cmocka_unit_test(test_parts),
        cmocka_unit_test(test_sweep_parts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
