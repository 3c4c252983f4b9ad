/* Launch sequences (issue 16): the `launches:` form decoded into the flat
 * statement list, the driver ws_sequence_run over a memory image, and the
 * format's errors. Statement lists, iteration counts and error positions
 * (line:col, 1-based, the first character of the key or value) are worked
 * out by hand from the YAML texts below. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "warpsweep/sim.h"
#include "warpsweep/workload.h"
#include "tmpdir.h"


static const char *TWO_PTX =
    ".version 7.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry k1(.param .u64 p0)\n{\n\tret;\n}\n"
    ".visible .entry k2(.param .u64 p0, .param .u32 p1)\n{\n\tret;\n}\n";
static const char *DATA1_PTX =
    ".version 7.0\n.target sm_75\n.address_size 64\n.global .align 4 .u32 g1[4];\n"
    ".visible .entry d1(.param .u64 p0)\n{\n\tret;\n}\n";
static const char *DATA2_PTX =
    ".version 7.0\n.target sm_75\n.address_size 64\n.global .align 4 .u32 g2[4];\n"
    ".visible .entry d2(.param .u64 p0)\n{\n\tret;\n}\n";

static int setup(void **state)
{
    (void)state;
    tmpdir_make("ws_seq");
    write_file("two.ptx", TWO_PTX);
    write_file("d1.ptx", DATA1_PTX);
    write_file("d2.ptx", DATA2_PTX);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    tmpdir_remove();
    return 0;
}

static ws_workload *load(const char *text, ws_error *err)
{
    write_file("w.yaml", text);
    char path[256];
    snprintf(path, sizeof path, "%s/w.yaml", dir);
    memset(err, 0, sizeof *err);
    return ws_workload_load(path, err);
}

static ws_workload *load_ok(const char *text)
{
    ws_error err;
    ws_workload *wl = load(text, &err);
    if (!wl)
        fail_msg("load failed: %s", err.msg);
    return wl;
}

/* err.msg is "DIR/w.yaml:LINE:COL: ..." containing `what` */
static void load_fails(const char *text, int line, int col, const char *what)
{
    ws_error err;
    ws_workload *wl = load(text, &err);
    if (wl) {
        ws_workload_free(wl);
        fail_msg("loaded, expected an error at %d:%d (%s)", line, col, what);
    }
    char want[320];
    snprintf(want, sizeof want, "%s/w.yaml:%d:%d: ", dir, line, col);
    if (strncmp(err.msg, want, strlen(want)) != 0 || !strstr(err.msg, what))
        fail_msg("got '%s', want '%s...%s'", err.msg, want, what);
    assert_null(strchr(err.msg, '\n'));   /* one line */
}

#define HEAD                                                                                                           \
    "kernel: two.ptx\n"                                                                                                \
    "buffers:\n"                                                                                                       \
    "  a: {type: u32, count: 4, init: 0}\n"                                                                            \
    "  f: {type: f32, count: 2, init: 0}\n"
#define K1 "{entry: k1, grid: 1, block: 32, params: [a], regs_per_thread: 8}"
#define K2 "{entry: k2, name: second, grid: [2, 2], block: 64, params: [a, 7], regs_per_thread: 9}"

/* The flattened list of
 *   0 LAUNCH k1
 *   1 SET f = 2.5
 *   2 LOOP repeat 3 (depth 0)      jump 7
 *   3   LAUNCH k2
 *   4   LOOP until a == 0, max 5 (depth 1)   jump 6
 *   5     LAUNCH k1
 *   6   END (depth 1) -> 4
 *   7 END (depth 0) -> 2
 */
static void test_decode(void **s)
{
    (void)s;
    ws_workload *wl = load_ok(HEAD "launches:\n"
                                   "  - " K1 "\n"
                                   "  - set: {buffer: f, value: 2.5}\n"
                                   "  - loop:\n"
                                   "      repeat: 3\n"
                                   "      body:\n"
                                   "        - " K2 "\n"
                                   "        - loop: {until: {buffer: a, equals: 0}, max: 5, body: [" K1 "]}\n");
    assert_int_equal(wl->nstmts, 8);
    assert_int_equal(wl->nlaunches, 3);
    assert_int_equal(wl->nkernels, 2);   /* (two.ptx, k1) loaded once for two statements */
    const ws_seq_stmt *st = wl->stmts;
    static const int ops[8] = {WS_SEQ_LAUNCH, WS_SEQ_SET, WS_SEQ_LOOP, WS_SEQ_LAUNCH,
                               WS_SEQ_LOOP,   WS_SEQ_LAUNCH, WS_SEQ_END, WS_SEQ_END};
    for (int i = 0; i < 8; i++)
        assert_int_equal(st[i].op, ops[i]);
    assert_int_equal(st[0].launch, 0);
    assert_int_equal(st[3].launch, 1);
    assert_int_equal(st[5].launch, 2);
    assert_int_equal(st[1].buffer, 1);
    assert_int_equal(st[1].bits, 0x40200000u);   /* 2.5f */
    assert_int_equal(st[2].count, 3);
    assert_int_equal(st[2].jump, 7);
    assert_int_equal(st[2].depth, 0);
    assert_int_equal(st[7].jump, 2);
    assert_false(st[7].until);
    assert_int_equal(st[4].count, 5);
    assert_int_equal(st[4].depth, 1);
    assert_int_equal(st[4].jump, 6);
    assert_int_equal(st[6].jump, 4);
    assert_true(st[6].until);
    assert_int_equal(st[6].buffer, 0);
    assert_int_equal(st[6].bits, 0);
    /* positions: "  - " puts each statement at column 5 */
    assert_int_equal(st[0].line, 6);
    assert_int_equal(st[0].col, 5);
    assert_int_equal(st[2].line, 8);
    /* launch fields; the top-level ones mirror the first launch */
    const ws_launch_spec *l2 = &wl->launches[1];
    assert_string_equal(l2->name, "second");
    assert_string_equal(wl->launches[0].name, "k1");
    assert_int_equal(l2->grid[0], 2);
    assert_int_equal(l2->grid[1], 2);
    assert_int_equal(l2->block[0], 64);
    assert_int_equal(l2->nargs, 2);
    assert_int_equal(l2->args[1].ivalue, 7);
    assert_int_equal(l2->regs_per_thread, 9);
    assert_ptr_equal(wl->kernel, wl->launches[0].kernel);
    assert_ptr_equal(wl->launches[0].kernel, wl->launches[2].kernel);
    assert_int_equal(wl->grid[0], 1);
    assert_int_equal(wl->regs_per_thread, 8);
    /* at most: 1 + 3 x (1 + 5) = 19 launches */
    assert_int_equal(ws_sequence_max_launches(wl), 19);
    ws_workload_free(wl);
}

static void test_one_launch_form(void **s)
{
    (void)s;
    ws_workload *wl = load_ok(HEAD "entry: k2\ngrid: 3\nblock: 32\nparams: [a, 1]\nregs_per_thread: 8\n");
    assert_int_equal(wl->nlaunches, 1);
    assert_int_equal(wl->nstmts, 1);
    assert_int_equal(wl->stmts[0].op, WS_SEQ_LAUNCH);
    assert_string_equal(wl->launches[0].name, "k2");
    assert_int_equal(wl->launches[0].grid[0], 3);
    assert_ptr_equal(wl->args, wl->launches[0].args);
    assert_int_equal(ws_sequence_max_launches(wl), 1);
    ws_workload_free(wl);
}

/* The driver with a stand-in for a kernel: each launch of k1 decrements
 * a[0] (until it is 0), so `until a == 0` stops after a[0] launches, or at max. */
typedef struct rec {
    ws_workload *wl;
    ws_memimage *mem;
    uint32_t n, stop_at;
    uint32_t launch[64];
    uint64_t iter[64];
} rec;

static int stand_in(void *ctx, const ws_launch_spec *l, uint32_t li, uint32_t stmt, uint64_t iteration)
{
    rec *r = ctx;
    (void)stmt;
    assert_ptr_equal(l, &r->wl->launches[li]);
    if (r->n < 64) {
        r->launch[r->n] = li;
        r->iter[r->n] = iteration;
    }
    r->n++;
    uint32_t *a = (uint32_t *)ws_memimage_buffer(r->mem, 0)->data;
    if (li != 1 && a[0]) a[0]--;
    return r->stop_at && r->n == r->stop_at ? 42 : 0;
}

static uint32_t run_seq(const char *text, uint32_t a0, rec *r)
{
    ws_workload *wl = load_ok(text);
    ws_memimage mem;
    ws_error err;
    assert_int_equal(ws_memimage_init(&mem, wl, 0, &err), 0);
    ((uint32_t *)ws_memimage_buffer(&mem, 0)->data)[0] = a0;
    uint32_t stop = r->stop_at;
    memset(r, 0, sizeof *r);
    r->stop_at = stop;
    r->wl = wl;
    r->mem = &mem;
    int rc = ws_sequence_run(wl, &mem, stand_in, r);
    assert_int_equal(rc, stop && r->n == stop ? 42 : 0);
    float f[2];
    memcpy(f, ws_memimage_buffer(&mem, 1)->data, sizeof f);
    uint32_t n = r->n;
    if (strstr(text, "set: {buffer: f"))
        assert_true(f[0] == 2.5f && f[1] == 2.5f);
    ws_memimage_free(&mem);
    ws_workload_free(wl);
    return n;
}

static void test_driver(void **s)
{
    (void)s;
    const char *until = HEAD "launches:\n"
                             "  - set: {buffer: f, value: 2.5}\n"
                             "  - loop: {until: {buffer: a, equals: 0}, max: 7, body: [" K1 "]}\n";
    rec r = {0};
    /* a[0] = 5: 5 launches (iterations 0..4), then a == 0... but a[1..3] are 0 too */
    assert_int_equal(run_seq(until, 5, &r), 5);
    for (uint32_t i = 0; i < 5; i++)
        assert_int_equal(r.iter[i], i);
    /* a[0] = 50: max 7 ends the loop (not an error) */
    assert_int_equal(run_seq(until, 50, &r), 7);
    /* a[0] = 0 before the loop: the condition is tested after an iteration, so one runs */
    assert_int_equal(run_seq(until, 0, &r), 1);
    /* nested repeat: 1 + 3 x 2 launches, inner iterations 0 1 0 1 0 1, k2's the outer one's */
    const char *nested = HEAD "launches:\n"
                              "  - " K1 "\n"
                              "  - loop: {repeat: 3, body: [" K2 ", {loop: {repeat: 2, body: [" K1 "]}}]}\n"
                              "  - loop: {repeat: 0, body: [" K1 "]}\n";
    assert_int_equal(run_seq(nested, 100, &r), 10);
    static const uint32_t want_l[10] = {0, 1, 2, 2, 1, 2, 2, 1, 2, 2};
    static const uint64_t want_i[10] = {0, 0, 0, 1, 1, 0, 1, 2, 0, 1};
    for (int i = 0; i < 10; i++) {
        assert_int_equal(r.launch[i], want_l[i]);
        assert_int_equal(r.iter[i], want_i[i]);
    }
    /* a nonzero return stops the sequence */
    r.stop_at = 4;
    assert_int_equal(run_seq(nested, 100, &r), 4);
}

static void test_params_per_launch(void **s)
{
    (void)s;
    ws_workload *wl = load_ok(HEAD "launches:\n  - " K1 "\n  - " K2 "\n");
    ws_memimage mem;
    ws_error err;
    assert_int_equal(ws_memimage_init(&mem, wl, 0, &err), 0);
    uint64_t a = ws_memimage_buffer(&mem, 0)->addr, p;
    memcpy(&p, ws_memimage_params(&mem, 0), 8);
    assert_int_equal(p, a);
    uint32_t seven;
    memcpy(&p, ws_memimage_params(&mem, 1), 8);
    memcpy(&seven, ws_memimage_params(&mem, 1) + wl->launches[1].kernel->params[1].offset, 4);
    assert_int_equal(p, a);
    assert_int_equal(seven, 7);
    assert_int_equal(mem.param_off[1], 8);   /* k1's 8 bytes, 8-aligned */
    ws_memimage_free(&mem);
    ws_workload_free(wl);
}

static void test_errors(void **s)
{
    (void)s;
    /* lines: 1 kernel, 2 buffers, 3 a, 4 f, 5 launches/entry, 6 ... */
    load_fails(HEAD "launches:\n  - set: {buffer: c, value: 0}\n  - " K1 "\n", 6, 19, "set on unknown buffer 'c'");
    load_fails(HEAD "launches:\n  - loop: {until: {buffer: ab, equals: 0}, max: 2, body: [" K1 "]}\n", 6, 28,
               "until on unknown buffer 'ab' (did you mean 'a'?)");
    load_fails(HEAD "launches:\n  - loop: {until: {buffer: a, equals: 0}, body: [" K1 "]}\n", 6, 12,
               "until needs max");
    load_fails(HEAD "launches:\n  - loop: {repeat: 2, until: {buffer: a, equals: 0}, max: 2, body: []}\n", 6, 23,
               "not both");
    load_fails(HEAD "grid: 1\nlaunches:\n  - " K1 "\n", 5, 1, "'grid' at the top level and 'launches'");
    load_fails(HEAD "launches:\n  - {entry: k3, grid: 1, block: 32, params: [a]}\n", 6, 13, "no .entry named 'k3'");
    load_fails(HEAD "launches:\n  - {entry: k1, grid: [1, 0], block: 32, params: [a]}\n", 6, 27, "grid: 0 is out of range");
    load_fails(HEAD "launches:\n  - {entry: k1, grid: 1, block: 2048, params: [a]}\n", 6, 33, "a CTA holds at most 1024");
    load_fails(HEAD "launches:\n  - {entry: k1, grid: 1, block: 32}\n", 6, 5, "missing required key 'params'");
    load_fails(HEAD "launches:\n  - {entry: k1, block: 32, params: [a]}\n", 6, 5, "missing required key 'grid'");
    load_fails(HEAD "launches:\n  - loop: {repeat: 1}\n", 6, 11, "missing required key 'body'");
    load_fails(HEAD "launches:\n  - set: {buffer: a, value: 4294967296}\n  - " K1 "\n", 6, 29, "out of range for u32");
    load_fails(HEAD "launches: []\n", 5, 11, "launches has no launch statement");
    load_fails(HEAD "launches:\n  - 3\n", 6, 5, "a statement must be a mapping");
    load_fails(HEAD "launches:\n  - {loop: {repeat: 1, body: []}, grid: 1}\n", 6, 35, "has no other keys");
    load_fails(HEAD "launches:\n  - {entry: k1, grdi: 1, block: 32, params: [a]}\n", 6, 17, "(did you mean 'grid'?)");
    load_fails("buffers:\n  a: {type: u32, count: 4}\nlaunches:\n  - {entry: k1, grid: 1, block: 32, params: [a]}\n", 4,
               5, "launch without a kernel");
    /* 17 nested loops: the innermost "loop" key is at line 5 + 17, column 3 + 2 x 16 + 2 */
    char deep[4096] = HEAD "launches:\n";
    for (int i = 0; i < 17; i++) {
        char ln[256];
        snprintf(ln, sizeof ln, "%*s- loop:\n%*s    repeat: 1\n%*s    body:\n", 2 + 4 * i, "", 2 + 4 * i, "",
                 2 + 4 * i, "");
        strcat(deep, ln);
    }
    strcat(deep, "                                                                          - " K1 "\n");
    load_fails(deep, 5 + 1 + 3 * 16, 3 + 4 * 16 + 2, "loops nested more than 16 deep");
    /* module data in two PTX files */
    load_fails("buffers:\n  a: {type: u32, count: 4}\nlaunches:\n"
               "  - {kernel: d1.ptx, grid: 1, block: 32, params: [a]}\n"
               "  - {kernel: d2.ptx, grid: 1, block: 32, params: [a]}\n",
               5, 14, "both define module data");
}

static void test_module_data_one_file(void **s)
{
    (void)s;
    /* one file's data may be used by several launches (the same data segment) */
    ws_workload *wl = load_ok("kernel: d1.ptx\nbuffers:\n  a: {type: u32, count: 4}\nlaunches:\n"
                              "  - {grid: 1, block: 32, params: [a]}\n  - {grid: 2, block: 32, params: [a]}\n");
    assert_non_null(wl->data_kernel);
    assert_int_equal(wl->nkernels, 1);
    ws_memimage mem;
    ws_error err;
    assert_int_equal(ws_memimage_init(&mem, wl, 0, &err), 0);
    assert_int_equal(mem.first_buffer, 1);   /* g1, then the buffer */
    ws_memimage_free(&mem);
    ws_workload_free(wl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decode),
        cmocka_unit_test(test_one_launch_form),
        cmocka_unit_test(test_driver),
        cmocka_unit_test(test_params_per_launch),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_module_data_one_file),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
