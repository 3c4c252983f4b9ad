/* The journal (checksummed fixed-size records, torn tails, hash check) and
 * the HDF5 file built from it (sorted by point, one row per point, every
 * column read back equal). */
#define _GNU_SOURCE /* F_OFD_SETLK */
#include <fcntl.h>
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

static ws_sweep *sweep_of(const char *text)
{
    ws_sweep **sws;
    int n;
    ws_error err;
    ws_sweep_opts o = {0};
    assert_int_equal(ws_sweep_load_text("st.yaml", text, strlen(text), NULL, &o, &sws, &n, &err), 0);
    ws_sweep *sw = sws[0];
    free(sws);
    return sw;
}

static ws_sweep *sweep(void)
{
    return sweep_of("name: st\nworkload: [a.yaml, bb.yaml]\ngrid:\n  warps: [1, 2, 4]\n  scheduler: [lrr, gto]\n");
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
    uint64_t points[64], recno[64];
    int n;
} seen;

static int on_rec(void *ctx, const ws_row *row, uint64_t recno)
{
    seen *s = ctx;
    assert_true(s->n == 0 || recno > s->recno[s->n - 1]);
    s->recno[s->n] = recno;
    s->points[s->n++] = row->point;
    return 0;
}

/* a record as the journal format says (journal.c): FNV-1a 64 of the row
 * bytes xor the salt "WSROW001", then the row; written at record position i */
static void forge_record(const char *path, long i, const ws_row *r)
{
    uint64_t h = 0xcbf29ce484222325ull;
    const unsigned char *b = (const unsigned char *)r;
    for (size_t k = 0; k < sizeof *r; k++) {
        h ^= b[k];
        h *= 0x100000001b3ull;
    }
    h ^= 0x5753524f57303031ull;
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    fseek(f, 128 + i * (long)(8 + sizeof *r), SEEK_SET);
    fwrite(&h, 8, 1, f);
    fwrite(r, sizeof *r, 1, f);
    fclose(f);
}

static void test_journal(void **state)
{
    (void)state;
    char path[400];
    snprintf(path, sizeof path, "%s/j.journal", dir);
    ws_sweep *sw = sweep();
    ws_error err;
    ws_journal *j = ws_journal_create(path, sw, sw->count, &err);
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
    assert_int_equal(ws_journal_scan(path, sw, &info, on_rec, &s, &err), 0);
    assert_int_equal(s.n, 3);
    assert_int_equal(s.points[0], 5);
    assert_int_equal(info.points_total, 12);
    assert_string_equal(info.hash, sw->hash);

    /* a torn last record: cut in the middle */
    assert_int_equal(truncate(path, full - 100), 0);
    j = ws_journal_open(path, sw, &info, &err);
    assert_non_null(j);
    assert_int_equal(info.records, 2);
    assert_int_equal(info.torn_bytes, rec - 100);
    /* appending after the repair continues right after record 2 */
    make_row(sw, 9, &rows[0]);
    assert_int_equal(ws_journal_append(j, rows, 1, &err), 0);
    ws_journal_close(j);
    s.n = 0;
    assert_int_equal(ws_journal_scan(path, sw, &info, on_rec, &s, &err), 0);
    assert_int_equal(s.n, 3);
    assert_int_equal(s.points[2], 9);
    assert_int_equal(info.torn_bytes, 0);

    /* a flipped byte inside record 2 (of 5, 4, 9): only that record is
     * skipped, the good one after it is kept, nothing is torn */
    FILE *f = fopen(path, "r+b");
    fseek(f, 128 + (long)rec + 40, SEEK_SET);
    int c = fgetc(f);
    fseek(f, 128 + (long)rec + 40, SEEK_SET);
    fputc(c ^ 0x55, f);
    fclose(f);
    s.n = 0;
    assert_int_equal(ws_journal_scan(path, sw, &info, on_rec, &s, &err), 0);
    assert_int_equal(s.n, 2);
    assert_int_equal(s.points[0], 5);
    assert_int_equal(s.points[1], 9);
    assert_int_equal(s.recno[1], 2);
    assert_int_equal(info.damaged, 1);
    assert_int_equal(info.torn_bytes, 0);

    /* forged records with good checksums, at positions 3..6: a point beyond
     * the sweep's 12, a workload it lacks, parameters that are not those of
     * the point, then a good record (point 7); the bad ones are skipped */
    ws_row forged;
    make_row(sw, 0, &forged);
    forged.point = 12;
    forge_record(path, 3, &forged);
    make_row(sw, 1, &forged);
    forged.workload = 2;
    forge_record(path, 4, &forged);
    make_row(sw, 2, &forged);
    forged.params[0].i += 1;
    forge_record(path, 5, &forged);
    make_row(sw, 7, &forged);
    forge_record(path, 6, &forged);
    /* and a torn tail: half of a record of point 8 */
    make_row(sw, 8, &forged);
    forge_record(path, 7, &forged);
    stat(path, &st);
    assert_int_equal(truncate(path, st.st_size - (off_t)(rec / 2)), 0);
    s.n = 0;
    assert_int_equal(ws_journal_scan(path, sw, &info, on_rec, &s, &err), 0);
    assert_int_equal(s.n, 3);
    assert_int_equal(s.points[2], 7);
    assert_int_equal(s.recno[2], 6);
    assert_int_equal(info.damaged, 4);
    assert_int_equal(info.torn_bytes, rec - rec / 2);
    /* without a sweep, only the checksum and the header's points_total count */
    s.n = 0;
    assert_int_equal(ws_journal_scan(path, NULL, &info, on_rec, &s, &err), 0);
    assert_int_equal(s.n, 5);
    /* open: the torn tail is cut, the damaged records stay skipped */
    j = ws_journal_open(path, sw, &info, &err);
    assert_non_null(j);
    assert_int_equal(info.records, 3);
    assert_int_equal(info.damaged, 4);
    assert_int_equal(info.torn_bytes, rec - rec / 2);
    stat(path, &st);
    assert_int_equal(st.st_size, 128 + 7 * (off_t)rec);

    /* one process at a time: a second open (another open file description,
     * as another process would have) is refused, naming the holder */
    ws_journal_info info2;
    assert_null(ws_journal_open(path, sw, &info2, &err));
    char want[512];
    snprintf(want, sizeof want, "%s: in use by another warpsweep (process %d)", path, (int)getpid());
    assert_non_null(strstr(err.msg, want));
    assert_null(ws_journal_create(path, sw, sw->count, &err));
    assert_non_null(strstr(err.msg, want));
    stat(path, &st);
    assert_int_equal(st.st_size, 128 + 7 * (off_t)rec); /* the refused create emptied nothing */
    ws_journal_close(j);
    j = ws_journal_open(path, sw, &info2, &err);
    assert_non_null(j);
    ws_journal_close(j);

    /* another sweep: refused */
    ws_sweep *other = sweep_of("name: st\nworkload: [a.yaml, bb.yaml]\ngrid:\n  warps: [1, 2, 8]\n");
    assert_null(ws_journal_open(path, other, &info, &err));
    assert_non_null(strstr(err.msg, "the sweep changed since this run started"));
    ws_sweep_free(other);
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
    ws_journal *j = ws_journal_create(jpath, sw, sw->count, &err);
    assert_non_null(j);
    /* every point, out of order, points 3 and 7 twice (identical rows) */
    uint64_t order[] = {11, 3, 0, 7, 1, 2, 3, 4, 10, 5, 6, 7, 8, 9};
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        ws_row r;
        make_row(sw, order[i], &r);
        assert_int_equal(ws_journal_append(j, &r, 1, &err), 0);
    }
    ws_journal_close(j);
    /* OUT.h5.tmp locked by another writer (an OFD lock, as ws_store_build
     * takes one): refused, and the other writer's file is not truncated */
    char tmp[420];
    snprintf(tmp, sizeof tmp, "%s.tmp", out);
    int other = open(tmp, O_RDWR | O_CREAT, 0644);
    assert_true(other >= 0);
    assert_int_equal(write(other, "theirs", 6), 6);
    struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};
    assert_int_equal(fcntl(other, F_OFD_SETLK, &fl), 0);
    assert_int_equal(ws_store_build(out, jpath, sw, &err), -1);
    assert_non_null(strstr(err.msg, "being written by another warpsweep"));
    struct stat st;
    assert_int_equal(stat(tmp, &st), 0);
    assert_int_equal(st.st_size, 6);
    assert_int_not_equal(access(out, F_OK), 0);
    close(other);
    unlink(tmp);
    if (ws_store_build(out, jpath, sw, &err)) {
        print_error("%s\n", err.msg);
        fail();
    }
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
