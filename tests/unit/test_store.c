/* The journal (checksummed fixed-size records, torn tails, hash check) and
 * the HDF5 file built from it (sorted by point, one row per point, every
 * column read back equal). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include "warpsweep/store.h"
#include "warpsweep/sweep.h"

static char dir[256];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/ws_test_store_XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static ws_sweep *sweep(void)
{
    const char *text = "name: st\nworkload: [a.yaml, bb.yaml]\ngrid:\n  warps: [1, 2, 4]\n  scheduler: [lrr, gto]\n";
    ws_sweep **sws;
    int n;
    ws_error err;
    ws_sweep_opts o = {0};
    assert_int_equal(ws_sweep_load_text("st.yaml", text, strlen(text), NULL, &o, &sws, &n, &err), 0);
    ws_sweep *sw = sws[0];
    free(sws);
    return sw;
}

/* a row with values that depend on the point only */
static void make_row(const ws_sweep *sw, uint64_t k, ws_row *r)
{
    ws_point pt;
    ws_sweep_point(sw, k, &pt);
    memset(r, 0, sizeof *r);
    r->point = k;
    r->workload = pt.workload;
    r->seed = pt.seed;
    memcpy(r->params, pt.cfg.v, sizeof r->params);
    r->status = (int)(k % WS_ST_COUNT);
    snprintf(r->message, sizeof r->message, k % 2 ? "message of point %llu" : "", (unsigned long long)k);
    for (int m = 0; m < WS_NMETRICS; m++) {
        if (ws_metrics[m].is_float)
            r->metrics[m].f = (double)k + 0.25 * m;
        else if (ws_metrics[m].labels)   /* a label column holds its codes: occupancy_limit has 5 */
            r->metrics[m].i = (int64_t)(k % 5);
        else
            r->metrics[m].i = (int64_t)(k * 1000 + (uint64_t)m);
    }
    r->sim_seconds = 0.5;
}

typedef struct seen {
    uint64_t points[64];
    int n;
} seen;

static int on_rec(void *ctx, const ws_row *row, uint64_t recno)
{
    seen *s = ctx;
    assert_int_equal(recno, (uint64_t)s->n);
    s->points[s->n++] = row->point;
    return 0;
}

static void test_journal(void **state)
{
    (void)state;
    char path[400];
    snprintf(path, sizeof path, "%s/j.journal", dir);
    ws_sweep *sw = sweep();
    ws_error err;
    ws_journal *j = ws_journal_create(path, sw->hash, sw->count, &err);
    assert_non_null(j);
    ws_row rows[3];
    for (int i = 0; i < 3; i++)
        make_row(sw, (uint64_t)(5 - i), &rows[i]);
    assert_int_equal(ws_journal_append(j, rows, 3, &err), 0);
    ws_journal_close(j);
    struct stat st;
    stat(path, &st);
    off_t full = st.st_size;
    size_t rec = (size_t)(full - 128) / 3;
    assert_int_equal(rec, 8 + sizeof(ws_row));

    seen s = {0};
    ws_journal_info info;
    assert_int_equal(ws_journal_scan(path, &info, on_rec, &s, &err), 0);
    assert_int_equal(s.n, 3);
    assert_int_equal(s.points[0], 5);
    assert_int_equal(info.points_total, 12);
    assert_string_equal(info.hash, sw->hash);

    /* a torn last record: cut in the middle */
    assert_int_equal(truncate(path, full - 100), 0);
    j = ws_journal_open(path, sw->hash, &info, &err);
    assert_non_null(j);
    assert_int_equal(info.records, 2);
    assert_int_equal(info.torn_bytes, rec - 100);
    /* appending after the repair continues right after record 2 */
    make_row(sw, 9, &rows[0]);
    assert_int_equal(ws_journal_append(j, rows, 1, &err), 0);
    ws_journal_close(j);
    s.n = 0;
    assert_int_equal(ws_journal_scan(path, &info, on_rec, &s, &err), 0);
    assert_int_equal(s.n, 3);
    assert_int_equal(s.points[2], 9);
    assert_int_equal(info.torn_bytes, 0);

    /* a flipped byte inside record 2 ends the valid part there */
    FILE *f = fopen(path, "r+b");
    fseek(f, 128 + (long)rec + 40, SEEK_SET);
    int c = fgetc(f);
    fseek(f, 128 + (long)rec + 40, SEEK_SET);
    fputc(c ^ 0x55, f);
    fclose(f);
    s.n = 0;
    assert_int_equal(ws_journal_scan(path, &info, on_rec, &s, &err), 0);
    assert_int_equal(s.n, 1);

    /* another sweep hash: refused */
    assert_null(ws_journal_open(path, "0123456789abcdef", &info, &err));
    assert_non_null(strstr(err.msg, "the sweep changed since this run started"));
    /* not a journal */
    f = fopen(path, "wb");
    fputs("hello", f);
    fclose(f);
    assert_null(ws_journal_open(path, NULL, &info, &err));
    assert_non_null(strstr(err.msg, "not a warpsweep journal"));
    ws_sweep_free(sw);
}

typedef struct readback {
    const ws_sweep *sw;
    uint64_t next;
    int n;
} readback;

static int on_row(void *ctx, const ws_row *row, const char *workload)
{
    readback *rb = ctx;
    ws_row want;
    make_row(rb->sw, rb->next, &want);
    assert_int_equal(row->point, rb->next); /* sorted, each point once */
    assert_string_equal(workload, rb->sw->workload_names[want.workload]);
    assert_int_equal(row->seed, want.seed);
    assert_int_equal(row->status, want.status);
    assert_string_equal(row->message, want.message);
    for (int i = 0; i < WS_NPARAMS; i++)
        assert_memory_equal(&row->params[i], &want.params[i], sizeof(ws_value));
    for (int m = 0; m < WS_NMETRICS; m++)
        assert_memory_equal(&row->metrics[m], &want.metrics[m], sizeof(ws_value));
    assert_true(row->sim_seconds == 0.5);
    rb->next++;
    rb->n++;
    return 0;
}

static void test_build_and_read(void **state)
{
    (void)state;
    char jpath[400], out[400];
    snprintf(jpath, sizeof jpath, "%s/r.h5.journal", dir);
    snprintf(out, sizeof out, "%s/r.h5", dir);
    ws_sweep *sw = sweep();
    ws_error err;
    ws_journal *j = ws_journal_create(jpath, sw->hash, sw->count, &err);
    assert_non_null(j);
    /* every point, out of order, points 3 and 7 twice (identical rows) */
    uint64_t order[] = {11, 3, 0, 7, 1, 2, 3, 4, 10, 5, 6, 7, 8, 9};
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        ws_row r;
        make_row(sw, order[i], &r);
        assert_int_equal(ws_journal_append(j, &r, 1, &err), 0);
    }
    ws_journal_close(j);
    if (ws_store_build(out, jpath, sw, &err)) {
        print_error("%s\n", err.msg);
        fail();
    }
    char tmp[420];
    snprintf(tmp, sizeof tmp, "%s.tmp", out);
    assert_int_not_equal(access(tmp, F_OK), 0);
    ws_file_info fi;
    assert_int_equal(ws_store_info(out, &fi, &err), 0);
    assert_int_equal(fi.rows, 12);
    assert_int_equal(fi.points_total, 12);
    assert_int_equal(fi.format_version, WS_FORMAT_VERSION);
    assert_string_equal(fi.sweep_name, "st");
    assert_string_equal(fi.sweep_hash, sw->hash);
    readback rb = {sw, 0, 0};
    assert_int_equal(ws_store_read(out, on_row, &rb, &err), 0);
    assert_int_equal(rb.n, 12);
    char *text = ws_store_sweep_text(out, &err);
    assert_non_null(text);
    assert_string_equal(text, sw->text);
    free(text);
    /* not an HDF5 file */
    assert_int_equal(ws_store_info(jpath, &fi, &err), -1);
    assert_non_null(strstr(err.msg, "not an HDF5 file"));
    ws_sweep_free(sw);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_journal),
        cmocka_unit_test(test_build_and_read),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
