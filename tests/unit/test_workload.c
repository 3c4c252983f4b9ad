/* Workload files, memory images, expectation checks and result printing.
 * Error positions (line:col) are counted by hand from the YAML text below
 * (1-based, as the column of the first character of the key or value). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "warpsweep/report.h"
#include "warpsweep/sim.h"
#include "warpsweep/workload.h"
#include "tmpdir.h"


static const char *KPTX =
    ".version 7.0\n"
    ".target sm_75\n"
    ".address_size 64\n"
    "\n"
    ".visible .entry k(\n"
    "\t.param .u64 k_param_0,\n"
    "\t.param .u32 k_param_1\n"
    ")\n"
    "{\n"
    "\tret;\n"
    "}\n";

static int setup(void **state)
{
    (void)state;
    tmpdir_make("ws_wl");
    write_file("k.ptx", KPTX);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    tmpdir_remove();
    return 0;
}

/* Loads text as w.yaml; expects failure with message "<path>:<pos>: ..."
 * containing `needle`. */
static void expect_error(const char *text, const char *pos, const char *needle)
{
    write_file("w.yaml", text);
    char path[256], prefix[300];
    snprintf(path, sizeof path, "%s/w.yaml", dir);
    snprintf(prefix, sizeof prefix, "%s:%s: ", path, pos);
    ws_error err = {{0}};
    ws_workload *wl = ws_workload_load(path, &err);
    if (wl || strncmp(err.msg, prefix, strlen(prefix)) != 0 || !strstr(err.msg, needle) || strchr(err.msg, '\n'))
        fail_msg("expected error '%s...%s', got '%s' (%s)", prefix, needle, err.msg, wl ? "loaded" : "refused");
}

static const char *HEAD = "name: t\nkernel: k.ptx\ngrid: 1\nblock: 32\n";

static char *cat(const char *a, const char *b)
{
    static char buf[4096];
    snprintf(buf, sizeof buf, "%s%s", a, b);
    return buf;
}

/* ---- errors found in the YAML itself ---- */

static void test_missing_buffer(void **s)
{
    (void)s;
    /* line 7 "params: [a, bogus]": 'bogus' starts at column 13 */
    expect_error(cat(HEAD, "buffers:\n  a: {type: u32, count: 8}\nparams: [a, bogus]\n"), "7:13",
                 "missing buffer 'bogus'");
}

static void test_bad_type(void **s)
{
    (void)s;
    /* line 6 "  a: {type: u33, count: 8}": u33 at column 13 */
    expect_error(cat(HEAD, "buffers:\n  a: {type: u33, count: 8}\nparams: [a, 1]\n"), "6:13", "bad type 'u33'");
    /* block style: line 7 "    type: float" -> column 11 */
    expect_error(cat(HEAD, "buffers:\n  a:\n    type: float\n    count: 4\n"), "7:11", "bad type 'float'");
}

static void test_unknown_key_suggests(void **s)
{
    (void)s;
    /* line 5 "buffer:" */
    expect_error(cat(HEAD, "buffer:\n  a: {type: u32, count: 8}\n"), "5:1", "unknown key 'buffer'");
    expect_error(cat(HEAD, "buffer:\n  a: {type: u32, count: 8}\n"), "5:1", "did you mean 'buffers'?");
    /* a buffer's key: line 6 "  a: {type: u32, cont: 8}": cont at column 18 */
    expect_error(cat(HEAD, "buffers:\n  a: {type: u32, cont: 8}\n"), "6:18", "did you mean 'count'?");
}

static void test_bad_grid(void **s)
{
    (void)s;
    expect_error("kernel: k.ptx\ngrid: 0\nblock: 32\n", "2:7", "grid: 0 is out of range");
    expect_error("kernel: k.ptx\ngrid: [1, 2, 3, 4]\nblock: 32\n", "2:7", "grid must have 1 to 3 elements");
    /* "grid: [4, x]": x at column 11 */
    expect_error("kernel: k.ptx\ngrid: [4, x]\nblock: 32\n", "2:11", "grid: 'x' is not an integer");
    expect_error("kernel: k.ptx\ngrid: {x: 1}\nblock: 32\n", "2:7", "grid must be N or [x, y, z]");
    expect_error("kernel: k.ptx\ngrid: 1\nblock: [32, 64]\n", "3:8", "block has 2048 threads");
}

static void test_list_init_too_long(void **s)
{
    (void)s;
    /* "  a: {type: u32, count: 2, init: [1, 2, 3]}": '[' at column 34 */
    expect_error(cat(HEAD, "buffers:\n  a: {type: u32, count: 2, init: [1, 2, 3]}\n"), "6:34",
                 "the list has 3 values but the buffer holds 2");
}

static void test_other_errors(void **s)
{
    (void)s;
    expect_error("grid: 1\nblock: 32\n", "1:1", "missing required key 'kernel'");
    expect_error(cat(HEAD, "buffers:\n  a: {type: u32}\n"), "6:6", "missing required key 'count'");
    /* count: 0 at column 25, count: -3 at column 25 */
    expect_error(cat(HEAD, "buffers:\n  a: {type: u32, count: 0}\n"), "6:25", "count: 0 is out of range");
    expect_error(cat(HEAD, "buffers:\n  a: {type: u32, count: -3}\n"), "6:25", "count: -3 is out of range");
    /* init value out of range for u8: 300 at column 33 */
    expect_error(cat(HEAD, "buffers:\n  a: {type: u8, count: 2, init: 300}\n"), "6:33", "300 is out of range for u8");
    /* float in an integer list: 1.5 at column 38 */
    expect_error(cat(HEAD, "buffers:\n  a: {type: s32, count: 2, init: [1, 1.5]}\n"), "6:38", "'1.5' is not an integer");
    /* expect on an unknown buffer: line 8 "  c: [1]" */
    expect_error(cat(HEAD, "buffers:\n  a: {type: u32, count: 2}\nparams: [a, 1]\nexpect:\n  c: [1]\n"), "9:3",
                 "expect on unknown buffer 'c'");
    /* YAML syntax: the unclosed flow mapping */
    write_file("w.yaml", "kernel: k.ptx\ngrid: {1\n");
    char path[256];
    snprintf(path, sizeof path, "%s/w.yaml", dir);
    ws_error err = {{0}};
    assert_null(ws_workload_load(path, &err));
    assert_non_null(strstr(err.msg, "YAML syntax error"));
    assert_int_equal(strncmp(err.msg, path, strlen(path)), 0);
    /* the kernel file does not exist: "kernel: nope.ptx" value at 2:9 */
    expect_error("name: t\nkernel: nope.ptx\ngrid: 1\nblock: 32\n", "2:9", "kernel 'nope.ptx': cannot open");
}

/* Hostile input: sizes that would exhaust memory, numbers beyond 64 bits,
 * bytes that are not UTF-8, a directory where a file belongs. */
static void test_hostile_input(void **s)
{
    (void)s;
    /* 2 GiB + 4 bytes (256 as laid out) + 4 GiB: the third buffer (its count at 8:24) passes 4 GiB */
    expect_error(cat(HEAD, "buffers:\n  a: {type: f32, count: 536870912}\n  b: {type: f32, count: 1}\n"
                           "  c: {type: u8, count: 4294967296}\n"),
                 "8:24", "more than the limit of 4294967296 bytes (4 GiB) per workload");
    expect_error(cat(HEAD, "buffers:\n  a: {type: u32, count: 1000000000000}\n"), "6:25",
                 "count: 1000000000000 is out of range [1, 4294967296]");
    /* 2^64 and beyond: out of range, not "not an integer" nor a buffer name */
    expect_error(cat(HEAD, "buffers:\n  a: {type: u32, count: 99999999999999999999999}\n"), "6:25",
                 "out of range [1, 4294967296]");
    expect_error(cat(HEAD, "buffers:\n  a: {type: u64, count: 2, init: 18446744073709551616}\n"), "6:34",
                 "18446744073709551616 is out of range for u64");
    /* a 0xff byte at line 5, column 7 (after "name: ") */
    expect_error("kernel: k.ptx\ngrid: 1\nblock: 32\n\nname: \xff\n", "5:7", "invalid leading UTF-8 octet (byte 0xff)");
    /* the kernel is a directory: "kernel: ." value at 1:9 */
    expect_error("kernel: .\ngrid: 1\nblock: 32\n", "1:9", "is a directory, not a .ptx file");
    /* the workload file itself is a directory: no position, one line */
    ws_error err = {{0}};
    assert_null(ws_workload_load(dir, &err));
    assert_non_null(strstr(err.msg, "is a directory, not a workload file"));
}

/* ---- with the PTX front end ---- */

static ws_workload *load_ok(const char *text)
{
    write_file("w.yaml", text);
    char path[256];
    snprintf(path, sizeof path, "%s/w.yaml", dir);
    ws_error err = {{0}};
    ws_workload *wl = ws_workload_load(path, &err);
    if (!wl)
        fail_msg("load failed: %s", err.msg);
    return wl;
}

static void test_good_workload(void **s)
{
    (void)s;
    ws_workload *wl = load_ok("name: good\n"
                              "kernel: k.ptx\n"
                              "grid: [2, 3]\n"
                              "block: 64\n"
                              "regs_per_thread: 21\n"
                              "shared_bytes: 128\n"
                              "buffers:\n"
                              "  a: {type: f32, count: 8, init: {iota: {start: 1, step: 0.5}}}\n"
                              "  b: {type: s16, count: 4, init: [3, -1]}\n"
                              "  r: {type: u32, count: 16, init: {random: {min: 5, max: 9}}}\n"
                              "params: [a, 0x10]\n"
                              "expect:\n"
                              "  a: reference\n"
                              "  b: [3, -1, 0, 0]\n"
                              "  r: 7\n");
    assert_string_equal(wl->name, "good");
    assert_int_equal(wl->grid[0], 2);
    assert_int_equal(wl->grid[1], 3);
    assert_int_equal(wl->grid[2], 1);
    assert_int_equal(wl->block[0], 64);
    assert_int_equal(wl->block[1], 1);
    assert_int_equal(wl->regs_per_thread, 21);
    assert_int_equal(wl->dyn_shared_bytes, 128);
    assert_int_equal(wl->nbuffers, 3);
    assert_string_equal(wl->buffers[1].name, "b");
    assert_int_equal(wl->buffers[1].type, WS_TY_S16);
    assert_int_equal(wl->buffers[1].count, 4);
    assert_int_equal(wl->buffers[1].init.kind, WS_INIT_LIST);
    assert_int_equal(wl->buffers[1].init.nlist, 2);
    assert_int_equal(wl->buffers[1].init.ilist[1], -1);
    assert_int_equal(wl->buffers[0].init.kind, WS_INIT_IOTA);
    assert_true(wl->buffers[0].init.step == 0.5);
    assert_int_equal(wl->buffers[2].init.kind, WS_INIT_RANDOM);
    assert_int_equal(wl->nargs, 2);
    assert_true(wl->args[0].is_buffer);
    assert_int_equal(wl->args[0].buffer, 0);
    assert_false(wl->args[1].is_buffer);
    assert_int_equal(wl->args[1].ivalue, 16);
    assert_int_equal(wl->nexpects, 3);
    assert_int_equal(wl->expects[0].kind, WS_EXPECT_REFERENCE);
    assert_true(wl->needs_reference);
    assert_int_equal(wl->expects[2].values.kind, WS_INIT_CONST);
    assert_non_null(wl->kernel);
    assert_int_equal(wl->kernel->nparams, 2);

    /* the memory image of this workload: the param buffer holds a's address and 16 */
    ws_memimage m;
    ws_error err;
    assert_int_equal(ws_memimage_init(&m, wl, 1, &err), 0);
    uint64_t p0;
    uint32_t p1;
    memcpy(&p0, m.param_buf + wl->kernel->params[0].offset, 8);
    memcpy(&p1, m.param_buf + wl->kernel->params[1].offset, 4);
    assert_int_equal(p0, WS_GLOBAL_BASE);
    assert_int_equal(p1, 16);
    /* a = 1, 1.5, 2, ... as f32 */
    float f;
    memcpy(&f, ws_memimage_buffer(&m, 0)->data + 3 * 4, 4);
    assert_true(f == 2.5f);
    /* random u32 in [5, 9] */
    for (int i = 0; i < 16; i++) {
        uint32_t v;
        memcpy(&v, ws_memimage_buffer(&m, 2)->data + 4 * i, 4);
        assert_true(v >= 5 && v <= 9);
    }
    ws_memimage_free(&m);
    ws_workload_free(wl);

    /* name defaults to the file name; scalars convert to the .param types */
    wl = load_ok("kernel: k.ptx\ngrid: 1\nblock: 1\nbuffers:\n  x: {type: u8, count: 1}\nparams: [x, 4294967295]\n");
    assert_string_equal(wl->name, "w");
    assert_int_equal((uint32_t)wl->args[1].ivalue, 4294967295u);
    ws_workload_free(wl);
    /* `int n = -5` arrives as .param .u32 (nvcc never declares integer params signed) */
    wl = load_ok("kernel: k.ptx\ngrid: 1\nblock: 1\nbuffers:\n  x: {type: u8, count: 1}\nparams: [x, -5]\n");
    assert_int_equal((uint32_t)wl->args[1].ivalue, 0xfffffffbu);
    ws_workload_free(wl);
}

static void test_param_errors(void **s)
{
    (void)s;
    const char *buf = "buffers:\n  a: {type: u32, count: 8}\n";
    /* line 7 "params: [a]" at column 9 */
    char t[1024];
    snprintf(t, sizeof t, "%s%sparams: [a]\n", HEAD, buf);
    expect_error(t, "7:9", "params has 1 values but kernel k declares 2 .param");
    /* a buffer for the u32 .param: "params: [a, a]", second a at column 13 */
    snprintf(t, sizeof t, "%s%sparams: [a, a]\n", HEAD, buf);
    expect_error(t, "7:13", "a buffer's address needs a 64-bit integer .param");
    /* nvcc declares `int n` as .param .u32: negative values of the width are two's complement,
     * one below -2^31 is refused */
    snprintf(t, sizeof t, "%s%sparams: [a, -2147483649]\n", HEAD, buf);
    expect_error(t, "7:13", "-2147483649 is out of range");
    snprintf(t, sizeof t, "%s%sparams: [a, 4294967296]\n", HEAD, buf);
    expect_error(t, "7:13", "4294967296 is out of range for u32");
    snprintf(t, sizeof t, "%s%sparams: [a, 2.5]\n", HEAD, buf);
    expect_error(t, "7:13", "'2.5' is not an integer");
    /* no params at all, the kernel has 2: reported at the top of the file */
    snprintf(t, sizeof t, "%s%s", HEAD, buf);
    expect_error(t, "1:1", "missing required key 'params'");
    /* a PTX error passes through with the PTX file's own position */
    write_file("bad.ptx", ".version 7.0\n.target sm_75\n.address_size 64\n.visible .entry k()\n{\n\tfrobnicate.u32 %r1;\n}\n");
    write_file("w.yaml", "kernel: bad.ptx\ngrid: 1\nblock: 1\n");
    char path[256];
    snprintf(path, sizeof path, "%s/w.yaml", dir);
    ws_error err = {{0}};
    assert_null(ws_workload_load(path, &err));
    char pfx[300];
    snprintf(pfx, sizeof pfx, "%s/bad.ptx:6:", dir);
    if (strncmp(err.msg, pfx, strlen(pfx)) != 0)
        fail_msg("expected '%s...', got '%s'", pfx, err.msg);
}

static void test_shipped_workloads_load(void **s)
{
    (void)s;
    const char *src = getenv("WS_SOURCE_DIR");
    char kdir[512];
    snprintf(kdir, sizeof kdir, "%s/sweeps/kernels", src ? src : ".");
    DIR *d = opendir(kdir);
    assert_non_null(d);
    struct dirent *e;
    int n = 0;
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l < 6 || strcmp(e->d_name + l - 5, ".yaml") != 0)
            continue;
        char p[1024];
        snprintf(p, sizeof p, "%s/%s", kdir, e->d_name);
        ws_error err = {{0}};
        ws_workload *wl = ws_workload_load(p, &err);
        if (!wl)
            fail_msg("%s", err.msg);
        assert_true(wl->nexpects > 0);
        assert_int_equal(wl->nargs, wl->kernel->nparams);
        ws_memimage m;
        assert_int_equal(ws_memimage_init(&m, wl, 0, &err), 0);
        ws_memimage_free(&m);
        ws_workload_free(wl);
        n++;
    }
    closedir(d);
    assert_true(n >= 13);
}

/* ---- memory image on a hand-built kernel (no PTX needed) ---- */

typedef struct fake {
    ws_kernel k;
    ws_kparam kp[3];
    ws_var vars[3];
    uint8_t ginit[8];
    ws_buffer_spec bufs[3];
    ws_arg args[3];
    double l[2];
    int64_t il[2];
    ws_workload wl;
} fake;

static void make_fake(fake *f)
{
    memset(f, 0, sizeof *f);
    f->kp[0] = (ws_kparam){"p0", WS_TY_U64, 8, 8, 0};
    f->kp[1] = (ws_kparam){"p1", WS_TY_S32, 4, 4, 8};
    f->kp[2] = (ws_kparam){"p2", WS_TY_F32, 4, 4, 12};
    f->ginit[0] = 0x2a;
    /* listed out of address order on purpose; .shared is not a global region */
    f->vars[0] = (ws_var){"c", WS_SP_CONST, WS_TY_U32, 4, 16, 256, NULL};
    f->vars[1] = (ws_var){"g", WS_SP_GLOBAL, WS_TY_U32, 4, 8, 0, f->ginit};
    f->vars[2] = (ws_var){"s", WS_SP_SHARED, WS_TY_U32, 4, 64, 0, NULL};
    f->k.name = "fake";
    f->k.params = f->kp;
    f->k.nparams = 3;
    f->k.param_bytes = 16;
    f->k.vars = f->vars;
    f->k.nvars = 3;
    f->k.data_bytes = 272;
    f->bufs[0] = (ws_buffer_spec){.name = "a", .type = WS_TY_U32, .count = 10,
                                  .init = {.kind = WS_INIT_IOTA, .start = 5, .step = 2}};
    f->l[0] = 1.5;
    f->il[0] = 1;
    f->bufs[1] = (ws_buffer_spec){.name = "b", .type = WS_TY_F32, .count = 3,
                                  .init = {.kind = WS_INIT_CONST, .start = 1.5, .list = f->l, .ilist = f->il, .nlist = 1}};
    static double cl[2] = {1, -2};
    static int64_t cil[2] = {1, -2};
    f->bufs[2] = (ws_buffer_spec){.name = "c", .type = WS_TY_S8, .count = 5,
                                  .init = {.kind = WS_INIT_LIST, .list = cl, .ilist = cil, .nlist = 2}};
    f->args[0] = (ws_arg){.is_buffer = 1, .buffer = 1};
    f->args[1] = (ws_arg){.value = -7, .ivalue = -7};
    f->args[2] = (ws_arg){.value = 2.5, .ivalue = 2};
    f->wl.path = "fake.yaml";
    f->wl.name = "fake";
    f->wl.kernel = &f->k;
    f->wl.grid[0] = f->wl.grid[1] = f->wl.grid[2] = 1;
    f->wl.block[0] = f->wl.block[1] = f->wl.block[2] = 1;
    f->wl.buffers = f->bufs;
    f->wl.nbuffers = 3;
    f->wl.args = f->args;
    f->wl.nargs = 3;
}

static void test_memimage_layout(void **s)
{
    (void)s;
    fake f;
    make_fake(&f);
    ws_memimage m;
    ws_error err;
    assert_int_equal(ws_memimage_init(&m, &f.wl, 0, &err), 0);
    /* data segment first (sorted by address), then the buffers */
    assert_int_equal(m.gmem.nregions, 5);
    assert_int_equal(m.first_buffer, 2);
    assert_string_equal(m.gmem.regions[0].name, "g");
    assert_int_equal(m.gmem.regions[0].addr, WS_DATA_BASE);
    assert_int_equal(m.gmem.regions[0].size, 8);
    assert_true(m.gmem.regions[0].writable);
    assert_int_equal(m.gmem.regions[0].data[0], 0x2a);
    assert_string_equal(m.gmem.regions[1].name, "c");
    assert_int_equal(m.gmem.regions[1].addr, WS_DATA_BASE + 256);
    assert_false(m.gmem.regions[1].writable);
    for (uint32_t i = 1; i < m.gmem.nregions; i++)
        assert_true(m.gmem.regions[i - 1].addr + m.gmem.regions[i - 1].size <= m.gmem.regions[i].addr);
    /* a: 40 bytes at the base; b at round_up(base + 40, 256) + gap; c likewise */
    ws_region *a = ws_memimage_buffer(&m, 0), *b = ws_memimage_buffer(&m, 1), *c = ws_memimage_buffer(&m, 2);
    assert_string_equal(a->name, "a");
    assert_int_equal(a->addr, 0x10000000ull);
    assert_int_equal(a->size, 40);
    assert_int_equal(b->addr, 0x10000100ull + 0x100000ull);
    assert_int_equal(b->size, 12);
    assert_int_equal(c->addr, 0x10100200ull + 0x100000ull);
    assert_int_equal(c->size, 5);
    /* initial values */
    for (int i = 0; i < 10; i++) {
        uint32_t v;
        memcpy(&v, a->data + 4 * i, 4);
        assert_int_equal(v, 5 + 2 * i);
    }
    for (int i = 0; i < 3; i++) {
        float v;
        memcpy(&v, b->data + 4 * i, 4);
        assert_true(v == 1.5f);
    }
    assert_int_equal((int8_t)c->data[0], 1);
    assert_int_equal((int8_t)c->data[1], -2);
    assert_int_equal(c->data[2] | c->data[3] | c->data[4], 0);
    /* params: b's address, -7 as s32, 2.5f */
    uint64_t p0;
    int32_t p1;
    float p2;
    memcpy(&p0, m.param_buf, 8);
    memcpy(&p1, m.param_buf + 8, 4);
    memcpy(&p2, m.param_buf + 12, 4);
    assert_int_equal(p0, 0x10100100ull);   /* args[0] is buffer 1, b */
    assert_int_equal(p1, -7);
    assert_true(p2 == 2.5f);
    ws_memimage_free(&m);
}

static void test_random_init(void **s)
{
    (void)s;
    fake f;
    make_fake(&f);
    f.bufs[1].count = 1000;
    f.bufs[1].init = (ws_values){.kind = WS_INIT_RANDOM, .min = -2, .max = 3};
    f.bufs[0].count = 1000;
    f.bufs[0].init = (ws_values){.kind = WS_INIT_RANDOM, .min = 10, .max = 12};
    ws_memimage m1, m2, m3;
    ws_error err;
    assert_int_equal(ws_memimage_init(&m1, &f.wl, 7, &err), 0);
    assert_int_equal(ws_memimage_init(&m2, &f.wl, 7, &err), 0);
    assert_int_equal(ws_memimage_init(&m3, &f.wl, 8, &err), 0);
    /* same seed: identical; another seed: different */
    assert_memory_equal(ws_memimage_buffer(&m1, 1)->data, ws_memimage_buffer(&m2, 1)->data, 4000);
    assert_memory_not_equal(ws_memimage_buffer(&m1, 1)->data, ws_memimage_buffer(&m3, 1)->data, 4000);
    int seen[3] = {0};
    for (int i = 0; i < 1000; i++) {
        float v;
        uint32_t u;
        memcpy(&v, ws_memimage_buffer(&m1, 1)->data + 4 * i, 4);
        memcpy(&u, ws_memimage_buffer(&m1, 0)->data + 4 * i, 4);
        assert_true(v >= -2 && v <= 3);
        assert_true(u >= 10 && u <= 12);
        seen[u - 10] = 1;
    }
    assert_true(seen[0] && seen[1] && seen[2]);
    ws_memimage_free(&m1);
    ws_memimage_free(&m2);
    ws_memimage_free(&m3);
}

static void test_expect_check(void **s)
{
    (void)s;
    fake f;
    make_fake(&f);
    static double el[3] = {5, 7, 9};
    static int64_t eil[3] = {5, 7, 9};
    ws_expect ex[3] = {
        {.buffer = 0, .kind = WS_EXPECT_VALUES, .values = {.kind = WS_INIT_LIST, .list = el, .ilist = eil, .nlist = 3}},
        {.buffer = 1, .kind = WS_EXPECT_VALUES, .values = {.kind = WS_INIT_CONST, .start = 1.5, .list = f.l, .ilist = f.il, .nlist = 1}},
        {.buffer = 2, .kind = WS_EXPECT_REFERENCE},
    };
    f.wl.expects = ex;
    f.wl.nexpects = 3;
    ws_memimage m, ref;
    ws_error err;
    char msg[256];
    assert_int_equal(ws_memimage_init(&m, &f.wl, 0, &err), 0);
    assert_int_equal(ws_memimage_init(&ref, &f.wl, 0, &err), 0);
    assert_int_equal(ws_expect_check(&f.wl, &m, &ref, msg, sizeof msg), 0);
    /* without a reference image, a `reference` expectation cannot hold */
    assert_int_equal(ws_expect_check(&f.wl, &m, NULL, msg, sizeof msg), -1);
    /* only the listed prefix is checked */
    uint32_t v = 100;
    memcpy(ws_memimage_buffer(&m, 0)->data + 4 * 5, &v, 4);
    assert_int_equal(ws_expect_check(&f.wl, &m, &ref, msg, sizeof msg), 0);
    memcpy(ws_memimage_buffer(&m, 0)->data + 4 * 2, &v, 4);
    assert_int_equal(ws_expect_check(&f.wl, &m, &ref, msg, sizeof msg), -1);
    assert_string_equal(msg, "mismatch: a[2] = 100, expected 9");
    v = 9;
    memcpy(ws_memimage_buffer(&m, 0)->data + 4 * 2, &v, 4);
    /* f32: 1.5 vs 1.5000001 is a mismatch (bitwise) */
    float fv = nextafterf(1.5f, 2.0f);
    memcpy(ws_memimage_buffer(&m, 1)->data + 4, &fv, 4);
    assert_int_equal(ws_expect_check(&f.wl, &m, &ref, msg, sizeof msg), -1);
    assert_string_equal(msg, "mismatch: b[1] = 1.50000012, expected 1.5");
    fv = 1.5f;
    memcpy(ws_memimage_buffer(&m, 1)->data + 4, &fv, 4);
    /* reference: s8 c[4] differs */
    ws_memimage_buffer(&m, 2)->data[4] = 0xfe;
    assert_int_equal(ws_expect_check(&f.wl, &m, &ref, msg, sizeof msg), -1);
    assert_string_equal(msg, "mismatch: c[4] = -2, expected 0 (reference run)");
    ws_memimage_buffer(&m, 2)->data[4] = 0;
    assert_int_equal(ws_expect_check(&f.wl, &m, &ref, msg, sizeof msg), 0);
    /* NaN equals NaN whatever the payload */
    static double nl[1] = {NAN};
    static int64_t nil[1] = {0};
    ex[1].values = (ws_values){.kind = WS_INIT_CONST, .start = NAN, .list = nl, .ilist = nil, .nlist = 1};
    uint32_t qnan = 0x7fc00001u;
    for (int i = 0; i < 3; i++)
        memcpy(ws_memimage_buffer(&m, 1)->data + 4 * i, &qnan, 4);
    assert_int_equal(ws_expect_check(&f.wl, &m, &ref, msg, sizeof msg), 0);
    /* dump */
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    ws_buffer_dump(&f.wl, &m, 2, out);
    ws_buffer_dump(&f.wl, &m, 0, out);
    fclose(out);
    assert_string_equal(text, "1, -2, 0, 0, 0\n5, 7, 9, 11, 13, 100, 17, 19, 21, 23\n");
    free(text);
    ws_memimage_free(&m);
    ws_memimage_free(&ref);
}

static void test_report(void **s)
{
    (void)s;
    ws_result res;
    memset(&res, 0, sizeof res);
    res.status = WS_ST_MISMATCH;
    snprintf(res.message, sizeof res.message, "mismatch: \"c\"[1]");
    res.metrics[WS_M_thread_insts].i = 1234;
    res.metrics[WS_M_ipc].f = 0.5;
    ws_config cfg;
    ws_config_defaults(&cfg);
    ws_error err;
    assert_int_equal(ws_config_set(&cfg, "mem_latency=400", &err), 0);
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    ws_result_print_json(out, &res, "w", &cfg);
    fclose(out);
    const char *head = "{\"workload\": \"w\", \"status\": \"mismatch\", \"message\": \"mismatch: \\\"c\\\"[1]\", ";
    assert_true(strncmp(text, head, strlen(head)) == 0);
    assert_non_null(strstr(text, "\"thread_insts\": 1234"));
    assert_non_null(strstr(text, "\"ipc\": 0.5"));
    assert_non_null(strstr(text, "\"scheduler\": \"gto\""));   /* the registry default (a V100 SM) */
    assert_non_null(strstr(text, "\"mem_latency\": 400"));
    assert_string_equal(text + strlen(text) - 2, "}\n");
    assert_ptr_equal(strchr(text, '\n'), text + strlen(text) - 1);   /* one line */
    free(text);
    out = open_memstream(&text, &len);
    ws_result_print_text(out, &res);
    fclose(out);
    const char *thead = "status: mismatch\nmessage: mismatch: \"c\"[1]\ncycles: 0 cycles\n";
    assert_true(strncmp(text, thead, strlen(thead)) == 0);
    assert_non_null(strstr(text, "\nthread_insts: 1234 insts\n"));
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_missing_buffer),
        cmocka_unit_test(test_bad_type),
        cmocka_unit_test(test_unknown_key_suggests),
        cmocka_unit_test(test_bad_grid),
        cmocka_unit_test(test_list_init_too_long),
        cmocka_unit_test(test_other_errors),
        cmocka_unit_test(test_hostile_input),
        cmocka_unit_test(test_good_workload),
        cmocka_unit_test(test_param_errors),
        cmocka_unit_test(test_shipped_workloads_load),
        cmocka_unit_test(test_memimage_layout),
        cmocka_unit_test(test_random_init),
        cmocka_unit_test(test_expect_check),
        cmocka_unit_test(test_report),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
