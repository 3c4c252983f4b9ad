/* Buffers from files (src/workload/wl_file.c): raw, .npy, Matrix Market and
 * edge lists. Every input is written here byte by byte from the format's
 * specification; every expected CSR array is worked out by hand in the
 * comment above it. */
#define _GNU_SOURCE   /* F_GET_SEALS */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#include "workload/wl_file.h"
#include "workload/wl_types.h"
#include "warpsweep/workload.h"
#include "warpsweep/digest.h"

static char dir[64];
static char pathbuf[160];

static const char *put(const char *name, const void *data, size_t len)
{
    snprintf(pathbuf, sizeof pathbuf, "%s/%s", dir, name);
    FILE *f = fopen(pathbuf, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    fclose(f);
    return pathbuf;
}

static const char *put_text(const char *name, const char *text) { return put(name, text, strlen(text)); }

/* A .npy v1.0 file: magic, 1, 0, header length (LE 16 bits), the dict padded
 * with spaces and a newline so that the data starts at a multiple of 64. */
static size_t npy_bytes(uint8_t *out, const char *dict, const void *data, size_t len)
{
    size_t dl = strlen(dict), hl = (10 + dl + 1 + 63) / 64 * 64 - 10;
    memcpy(out, "\x93NUMPY\x01\x00", 8);
    out[8] = (uint8_t)hl;
    out[9] = 0;
    memset(out + 10, ' ', hl);
    memcpy(out + 10, dict, dl);
    out[10 + hl - 1] = '\n';
    memcpy(out + 10 + hl, data, len);
    return 10 + hl + len;
}

static void test_npy(void **state)
{
    (void)state;
    uint16_t v[6] = {1, 2, 3, 40000, 5, 6};
    uint8_t buf[256];
    size_t n = npy_bytes(buf, "{'descr': '<u2', 'fortran_order': False, 'shape': (2, 3), }", v, sizeof v);
    ws_error err = {{0}};
    ws_file_data *f = wl_file_open(put("a.npy", buf, n), WS_TY_U16, &err);
    assert_non_null(f);
    assert_int_equal(f->count, 6);          /* 2 x 3 */
    assert_int_equal(f->offset, 128);       /* 10 + 61 bytes of header, padded to 64 */
    assert_int_equal(wl_load(f->view, WS_TY_U16, 3), 40000);
    wl_file_free(f);
    /* s16 is '<i2', not '<u2' */
    assert_null(wl_file_open(put("a.npy", buf, n), WS_TY_S16, &err));
    assert_non_null(strstr(err.msg, "a.npy: offset 10: dtype '<u2' does not match the buffer's type s16"));
    /* one element short: truncated, offset = file size */
    assert_null(wl_file_open(put("b.npy", buf, n - 2), WS_TY_U16, &err));
    assert_non_null(strstr(err.msg, "b.npy: offset 138: truncated data: the header declares 6 elements"));
    n = npy_bytes(buf, "{'descr': '>u2', 'fortran_order': False, 'shape': (6,), }", v, sizeof v);
    assert_null(wl_file_open(put("c.npy", buf, n), WS_TY_U16, &err));
    assert_non_null(strstr(err.msg, "big-endian"));
    /* a b-type takes either signedness; a 0-d array is one element */
    int32_t s = -5;
    n = npy_bytes(buf, "{'descr': '<i4', 'fortran_order': False, 'shape': (), }", &s, 4);
    f = wl_file_open(put("d.npy", buf, n), WS_TY_B32, &err);
    assert_non_null(f);
    assert_int_equal(f->count, 1);
    assert_int_equal((int64_t)wl_load(f->view, WS_TY_S32, 0), -5);
    wl_file_free(f);
}

static void test_raw(void **state)
{
    (void)state;
    double d[3] = {1.5, -2.25, 1e300};
    ws_error err = {{0}};
    ws_file_data *f = wl_file_open(put("x.bin", d, sizeof d), WS_TY_F64, &err);
    assert_non_null(f);
    assert_int_equal(f->count, 3);
    assert_memory_equal(f->view, d, sizeof d);
    /* runs map privately: one run's writes are seen neither by another run nor by the file's view */
    void *b1, *b2;
    size_t l1, l2;
    uint8_t *r1, *r2;
    assert_int_equal(wl_file_map_private(f, &b1, &l1, &r1, &err), 0);
    assert_int_equal(wl_file_map_private(f, &b2, &l2, &r2, &err), 0);
    double z = 7;
    memcpy(r1 + 8, &z, 8);
    assert_memory_equal(r2, d, sizeof d);
    assert_memory_equal(f->view, d, sizeof d);
    munmap(b1, l1);
    munmap(b2, l2);
    wl_file_free(f);
    assert_null(wl_file_open(put("y.bin", d, 20), WS_TY_F64, &err));
    assert_non_null(strstr(err.msg, "y.bin: offset 16: truncated f64 element (4 of 8 bytes)"));
    assert_null(wl_file_open(put("z.bin", d, 0), WS_TY_F64, &err));
    assert_non_null(strstr(err.msg, "z.bin: empty file"));
}

/* A data file truncated, or rewritten shorter, after load (as `cp other x.bin`
 * does while a sweep runs): runs mapped before and after still read every
 * element as loaded, and none faults (a mapping of the file itself raised
 * SIGBUS on the first read past the new end). The loaded copy is sealed: it
 * cannot be truncated even through /proc/self/fd. */
static void test_file_changed_after_load(void **state)
{
    (void)state;
    enum { N = 3 * 4096 / 4 + 5 };   /* three pages and a bit */
    static uint32_t v[N];
    for (uint32_t i = 0; i < N; i++)
        v[i] = i * 3 + 1;
    ws_error err = {{0}};
    const char *path = put("t.bin", v, sizeof v);
    ws_file_data *f = wl_file_open(path, WS_TY_U32, &err);
    assert_non_null(f);
    assert_int_equal(f->count, N);
    assert_int_equal(f->digest, ws_xxh64(v, sizeof v, 0));
    void *b1, *b2;
    size_t l1, l2;
    uint8_t *r1, *r2;
    assert_int_equal(wl_file_map_private(f, &b1, &l1, &r1, &err), 0);
    assert_int_equal(truncate(path, 0), 0);
    uint32_t shorter[3] = {9, 9, 9};
    put("t.bin", shorter, sizeof shorter);
    assert_int_equal(wl_file_map_private(f, &b2, &l2, &r2, &err), 0);
    for (uint32_t i = 0; i < N; i++) {
        assert_int_equal(wl_load(r1, WS_TY_U32, i), i * 3 + 1);
        assert_int_equal(wl_load(r2, WS_TY_U32, i), i * 3 + 1);
        assert_int_equal(wl_load(f->view, WS_TY_U32, i), i * 3 + 1);
    }
    int seals = fcntl(f->fd, F_GET_SEALS);
    assert_true(seals >= 0 && (seals & F_SEAL_SHRINK) && (seals & F_SEAL_WRITE) && (seals & F_SEAL_GROW));
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", f->fd);
    int fd = open(proc, O_RDWR);
    assert_true(fd < 0 || ftruncate(fd, 0) < 0);
    if (fd >= 0)
        close(fd);
    assert_int_equal(wl_load(r1, WS_TY_U32, N - 1), (N - 1) * 3 + 1);
    munmap(b1, l1);
    munmap(b2, l2);
    wl_file_free(f);
    /* a .npy: the digest covers the elements only, not the header */
    uint8_t buf[256];
    uint16_t e[4] = {1, 2, 3, 4};
    size_t n = npy_bytes(buf, "{'descr': '<u2', 'fortran_order': False, 'shape': (4,), }", e, sizeof e);
    f = wl_file_open(put("e.npy", buf, n), WS_TY_U16, &err);
    assert_non_null(f);
    assert_int_equal(f->digest, ws_xxh64(e, sizeof e, 0));
    wl_file_free(f);
}

static uint64_t part_elem(const wl_csr *c, int part, int type, uint64_t i, uint64_t *count)
{
    ws_error err = {{0}};
    ws_file_data *f = wl_file_from_csr(c, part, type, &err);
    assert_non_null(f);
    uint64_t v = wl_load(f->view, type, i);
    *count = f->count;
    wl_file_free(f);
    return v;
}

static void assert_csr(const wl_csr *c, uint64_t rows, const uint64_t *rp, uint64_t nnz, const uint64_t *ci,
                       const double *vals)
{
    assert_int_equal(c->rows, rows);
    assert_int_equal(c->nnz, nnz);
    for (uint64_t i = 0; i <= rows; i++)
        assert_int_equal(c->row_ptr[i], rp[i]);
    for (uint64_t k = 0; k < nnz; k++) {
        assert_int_equal(c->col_idx[k], ci[k]);
        assert_true(c->values[k] == vals[k]);
    }
}

static void test_mtx(void **state)
{
    (void)state;
    ws_error err = {{0}};
    /* general integer, entries out of order and one duplicate (kept, in file order):
     *   (3,2)=7 (1,3)=2 (1,1)=1 (3,2)=-1 (2,2)=5, 1-based
     *   row 0: (0,0)=1 (0,2)=2; row 1: (1,1)=5; row 2: (2,1)=7 (2,1)=-1
     *   row_ptr 0 2 3 5; col_idx 0 2 1 1 1; values 1 2 5 7 -1 */
    wl_csr *c = wl_csr_load(put_text("g.mtx", "%%MatrixMarket matrix coordinate integer general\n"
                                                "% comment\n3 3 5\n3 2 7\n1 3 2\n\n1 1 1\n3 2 -1\n2 2 5\n"),
                            WL_CSR_MTX, 0, &err);
    assert_non_null(c);
    assert_csr(c, 3, (uint64_t[]){0, 2, 3, 5}, 5, (uint64_t[]){0, 2, 1, 1, 1}, (double[]){1, 2, 5, 7, -1});
    uint64_t n;
    assert_int_equal((int64_t)part_elem(c, WL_PART_VALUES, WS_TY_S8, 4, &n), -1);
    assert_int_equal(n, 5);
    assert_int_equal(part_elem(c, WL_PART_ROW_PTR, WS_TY_U16, 3, &n), 5);
    assert_int_equal(n, 4);
    /* -1 is not a u32; a row pointer is not a float */
    assert_null(wl_file_from_csr(c, WL_PART_VALUES, WS_TY_U32, &err));
    assert_non_null(strstr(err.msg, "g.mtx: part values: value -1"));
    assert_null(wl_file_from_csr(c, WL_PART_ROW_PTR, WS_TY_F32, &err));
    assert_non_null(strstr(err.msg, "part row_ptr: expected an integer buffer type, not f32"));
    wl_csr_free(c);

    /* pattern symmetric 3 x 3, lower triangle (1,1) (3,1) (3,2) (2,2):
     *   full: (0,0) (2,0) (0,2) (2,1) (1,2) (1,1), all 1
     *   row 0: cols 0 2; row 1: cols 1 2; row 2: cols 0 1 */
    c = wl_csr_load(put_text("p.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 4\n1 1\n3 1\n3 2\n2 2\n"),
                    WL_CSR_MTX, 0, &err);
    assert_non_null(c);
    assert_csr(c, 3, (uint64_t[]){0, 2, 4, 6}, 6, (uint64_t[]){0, 2, 1, 2, 0, 1}, (double[]){1, 1, 1, 1, 1, 1});
    wl_csr_free(c);

    /* skew-symmetric 2 x 2: (2,1)=3 stands for (1,2)=-3 */
    c = wl_csr_load(put_text("s.mtx", "%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n2 1 3.0\n"),
                    WL_CSR_MTX, 0, &err);
    assert_non_null(c);
    assert_csr(c, 2, (uint64_t[]){0, 1, 2}, 2, (uint64_t[]){1, 0}, (double[]){-3, 3});
    wl_csr_free(c);
    assert_null(wl_csr_load(put_text("s.mtx", "%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n1 1 3.0\n"),
                            WL_CSR_MTX, 0, &err));
    assert_non_null(strstr(err.msg, "s.mtx:3: entry 1: (1, 1) is on the diagonal"));
    assert_null(wl_csr_load(put_text("e.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1\n1 2 1\n"),
                            WL_CSR_MTX, 0, &err));
    assert_non_null(strstr(err.msg, "e.mtx:4: more entries than the 1 declared at line 2"));
    assert_null(wl_csr_load(put_text("i.mtx", "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 1.5\n"),
                            WL_CSR_MTX, 0, &err));
    assert_non_null(strstr(err.msg, "i.mtx:3: entry 1: value 1.5 is not an integer"));
}

static void test_edges(void **state)
{
    (void)state;
    ws_error err = {{0}};
    /* weighted, 0-based: 0->2 (w 4), 2->1 (w 0.5), 1->1 (w 2)
     * undirected adds 2->0 (4), 1->2 (0.5); the self-loop once:
     *   row 0: (2)=4; row 1: (1)=2 (2)=0.5; row 2: (0)=4 (1)=0.5 */
    const char *g = put_text("g.el", "# SNAP-style\n0 2 4\n2\t1 0.5\n\n1 1 2\n");
    wl_csr *c = wl_csr_load(g, WL_CSR_EDGES, 1, &err);
    assert_non_null(c);
    assert_csr(c, 3, (uint64_t[]){0, 1, 3, 5}, 5, (uint64_t[]){2, 1, 2, 0, 1}, (double[]){4, 2, 0.5, 4, 0.5});
    assert_false(c->integer_values);
    wl_csr_free(c);
    /* directed: row 0: 2; row 1: 1; row 2: 1 */
    c = wl_csr_load(g, WL_CSR_EDGES, 0, &err);
    assert_non_null(c);
    assert_csr(c, 3, (uint64_t[]){0, 1, 2, 3}, 3, (uint64_t[]){2, 1, 1}, (double[]){4, 2, 0.5});
    /* a u8 column index holds 255 at most: vertex 299 does not fit */
    wl_csr_free(c);
    c = wl_csr_load(put_text("big.el", "0 299\n"), WL_CSR_EDGES, 0, &err);
    assert_non_null(c);
    assert_null(wl_file_from_csr(c, WL_PART_COL_IDX, WS_TY_U8, &err));
    assert_non_null(strstr(err.msg, "part col_idx: value 299 does not fit the buffer's type u8"));
    wl_csr_free(c);
    assert_null(wl_csr_load(put_text("n.el", "# nothing\n"), WL_CSR_EDGES, 0, &err));
    assert_non_null(strstr(err.msg, "n.el:2: no edges"));
}

/* The YAML side: a workload over tests/kernels/files/spmv_csr.ptx (6 params). */
static ws_workload *load_yaml(const char *buffers_and_expect, ws_error *err)
{
    char cwd[512], text[2048];
    assert_non_null(getcwd(cwd, sizeof cwd));   /* tests run in the source directory */
    snprintf(text, sizeof text,
             "kernel: %s/tests/kernels/files/spmv_csr.ptx\ngrid: 1\nblock: 32\nregs_per_thread: 63\n%s"
             "params: [row_ptr, col_idx, values, x, y, 3]\n", cwd, buffers_and_expect);
    return ws_workload_load(put_text("w.yaml", text), err);
}

/* The spmv_csr kernel's buffers from m.mtx (3 x 3, two entries) and x.bin = {1, 2, 3}, both
 * written here; y: 3 f32 zeros. The YAML text's lines 6..10 of w.yaml (load_yaml). */
static const char *spmv_buffers(void)
{
    put_text("m.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 2.5\n3 2 1\n");
    float x[3] = {1, 2, 3};
    put("x.bin", x, sizeof x);
    return "buffers:\n"
           "  row_ptr: {type: u32, init: {mtx: m.mtx, part: row_ptr}}\n"
           "  col_idx: {type: u32, init: {mtx: m.mtx, part: col_idx}}\n"
           "  values:  {type: f32, init: {mtx: m.mtx, part: values}}\n"
           "  x:       {type: f32, count: 3, init: {file: x.bin}}\n"
           "  y:       {type: f32, count: 3, init: 0}\n";
}

/* The spmv workload with `expect_line` under expect: is refused with a message containing want. */
static void refused(const char *expect_line, const char *want)
{
    ws_error err = {{0}};
    char text[1024];
    snprintf(text, sizeof text, "%sexpect:\n  %s\n", spmv_buffers(), expect_line);
    assert_null(load_yaml(text, &err));
    if (!strstr(err.msg, want)) fail_msg("expect %s: got '%s', want '%s'", expect_line, err.msg, want);
}

static void test_workload_forms(void **state)
{
    (void)state;
    ws_error err = {{0}};
    float x[3] = {1, 2, 3};
    const char *bufs = spmv_buffers();
    char text[1024];
    snprintf(text, sizeof text, "%sexpect:\n  y: {file: x.bin, ulp: 1}\n", bufs);
    ws_workload *wl = load_yaml(text, &err);
    assert_non_null(wl);
    /* counts from the files: 3 rows -> 4 row pointers, 2 entries */
    assert_int_equal(wl->buffers[0].count, 4);
    assert_int_equal(wl->buffers[1].count, 2);
    assert_int_equal(wl->buffers[2].count, 2);
    assert_int_equal(wl->expects[0].values.kind, WS_INIT_FILE);
    assert_int_equal(wl->expects[0].values.ulp, 1);
    /* a run's image: the file's elements; its writes do not reach the workload's copy */
    ws_memimage m;
    assert_int_equal(ws_memimage_init(&m, wl, 1, &err), 0);
    assert_int_equal(wl_load(ws_memimage_buffer(&m, 0)->data, WS_TY_U32, 3), 2);
    float f;
    memcpy(&f, ws_memimage_buffer(&m, 2)->data, 4);
    assert_true(f == 2.5f);
    memcpy(ws_memimage_buffer(&m, 4)->data, x, sizeof x);   /* y = x exactly: passes */
    char msg[256];
    assert_int_equal(ws_expect_check(wl, &m, NULL, msg, sizeof msg), 0);
    /* y[1] one ulp above 2 (0x40000001) passes ulp: 1; two ulps (0x40000002) does not */
    uint32_t u = 0x40000001;
    memcpy(ws_memimage_buffer(&m, 4)->data + 4, &u, 4);
    assert_int_equal(ws_expect_check(wl, &m, NULL, msg, sizeof msg), 0);
    u = 0x40000002;
    memcpy(ws_memimage_buffer(&m, 4)->data + 4, &u, 4);
    assert_int_equal(ws_expect_check(wl, &m, NULL, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "y[1] = 2.00000048, expected 2"));
    memcpy(ws_memimage_buffer(&m, 3)->data, &u, 4);
    ws_memimage_free(&m);
    assert_int_equal(ws_memimage_init(&m, wl, 1, &err), 0);   /* a new run sees the file again */
    memcpy(&f, ws_memimage_buffer(&m, 3)->data, 4);
    assert_true(f == 1.0f);
    ws_memimage_free(&m);
    ws_workload_free(wl);

    /* errors at the YAML value (line:col counted by hand in the text above) */
    refused("row_ptr: {file: x.bin, ulp: 1}", "w.yaml:12:26: expect for 'row_ptr': a tolerance applies to float buffers");
    refused("y: {file: x.bin, ulp: 1, rel: 0.1}", "give ulp, or rel and/or abs, not both kinds");
    refused("y: {file: x.bin, abs: -1}", "abs: -1 must be a finite number >= 0");
    /* suggestions name only the keys valid in that place: 'abz' in an expect is abs, a
     * tolerance in an init says where it belongs */
    refused("y: {file: x.bin, abz: 1e-6}", "unknown key 'abz' in expect for 'y' (did you mean 'abs'?)");
    assert_null(load_yaml("buffers:\n  x: {type: f32, count: 3, init: {file: x.bin, abs: 1e-6}}\n", &err));
    assert_non_null(strstr(err.msg, "init of 'x': a tolerance belongs to an expect, not an init"));
    assert_null(load_yaml("buffers:\n  x: {type: f32, count: 3, init: {file: x.bin, ulpp: 1}}\n", &err));
    assert_null(strstr(err.msg, "did you mean 'ulp'"));   /* not valid in an init: never suggested */
    assert_null(load_yaml("buffers:\n  row_ptr: {type: u32, init: {mtx: m.mtx, part: rowptr}}\n", &err));
    assert_non_null(strstr(err.msg, "w.yaml:6:49: init of 'row_ptr': part 'rowptr': expected row_ptr, col_idx or "
                                    "values (did you mean 'row_ptr'?)"));
    assert_null(load_yaml("buffers:\n  row_ptr: {type: u32, count: 5, init: {mtx: m.mtx, part: row_ptr}}\n", &err));
    assert_non_null(strstr(err.msg, "m.mtx (row_ptr) holds 4 u32 elements but the buffer's count is 5"));
    assert_null(load_yaml("buffers:\n  row_ptr: {type: u32, count: 4, init: {fiel: m.mtx}}\n", &err));
    assert_non_null(strstr(err.msg, "(did you mean 'file'?)"));
    assert_null(load_yaml("buffers:\n  row_ptr: {type: u32, init: {file: x.bin, part: values}}\n", &err));
    assert_non_null(strstr(err.msg, "'part' belongs to mtx or edges, not file"));
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/ws_wlfile_XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* abs: and rel: as numpy.allclose: |got - want| <= abs + rel |want|. want = x = {1, 2, 3};
 * y[0] = 1 + 2^-23 = 1.00000012 (the next f32 after 1): |diff| = 1.1920929e-7. By hand:
 *   abs 1e-7            -> bound 1e-7 < 1.19e-7: fails
 *   abs 2e-7            -> 2e-7: passes
 *   abs 1e-7, rel 1e-8  -> 1e-7 + 1e-8 x 1 = 1.1e-7: fails
 *   abs 1e-7, rel 2e-8  -> 1.2e-7: passes
 *   rel 1e-7 alone      -> 1e-7: fails; y[0] = 0 against want 1e-30 (a near-zero output,
 *   z.bin = {1e-30, 2, 3}): rel 1e-4 alone fails (bound 1e-34), abs 1e-6 passes. */
static void test_expect_abs(void **state)
{
    (void)state;
    static const struct { const char *tol; int pass; } cases[] = {
        {"abs: 1e-7", 0}, {"abs: 2e-7", 1}, {"abs: 1e-7, rel: 1e-8", 0}, {"abs: 1e-7, rel: 2e-8", 1},
        {"rel: 1e-7", 0},
    };
    float z[3] = {1e-30f, 2, 3};
    put("z.bin", z, sizeof z);
    const char *bufs = spmv_buffers();
    for (size_t c = 0; c < sizeof cases / sizeof cases[0] + 2; c++) {
        const int near_zero = c >= sizeof cases / sizeof cases[0];
        const char *tol = near_zero ? (c % 2 ? "abs: 1e-6" : "rel: 1e-4") : cases[c].tol;
        const int pass = near_zero ? (int)(c % 2) : cases[c].pass;
        ws_error err = {{0}};
        char text[1024];
        snprintf(text, sizeof text, "%sexpect:\n  y: {file: %s, %s}\n", bufs, near_zero ? "z.bin" : "x.bin", tol);
        ws_workload *wl = load_yaml(text, &err);
        if (!wl) fail_msg("%s: %s", tol, err.msg);
        ws_memimage m;
        assert_int_equal(ws_memimage_init(&m, wl, 1, &err), 0);
        float y[3] = {near_zero ? 0.0f : nextafterf(1.0f, 2.0f), 2, 3};
        memcpy(ws_memimage_buffer(&m, 4)->data, y, sizeof y);
        char msg[256];
        int rc = ws_expect_check(wl, &m, NULL, msg, sizeof msg);
        if ((rc == 0) != pass) fail_msg("%s: check %d (%s)", tol, rc, msg);
        if (!pass) assert_non_null(strstr(msg, "within abs"));
        ws_memimage_free(&m);
        ws_workload_free(wl);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_npy),
        cmocka_unit_test(test_raw),
        cmocka_unit_test(test_file_changed_after_load),
        cmocka_unit_test(test_mtx),
        cmocka_unit_test(test_edges),
        cmocka_unit_test(test_workload_forms),
        cmocka_unit_test(test_expect_abs),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
