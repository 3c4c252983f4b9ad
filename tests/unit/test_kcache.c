/*
 * The sweep's shared cache (src/sim/kcache.c): one computation per key
 * however many threads ask at once, distinct entries for distinct keys, the
 * reference's step-limit rule, eviction only of entries no point holds, and
 * ws_sim_run with a shared cache giving what a private one gives.
 *
 * Expected values are independent of the cache: counts of computations
 * follow from the keys asked for (each distinct key once), and every cached
 * answer is compared with a direct call (ws_reference_run, a private
 * ws_sim) made without it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "warpsweep/params.h"
#include "warpsweep/workload.h"
#include "warpsweep/passes.h"
#include "sim/kcache.h"

#define NTHREADS 4
#define LIMIT 100000000ull

/* tests/kernels-independent shipped workloads: matmul compares memory with
 * the reference (expect: reference), reduce does not; both have bar.sync,
 * so the barrier pass has work to do. */
static ws_workload *load(const char *name)
{
    char path[512];
    const char *src = getenv("WS_SOURCE_DIR");
    snprintf(path, sizeof path, "%s/sweeps/kernels/%s.yaml", src ? src : ".", name);
    ws_error err = {{0}};
    ws_workload *wl = ws_workload_load(path, &err);
    if (!wl) fail_msg("%s: %s", path, err.msg);
    return wl;
}

static ws_kcache_stats stats(ws_kcache *c)
{
    ws_kcache_stats st;
    ws_kcache_get_stats(c, &st);
    return st;
}

static void assert_same_image(const ws_memimage *a, const ws_memimage *b)
{
    assert_int_equal(a->gmem.nregions, b->gmem.nregions);
    for (uint32_t i = 0; i < a->gmem.nregions; i++) {
        assert_int_equal(a->gmem.regions[i].size, b->gmem.regions[i].size);
        assert_memory_equal(a->gmem.regions[i].data, b->gmem.regions[i].data, a->gmem.regions[i].size);
    }
}

/* res and img are what ws_reference_run(wl, seed, 32, limit) gives. */
static void assert_direct(const ws_workload *wl, uint64_t seed, uint64_t limit, const ws_result *res,
                          const ws_memimage *img)
{
    ws_memimage dimg;
    ws_result dres;
    memset(&dimg, 0, sizeof dimg);
    ws_reference_run(wl, seed, 32, limit, &dimg, &dres);
    assert_int_equal(res->status, dres.status);
    assert_string_equal(res->message, dres.message);
    assert_memory_equal(res->metrics, dres.metrics, sizeof dres.metrics);
    assert_same_image(img, &dimg);
    ws_memimage_free(&dimg);
}

/* NTHREADS threads ask for the same kernel, reference and count at the same
 * moment: one computation each, one answer for all. */
static void test_compute_once(void **st)
{
    (void)st;
    ws_workload *wl = load("matmul");
    ws_kcache *c = ws_kcache_new();
    const ws_kernel *ks[NTHREADS];
    const ws_result *rs[NTHREADS];
    const ws_memimage *imgs[NTHREADS];
    uint64_t counts[NTHREADS];
    ws_kc_pins pins[NTHREADS];
    memset(pins, 0, sizeof pins);
#pragma omp parallel num_threads(NTHREADS)
    {
        int t = omp_get_thread_num();
        ws_error err = {{0}};
#pragma omp barrier
        ks[t] = ws_kcache_kernel(c, &pins[t], wl->kernel, 1, 40, 2, 16, 0, &err);
        rs[t] = ws_kcache_reference(c, &pins[t], wl, 7, 32, LIMIT, 0, &imgs[t]);
        int status;
        ws_kcache_work(c, wl, 7, 32, LIMIT, &status, &counts[t]);
    }
    for (int t = 1; t < NTHREADS; t++) {
        assert_ptr_equal(ks[t], ks[0]);
        assert_ptr_equal(rs[t], rs[0]);
        assert_ptr_equal(imgs[t], imgs[0]);
        assert_int_equal(counts[t], counts[0]);
    }
    assert_non_null(ks[0]);
    ws_kcache_stats s = stats(c);
    assert_int_equal(s.kernels_built, 2);    /* the list-scheduled kernel, then its barrier pass */
    assert_int_equal(s.references_run, 1);   /* the count comes from the image's run (matmul needs it) */
    assert_int_equal(s.kernels, 2);
    assert_int_equal(s.references, 1);
    assert_int_equal(s.works, 1);

    /* the answer is the direct run's */
    ws_memimage img;
    ws_result res;
    memset(&img, 0, sizeof img);
    ws_reference_run(wl, 7, 32, LIMIT, &img, &res);
    assert_int_equal(res.status, WS_ST_OK);
    assert_int_equal(rs[0]->status, WS_ST_OK);
    assert_string_equal(rs[0]->message, res.message);
    assert_memory_equal(rs[0]->metrics, res.metrics, sizeof res.metrics);
    assert_int_equal(counts[0], (uint64_t)res.metrics[WS_M_thread_insts].i);
    assert_same_image(imgs[0], &img);
    ws_memimage_free(&img);

    for (int t = 0; t < NTHREADS; t++) {
        ws_kcache_release(c, &pins[t]);
        free(pins[t].e);
    }
    ws_kcache_free(c);
    ws_workload_free(wl);
}

/* Keys: every setting a pass reads makes its own entry; settings a pass
 * does not read do not. */
static void test_kernel_keys(void **st)
{
    (void)st;
    ws_workload *wl = load("reduce");
    ws_kcache *c = ws_kcache_new();
    ws_kc_pins p = {0};
    ws_error err = {{0}}, e2 = {{0}};
    const ws_kernel *k = wl->kernel;
    assert_ptr_equal(ws_kcache_kernel(c, &p, k, 0, 10, 0, 16, 0, &err), k);   /* nothing to do: k itself */
    assert_int_equal(stats(c).kernels_built, 0);
    const ws_kernel *a = ws_kcache_kernel(c, &p, k, 0, 0, 1, 16, 0, &err);   /* barrier pass, 16 regs, spin */
    const ws_kernel *b = ws_kcache_kernel(c, &p, k, 0, 0, 1, 16, 1, &err);   /* ... yield all */
    const ws_kernel *d = ws_kcache_kernel(c, &p, k, 0, 0, 1, 8, 0, &err);    /* ... 8 regs */
    const ws_kernel *e = ws_kcache_kernel(c, &p, k, 0, 0, 2, 16, 0, &err);   /* ... then sink release */
    const ws_kernel *f = ws_kcache_kernel(c, &p, k, 1, 10, 0, 16, 0, &err);  /* list-scheduled, budget 10 */
    const ws_kernel *g = ws_kcache_kernel(c, &p, k, 1, 20, 0, 16, 0, &err);  /* ... budget 20 */
    const ws_kernel *all[] = {a, b, d, e, f, g};
    for (int i = 0; i < 6; i++) {
        assert_non_null(all[i]);
        assert_true(all[i] != k);
        for (int j = 0; j < i; j++) assert_true(all[i] != all[j]);
    }
    assert_int_equal(stats(c).kernels_built, 6);
    /* the same keys again, and settings the pass ignores: no new entry */
    assert_ptr_equal(ws_kcache_kernel(c, &p, k, 0, 0, 1, 16, 0, &err), a);
    assert_ptr_equal(ws_kcache_kernel(c, &p, k, 0, 99, 1, 16, 1, &err), b);   /* budget unused unscheduled */
    assert_ptr_equal(ws_kcache_kernel(c, &p, k, 1, 10, 0, 4, 1, &err), f);    /* regs, yield unused without the pass */
    ws_kcache_release(c, &p);
    assert_ptr_equal(ws_kcache_kernel(c, &p, k, 1, 20, 0, 16, 0, &err), g);   /* kept after release */
    ws_kcache_stats s = stats(c);
    assert_int_equal(s.kernels_built, 6);
    assert_int_equal(s.kernels, 6);
    /* scheduled, then the pass: the schedule f is reused, two passes run */
    const ws_kernel *h = ws_kcache_kernel(c, &p, k, 1, 10, 1, 16, 0, &err);
    const ws_kernel *i = ws_kcache_kernel(c, &p, k, 1, 10, 1, 16, 1, &err);
    assert_true(h && i && h != i && h != a && i != b && h != f);
    assert_int_equal(stats(c).kernels_built, 8);
    ws_kernel *fb = ws_barrier_transform(f, 16, 0, &e2);   /* what the two passes in a row give */
    assert_non_null(fb);
    assert_int_equal(h->ninsts, fb->ninsts);
    for (uint32_t n = 0; n < h->ninsts; n++) assert_int_equal(h->insts[n].op, fb->insts[n].op);
    ws_kernel_free(fb);
    /* the barrier pass inserted its instructions: what the pass itself gives */
    ws_kernel *direct = ws_barrier_transform(k, 16, 1, &e2);
    assert_non_null(direct);
    assert_int_equal(b->ninsts, direct->ninsts);
    for (uint32_t i = 0; i < b->ninsts; i++) assert_int_equal(b->insts[i].op, direct->insts[i].op);
    ws_kernel_free(direct);
    ws_kcache_release(c, &p);
    free(p.e);
    ws_kcache_free(c);
    ws_workload_free(wl);
}

/* References: seed, warp size and lock-step are keys; the step limit is
 * one only where it changes the outcome. */
static void test_reference_keys(void **st)
{
    (void)st;
    ws_workload *wl = load("matmul");
    ws_kcache *c = ws_kcache_new();
    ws_kc_pins p = {0};
    const ws_memimage *img;
    const ws_result *r1 = ws_kcache_reference(c, &p, wl, 1, 32, LIMIT, 0, &img);
    const ws_result *r2 = ws_kcache_reference(c, &p, wl, 2, 32, LIMIT, 0, &img);
    const ws_result *r3 = ws_kcache_reference(c, &p, wl, 1, 16, LIMIT, 0, &img);
    const ws_result *r4 = ws_kcache_reference(c, &p, wl, 1, 32, LIMIT, 1, &img);
    assert_true(r1 != r2 && r1 != r3 && r1 != r4 && r2 != r3 && r2 != r4 && r3 != r4);
    assert_int_equal(stats(c).references_run, 4);
    assert_int_equal(r1->status, WS_ST_OK);
    uint64_t steps = (uint64_t)r1->metrics[WS_M_thread_insts].i;
    assert_true(steps > 1);
    /* a run that ended after `steps` steps answers any limit above them, and no limit */
    assert_ptr_equal(ws_kcache_reference(c, &p, wl, 1, 32, steps + 1, 0, &img), r1);
    assert_ptr_equal(ws_kcache_reference(c, &p, wl, 1, 32, 0, 0, &img), r1);
    assert_int_equal(stats(c).references_run, 4);
    /* a limit the run reaches: its own run, a timeout, as the direct run says */
    const ws_result *t = ws_kcache_reference(c, &p, wl, 1, 32, steps - 1, 0, &img);
    assert_true(t != r1);
    assert_int_equal(stats(c).references_run, 5);
    assert_int_equal(t->status, WS_ST_TIMEOUT);
    assert_direct(wl, 1, steps - 1, t, img);
    /* a timeout answers only its own limit */
    assert_ptr_equal(ws_kcache_reference(c, &p, wl, 1, 32, steps - 1, 0, &img), t);
    const ws_result *t2 = ws_kcache_reference(c, &p, wl, 1, 32, steps / 2, 0, &img);
    assert_true(t2 != t && t2 != r1);
    assert_int_equal(stats(c).references_run, 6);
    assert_int_equal(t2->status, WS_ST_TIMEOUT);
    assert_direct(wl, 1, steps / 2, t2, img);
    /* the limit the run just makes: the direct run's answer (ok) */
    const ws_result *t3 = ws_kcache_reference(c, &p, wl, 1, 32, steps, 0, &img);
    assert_int_equal(t3->status, WS_ST_OK);
    assert_direct(wl, 1, steps, t3, img);
    uint64_t runs = stats(c).references_run;
    /* the count of a workload that does not need the image: its own run, no image kept */
    ws_workload *rd = load("reduce");
    int status;
    uint64_t n;
    ws_kcache_work(c, rd, 1, 32, LIMIT, &status, &n);
    ws_kcache_stats s = stats(c);
    assert_int_equal(s.references_run, runs + 1);
    assert_int_equal(s.references, runs);
    assert_int_equal(s.works, 1);
    ws_memimage dimg;
    ws_result dres;
    memset(&dimg, 0, sizeof dimg);
    ws_reference_run(rd, 1, 32, LIMIT, &dimg, &dres);
    assert_int_equal(status, dres.status);
    assert_int_equal(n, (uint64_t)dres.metrics[WS_M_thread_insts].i);
    ws_memimage_free(&dimg);
    ws_kcache_work(c, rd, 1, 32, LIMIT, &status, &n);
    assert_int_equal(stats(c).references_run, runs + 1);
    ws_kcache_release(c, &p);
    free(p.e);
    ws_kcache_free(c);
    ws_workload_free(rd);
    ws_workload_free(wl);
}

/* Capacity 1: entries in use stay (and stay valid) beyond it; released
 * ones go, least recently used first. */
static void test_eviction(void **st)
{
    (void)st;
    ws_workload *wl = load("reduce");
    ws_kcache *c = ws_kcache_new_sized(1, 1, UINT64_MAX, 1);
    ws_kc_pins p = {0}, p2 = {0};
    ws_error err = {{0}};
    const ws_kernel *a = ws_kcache_kernel(c, &p, wl->kernel, 0, 0, 1, 16, 0, &err);
    const ws_kernel *b = ws_kcache_kernel(c, &p2, wl->kernel, 0, 0, 1, 16, 1, &err);
    assert_int_equal(stats(c).kernels, 2);   /* both held */
    assert_true(a->ninsts > wl->kernel->ninsts && b->ninsts > 0);   /* both still readable (ASan) */
    ws_kcache_release(c, &p);                /* a goes */
    assert_int_equal(stats(c).kernels, 1);
    assert_ptr_equal(ws_kcache_kernel(c, &p2, wl->kernel, 0, 0, 1, 16, 1, &err), b);
    ws_kcache_release(c, &p2);
    assert_int_equal(stats(c).kernels, 1);
    a = ws_kcache_kernel(c, &p, wl->kernel, 0, 0, 1, 16, 0, &err);   /* built again; b goes */
    assert_non_null(a);
    ws_kcache_stats s = stats(c);
    assert_int_equal(s.kernels_built, 3);
    assert_int_equal(s.kernels, 1);
    /* references: the byte limit too */
    ws_kcache *c2 = ws_kcache_new_sized(4, 4, 1, 4);
    const ws_memimage *img;
    ws_kcache_reference(c2, &p2, wl, 1, 32, LIMIT, 0, &img);
    ws_kcache_reference(c2, &p2, wl, 2, 32, LIMIT, 0, &img);
    assert_int_equal(stats(c2).references, 2);
    ws_kcache_release(c2, &p2);
    assert_int_equal(stats(c2).references, 0);   /* over the byte limit: none kept */
    ws_kcache_release(c, &p);
    free(p.e);
    free(p2.e);
    ws_kcache_free(c);
    ws_kcache_free(c2);
    ws_workload_free(wl);
}

/* Points run on NTHREADS ws_sims sharing a cache, in both orders, give what
 * a private ws_sim gives for each point alone. */
static void test_shared_sims(void **st)
{
    (void)st;
    ws_workload *wl = load("matmul");
    static const char *const sets[][3] = {
        {"divergence=stack", "scheduler=lrr", "seed=1"},   {"divergence=sbi", "scheduler=gto", "seed=2"},
        {"divergence=barrier", "scheduler=lrr", "seed=1"}, {"divergence=tbc", "scheduler=gto", "seed=2"},
        {"divergence=barrier", "barrier_yield=all", "seed=2"}, {"divergence=sbi", "inst_order=ptx", "seed=1"},
    };
    enum { NPTS = sizeof sets / sizeof sets[0] };
    ws_config cfg[NPTS];
    static ws_result want[NPTS], got[2][NPTS];
    for (int i = 0; i < NPTS; i++) {
        ws_config_defaults(&cfg[i]);
        ws_error err = {{0}};
        for (int j = 0; j < 3; j++) assert_int_equal(ws_config_set(&cfg[i], sets[i][j], &err), 0);
        ws_config_apply_preset(&cfg[i], NULL);
        ws_sim *s = ws_sim_new();
        ws_sim_run(s, wl, &cfg[i], NULL, &want[i]);
        ws_sim_free(s);
        assert_int_equal(want[i].status, WS_ST_OK);
    }
    for (int order = 0; order < 2; order++) {
        ws_kcache *c = ws_kcache_new();
#pragma omp parallel num_threads(NTHREADS)
        {
            ws_sim *s = ws_sim_new_shared(c);
#pragma omp for schedule(dynamic, 1)
            for (int i = 0; i < NPTS; i++) {
                int k = order ? NPTS - 1 - i : i;
                ws_sim_run(s, wl, &cfg[k], NULL, &got[order][k]);
            }
            ws_sim_free(s);
        }
        ws_kcache_stats s = stats(c);
        assert_int_equal(s.references_run, 2);   /* seeds 1 and 2 */
        ws_kcache_free(c);
        for (int i = 0; i < NPTS; i++) {
            assert_int_equal(got[order][i].status, want[i].status);
            assert_string_equal(got[order][i].message, want[i].message);
            assert_memory_equal(got[order][i].metrics, want[i].metrics, sizeof want[i].metrics);
        }
    }
    ws_workload_free(wl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compute_once),
        cmocka_unit_test(test_kernel_keys),
        cmocka_unit_test(test_reference_keys),
        cmocka_unit_test(test_eviction),
        cmocka_unit_test(test_shared_sims),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
