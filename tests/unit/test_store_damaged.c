/* Results files damaged or forged the ways the fuzzers found: attributes that
 * are arrays instead of scalars, a /points extent of 10^12 rows, a compound
 * member offset outside the record. Every reader must refuse them with a
 * message (under ASan: without reading or writing out of bounds). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <hdf5.h>
#include "warpsweep/shard.h"
#include "warpsweep/store.h"
#include "warpsweep/sweep.h"

static char dir[256], good[400];

static ws_sweep *sweep(void)
{
    const char *text = "name: st\nworkload: [a.yaml, bb.yaml]\ngrid:\n  warps: [1, 2, 4]\n";
    ws_sweep **sws;
    int n;
    ws_error err;
    ws_sweep_opts o = {0};
    assert_int_equal(ws_sweep_load_text("st.yaml", text, strlen(text), NULL, &o, &sws, &n, &err), 0);
    ws_sweep *sw = sws[0];
    free(sws);
    return sw;
}

/* a complete, valid file of the 6-point sweep, tagged as shard 0/1 */
static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/ws_test_damaged_XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    char jpath[420];
    snprintf(good, sizeof good, "%s/good.h5", dir);
    snprintf(jpath, sizeof jpath, "%s.journal", good);
    ws_sweep *sw = sweep();
    ws_error err;
    ws_journal *j = ws_journal_create(jpath, sw, sw->count, &err);
    if (!j)
        return -1;
    for (uint64_t k = 0; k < sw->count; k++) {
        ws_point pt;
        ws_sweep_point(sw, k, &pt);
        ws_row r;
        memset(&r, 0, sizeof r);
        r.point = k;
        r.workload = pt.workload;
        memcpy(r.params, pt.cfg.v, sizeof r.params);
        if (ws_journal_append(j, &r, 1, &err))
            return -1;
    }
    ws_journal_close(j);
    ws_shard all = {0, 1};
    int rc = ws_store_build(good, jpath, sw, &err) || ws_store_set_shard(good, &all, sw->count, &err);
    unlink(jpath);
    ws_sweep_free(sw);
    return rc ? -1 : 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void copy_good(const char *to)
{
    char cmd[1000];
    snprintf(cmd, sizeof cmd, "cp %s %s", good, to);
    assert_int_equal(system(cmd), 0);
}

/* replaces attribute name of object obj ("/" or "points") with an array of
 * n elements of type (strings: of len bytes each) */
static void make_array_attr(const char *path, const char *obj, const char *name, int is_str, size_t len, hsize_t n)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    assert_true(f >= 0);
    hid_t o = H5Oopen(f, obj, H5P_DEFAULT);
    assert_true(o >= 0);
    if (H5Aexists(o, name) > 0)
        assert_true(H5Adelete(o, name) >= 0);
    hid_t t = is_str ? H5Tcopy(H5T_C_S1) : H5Tcopy(H5T_NATIVE_INT64);
    if (is_str)
        H5Tset_size(t, len);
    hid_t sp = H5Screate_simple(1, &n, NULL);
    hid_t a = H5Acreate2(o, name, t, sp, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(a >= 0);
    size_t bytes = (size_t)n * (is_str ? len : 8);
    char *buf = malloc(bytes);
    memset(buf, is_str ? 'x' : 0x7f, bytes);
    assert_true(H5Awrite(a, t, buf) >= 0);
    free(buf);
    H5Aclose(a);
    H5Sclose(sp);
    H5Tclose(t);
    H5Oclose(o);
    assert_true(H5Fclose(f) >= 0);
}

static void merge_refused(const char *path, const char *want)
{
    char out[420];
    snprintf(out, sizeof out, "%s/merged.h5", dir);
    const char *in[1] = {path};
    ws_merge_opts mo = {0};
    mo.report = stderr;
    ws_merge_result res;
    ws_error err;
    assert_int_equal(ws_store_merge(out, in, 1, &mo, &res, &err), -1);
    if (!strstr(err.msg, want)) {
        print_error("merge: expected '%s' in '%s'\n", want, err.msg);
        fail();
    }
    assert_int_not_equal(access(out, F_OK), 0);
}

static int count_row(void *ctx, const ws_row *row, const char *workload)
{
    (void)row;
    (void)workload;
    ++*(int *)ctx;
    return 0;
}

static void all_readers_refuse(const char *path, const char *want)
{
    ws_error err;
    ws_file_info fi;
    assert_int_equal(ws_store_info(path, &fi, &err), -1);
    if (!strstr(err.msg, want)) {
        print_error("info: expected '%s' in '%s'\n", want, err.msg);
        fail();
    }
    merge_refused(path, want);
}

static void test_good_file_reads(void **state)
{
    (void)state;
    ws_error err;
    ws_file_info fi;
    assert_int_equal(ws_store_info(good, &fi, &err), 0);
    assert_int_equal(fi.rows, 6);
    int n = 0;
    assert_int_equal(ws_store_read(good, count_row, &n, &err), 0);
    assert_int_equal(n, 6);
}

static void test_array_attributes(void **state)
{
    (void)state;
    static const struct {
        const char *obj, *name;
        int is_str;
    } cases[] = {
        {"/", "points_total", 0},  {"/", "format_version", 0}, {"/", "points_written", 0},
        {"/", "sweep_hash", 1},    {"/", "sweep_name", 1},     {"/", "sweep_yaml", 1},
        {"/", "created_utc", 1},   {"/", "shard_index", 0},    {"/", "shard_count", 0},
        {"points", "choices:workload", 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[420];
        snprintf(path, sizeof path, "%s/array%zu.h5", dir, i);
        copy_good(path);
        make_array_attr(path, cases[i].obj, cases[i].name, cases[i].is_str, 300, cases[i].is_str ? 100 : 1000);
        char want[128];
        snprintf(want, sizeof want, "attribute %s is not a single", cases[i].name);
        ws_error err;
        if (strcmp(cases[i].obj, "/") == 0 && strcmp(cases[i].name, "points_written") != 0 &&
            strncmp(cases[i].name, "shard_", 6) != 0 && strcmp(cases[i].name, "sweep_yaml") != 0) {
            all_readers_refuse(path, want);
        } else if (strcmp(cases[i].name, "sweep_yaml") == 0) {
            assert_null(ws_store_sweep_text(path, &err));
            assert_non_null(strstr(err.msg, want));
            merge_refused(path, want);
        } else if (strncmp(cases[i].name, "shard_", 6) == 0) {
            ws_shard s;
            assert_int_equal(ws_store_get_shard(path, &s, &err), -1);
            assert_non_null(strstr(err.msg, want));
            merge_refused(path, want);
        } else if (strcmp(cases[i].name, "choices:workload") == 0) {
            merge_refused(path, want);
        } else { /* points_written: not read by anything */
            ws_file_info fi;
            assert_int_equal(ws_store_info(path, &fi, &err), 0);
        }
    }
}

static void test_huge_extent(void **state)
{
    (void)state;
    char path[420];
    snprintf(path, sizeof path, "%s/extent.h5", dir);
    copy_good(path);
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t ds = H5Dopen2(f, "points", H5P_DEFAULT);
    hsize_t rows[1] = {1000000000000ull};
    assert_true(H5Dset_extent(ds, rows) >= 0);
    H5Dclose(ds);
    H5Fclose(f);
    all_readers_refuse(path, "/points has 1000000000000 rows but the sweep has 6 points");
    /* and with points_total forged to match: the stored bytes cannot hold them */
    int64_t total = 1000000000000ll;
    f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t a = H5Aopen(f, "points_total", H5P_DEFAULT);
    assert_true(H5Awrite(a, H5T_NATIVE_INT64, &total) >= 0);
    H5Aclose(a);
    H5Fclose(f);
    all_readers_refuse(path, "/points claims 1000000000000 rows but stores only");
    int n = 0;
    ws_error err;
    assert_int_equal(ws_store_read(path, count_row, &n, &err), -1);
    assert_int_equal(n, 0);
}

/* one damaged byte: the high byte of a member's offset in the datatype
 * message (compound version 1: the NUL-terminated name padded to 8 bytes,
 * then a 4-byte little-endian offset; HDF5 file format spec, IV.A.2.d) */
static void test_member_offset(void **state)
{
    (void)state;
    static const char *members[] = {"sim_seconds", "point", "warps", "message"};
    for (size_t m = 0; m < sizeof members / sizeof members[0]; m++) {
        char path[420];
        snprintf(path, sizeof path, "%s/offset%zu.h5", dir, m);
        copy_good(path);
        FILE *fp = fopen(path, "r+b");
        assert_non_null(fp);
        fseek(fp, 0, SEEK_END);
        long size = ftell(fp);
        unsigned char *b = malloc((size_t)size);
        rewind(fp);
        assert_int_equal(fread(b, 1, (size_t)size, fp), (size_t)size);
        size_t len = strlen(members[m]) + 1, at = 0;
        for (size_t i = 0; i + len < (size_t)size && !at; i++)
            if (memcmp(b + i, members[m], len) == 0 && (i == 0 || b[i - 1] == 0))
                at = i;
        assert_true(at > 0);
        size_t field = at + (len + 7) / 8 * 8;
        fseek(fp, (long)(field + 3), SEEK_SET);
        fputc(0x10, fp);
        fclose(fp);
        free(b);
        /* the 1.8 file format's object-header checksum refuses the damage before
         * warpsweep's own datatype check, which tests/e2e/robustness.sh exercises
         * on a file rewritten in the older format (tests/robustness/to_v1.py) */
        all_readers_refuse(path, "cannot open /points: the file is damaged");
        int n = 0;
        ws_error err;
        assert_int_equal(ws_store_read(path, count_row, &n, &err), -1);
    }
}

/* HDF5 leaks some of its own allocations when it refuses a damaged object
 * header (its checksum failure path): not warpsweep's memory, so LeakSanitizer
 * ignores allocations made inside libhdf5 for this test (as robustness.sh does
 * with detect_leaks=0 for its damaged files). */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
    return "leak:libhdf5\n";
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good_file_reads),
        cmocka_unit_test(test_array_attributes),
        cmocka_unit_test(test_huge_extent),
        cmocka_unit_test(test_member_offset),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
