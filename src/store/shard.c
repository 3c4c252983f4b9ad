/* Shards of a sweep and merging their files (see warpsweep/shard.h). */
#include <errno.h>
#include <hdf5.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "warpsweep/shard.h"
#include "warpsweep/store.h"
#include "h5_read.h"

/* ---- parsing and ranges ---- */

static int parse_u64(const char *s, uint64_t *v)
{
    if (!s || !*s)
        return -1;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    if (errno || *end || s[0] == '-')
        return -1;
    *v = x;
    return 0;
}

int ws_shard_parse(const char *arg, ws_shard *s, ws_error *err)
{
    s->k = s->n = 0;
    if (strcmp(arg, "auto") == 0) {
        const char *id = getenv("SLURM_ARRAY_TASK_ID"), *min = getenv("SLURM_ARRAY_TASK_MIN"),
                   *cnt = getenv("SLURM_ARRAY_TASK_COUNT"), *step = getenv("SLURM_ARRAY_TASK_STEP");
        uint64_t i, lo, n, st = 1;
        if (!id || !min || !cnt)
            return ws_fail(err, "--shard auto: SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_MIN and SLURM_ARRAY_TASK_COUNT "
                                "must be set (run it as a task of a SLURM job array, or give --shard K/N)");
        if (parse_u64(id, &i) || parse_u64(min, &lo) || parse_u64(cnt, &n) || (step && parse_u64(step, &st)) || !n ||
            !st)
            return ws_fail(err, "--shard auto: SLURM_ARRAY_TASK_ID=%s SLURM_ARRAY_TASK_MIN=%s SLURM_ARRAY_TASK_COUNT=%s "
                                "are not numbers", id, min, cnt);
        if (i < lo || (i - lo) % st || (i - lo) / st >= n)
            return ws_fail(err, "--shard auto: task %s of an array from %s with %s tasks (step %" PRIu64 ") is not one "
                                "of a contiguous range: submit the array as --array=0-%" PRIu64, id, min, cnt, st, n - 1);
        s->k = (i - lo) / st;
        s->n = n;
        return 0;
    }
    const char *slash = strchr(arg, '/');
    char kbuf[32];
    /* 0-based, like SLURM array task ids (--array=0-(N-1)) and the shard
     * file names: the two halves are 0/2 and 1/2 (docs/cluster.md) */
    if (!slash || (size_t)(slash - arg) >= sizeof kbuf)
        return ws_fail(err, "--shard expects K/N or auto, K must be 0..N-1 (shards are numbered from 0), got '%s'",
                       arg);
    memcpy(kbuf, arg, (size_t)(slash - arg));
    kbuf[slash - arg] = 0;
    uint64_t k, n;
    if (parse_u64(kbuf, &k) || parse_u64(slash + 1, &n) || n == 0)
        return ws_fail(err, "--shard expects K/N with N >= 1, K must be 0..N-1 (shards are numbered from 0), got '%s'",
                       arg);
    if (k >= n)
        return ws_fail(err, "--shard expects K/N, K must be 0..N-1 (shards are numbered from 0): got '%s', so K "
                       "must be 0..%" PRIu64, arg, n - 1);
    s->k = k;
    s->n = n;
    return 0;
}

ws_point_range ws_shard_range(const ws_shard *s, uint64_t count)
{
    if (!s || !s->n)
        return (ws_point_range){0, 1, count};
    uint64_t n = s->k < count ? (count - s->k + s->n - 1) / s->n : 0;
    return (ws_point_range){s->k, s->n, n};
}

/* ---- attributes ---- */

static hid_t str_type(size_t n)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, n ? n : 1);
    H5Tset_strpad(t, H5T_STR_NULLPAD);
    return t;
}

static int put_attr(hid_t loc, const char *name, hid_t type, const void *v)
{
    if (H5Aexists(loc, name) > 0)
        H5Adelete(loc, name);
    hid_t sp = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate2(loc, name, type, sp, H5P_DEFAULT, H5P_DEFAULT);
    int rc = a < 0 ? -1 : H5Awrite(a, type, v) < 0 ? -1 : 0;
    if (a >= 0)
        H5Aclose(a);
    H5Sclose(sp);
    return rc;
}

static int put_attr_str(hid_t loc, const char *name, const char *value)
{
    size_t n = strlen(value);
    hid_t t = str_type(n);
    int rc = put_attr(loc, name, t, n ? value : "");
    H5Tclose(t);
    return rc;
}

int ws_store_set_shard(const char *path, const ws_shard *s, uint64_t shard_points, ws_error *err)
{
    ws_h5_begin();
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    if (f < 0)
        return ws_fail(err, "%s: cannot open to record its shard", path);
    int64_t k = (int64_t)s->k, n = (int64_t)s->n, p = (int64_t)shard_points;
    int rc = put_attr(f, "shard_index", H5T_NATIVE_INT64, &k) || put_attr(f, "shard_count", H5T_NATIVE_INT64, &n) ||
             put_attr(f, "shard_points", H5T_NATIVE_INT64, &p);
    if (H5Fclose(f) < 0 || rc)
        return ws_fail(err, "%s: cannot record its shard (disk full?)", path);
    return 0;
}

int ws_store_get_shard(const char *path, ws_shard *s, ws_error *err)
{
    s->k = s->n = 0;
    hid_t f = ws_h5_open_read(path, err);
    if (f < 0)
        return -1;
    int64_t k, n;
    int hk = ws_h5_attr_i64(f, path, "shard_index", &k, err);
    int hn = hk < 0 ? -1 : ws_h5_attr_i64(f, path, "shard_count", &n, err);
    H5Fclose(f);
    if (hk < 0 || hn < 0)
        return -1;
    if (hk && hn && n > 0 && k >= 0 && k < n) {
        s->k = (uint64_t)k;
        s->n = (uint64_t)n;
    }
    return 0;
}

int ws_store_check_shard(const char *path, const ws_shard *s, ws_error *err)
{
    ws_shard f;
    ws_error e;
    if (ws_store_get_shard(path, &f, &e))
        return 0;
    if (f.n != s->n || f.k != s->k) {
        char jpath[4200];
        snprintf(jpath, sizeof jpath, "%s.journal", path);
        if (!f.n && access(jpath, F_OK) == 0)
            return 0; /* cut between building the file and tagging it: the journal says which points */
        if (!f.n)
            return ws_fail(err, "%s was not written as a shard: refusing to resume it as shard %" PRIu64 "/%" PRIu64,
                           path, s->k, s->n);
        return ws_fail(err, "%s is shard %" PRIu64 "/%" PRIu64 ": refusing to resume it as shard %" PRIu64 "/%" PRIu64,
                       path, f.k, f.n, s->k, s->n);
    }
    return 0;
}

/* ---- merge ---- */

typedef struct input {
    const char *path;
    ws_file_info info;
    ws_shard shard;
    uint64_t rows_seen, missing;
} input;

typedef struct merge_ctx {
    const ws_sweep *sw;
    ws_journal *j;
    uint32_t *owner;     /* per point: 0 = none, else input index + 1 */
    input *in;
    int cur;
    uint64_t total;
    uint64_t dups, foreign, bad_workload;
    FILE *rep;
    int failed;
    ws_error *err;
    ws_row *batch;
    size_t nb;
} merge_ctx;

#define MERGE_BATCH 256
#define REPORT_MAX 10

static int flush_batch(merge_ctx *c)
{
    if (c->nb && !c->failed && ws_journal_append(c->j, c->batch, c->nb, c->err))
        c->failed = 1;
    c->nb = 0;
    return c->failed;
}

static int merge_row(void *vctx, const ws_row *row, const char *workload)
{
    merge_ctx *c = vctx;
    input *in = &c->in[c->cur];
    in->rows_seen++;
    if (row->point >= c->total) {
        if (c->foreign++ < REPORT_MAX)
            fprintf(c->rep, "warpsweep merge: %s: point %" PRIu64 " is beyond the sweep's %" PRIu64 " points\n", in->path,
                    row->point, c->total);
        return 0;
    }
    if (row->point % in->shard.n != in->shard.k) {
        if (c->foreign++ < REPORT_MAX)
            fprintf(c->rep, "warpsweep merge: %s: point %" PRIu64 " does not belong to its shard %" PRIu64 "/%" PRIu64 "\n",
                    in->path, row->point, in->shard.k, in->shard.n);
    }
    uint32_t o = c->owner[row->point];
    if (o) {
        if (c->dups++ < REPORT_MAX)
            fprintf(c->rep, "warpsweep merge: point %" PRIu64 " is duplicated: in %s and in %s\n", row->point,
                    c->in[o - 1].path, in->path);
        return 0;
    }
    c->owner[row->point] = (uint32_t)c->cur + 1;
    ws_row r = *row;
    r.workload = UINT32_MAX;
    for (int i = 0; i < c->sw->nworkloads; i++)
        if (strcmp(c->sw->workload_names[i], workload) == 0)
            r.workload = (uint32_t)i;
    if (r.workload == UINT32_MAX) {
        if (c->bad_workload++ < REPORT_MAX)
            fprintf(c->rep, "warpsweep merge: %s: point %" PRIu64 " names workload '%s', which the sweep does not have\n",
                    in->path, row->point, workload);
        r.workload = 0;
    }
    c->batch[c->nb++] = r;
    if (c->nb == MERGE_BATCH)
        return flush_batch(c);
    return 0;
}

/* the sweep's workload names, in order, from /points' choices:workload */
static int read_workloads(const char *path, ws_sweep *sw, char **sweep_file, ws_error *err)
{
    hid_t f = ws_h5_open_read(path, err);
    if (f < 0)
        return -1;
    char *choices = NULL;
    int rc = ws_h5_attr_str(f, path, "sweep_file", sweep_file, err);
    if (rc >= 0) {
        hid_t ds = H5Dopen2(f, "points", H5P_DEFAULT); /* ws_store_info checked it */
        rc = ds < 0 ? ws_fail(err, "%s: cannot open /points: the file is damaged", path)
                    : ws_h5_attr_str(ds, path, "choices:workload", &choices, err);
        if (ds >= 0)
            H5Dclose(ds);
    }
    H5Fclose(f);
    if (rc < 0)
        return -1;
    if (!choices)
        return ws_fail(err, "%s: /points has no choices:workload attribute: not a warpsweep results file", path);
    int n = 1;
    for (const char *p = choices; *p; p++)
        n += *p == '|';
    sw->workload_names = calloc((size_t)n, sizeof(char *));
    sw->nworkloads = 0;
    for (char *save = NULL, *tok = strtok_r(choices, "|", &save); tok; tok = strtok_r(NULL, "|", &save))
        sw->workload_names[sw->nworkloads++] = strdup(tok);
    free(choices);
    return 0;
}

static void list_missing(FILE *rep, const uint32_t *owner, uint64_t total, uint64_t first, uint64_t stride,
                         uint64_t count, const char *what)
{
    fprintf(rep, "warpsweep merge: %s %" PRIu64 " point%s missing:", what, count, count == 1 ? "" : "s");
    uint64_t shown = 0;
    for (uint64_t p = first; p < total && shown < REPORT_MAX; p += stride)
        if (!owner[p]) {
            fprintf(rep, " %" PRIu64, p);
            shown++;
        }
    fprintf(rep, "%s\n", count > shown ? " ..." : "");
}

int ws_store_merge(const char *out, const char *const *inputs, int ninputs, const ws_merge_opts *o,
                   ws_merge_result *res, ws_error *err)
{
    FILE *rep = o && o->report ? o->report : stderr;
    memset(res, 0, sizeof *res);
    if (ninputs < 1)
        return ws_fail(err, "warpsweep merge: no shard files given");
    if (ninputs > 1000000)
        return ws_fail(err, "warpsweep merge: too many shard files");
    if (!(o && o->force) && access(out, F_OK) == 0)
        return ws_fail(err, "%s already exists; use --force to overwrite it", out);
    input *in = calloc((size_t)ninputs, sizeof *in);
    int rc = -1;
    uint32_t *owner = NULL;
    char **by_shard = NULL;
    ws_sweep sw;
    memset(&sw, 0, sizeof sw);
    char *sweep_file = NULL;
    ws_journal *j = NULL;
    char jpath[4200];
    snprintf(jpath, sizeof jpath, "%s.merge-journal", out);

    for (int i = 0; i < ninputs; i++) {
        in[i].path = inputs[i];
        if (ws_store_info(inputs[i], &in[i].info, err) || ws_store_get_shard(inputs[i], &in[i].shard, err))
            goto done;
        char why[512];
        if (ws_model_mismatch(in[i].info.model_version, inputs[i], "merge", why, sizeof why)) {
            ws_fail(err, "%s", why);
            goto done;
        }
        if (!in[i].shard.n) {
            ws_fail(err, "%s: not a shard file (no shard_index/shard_count attributes: written without --shard)",
                    inputs[i]);
            goto done;
        }
        if (strcmp(in[i].info.sweep_hash, in[0].info.sweep_hash) != 0) {
            ws_fail(err, "%s comes from another sweep: sweep '%s' hash %s, but %s is sweep '%s' hash %s", inputs[i],
                    in[i].info.sweep_name, in[i].info.sweep_hash, inputs[0], in[0].info.sweep_name,
                    in[0].info.sweep_hash);
            goto done;
        }
        if (in[i].shard.n != in[0].shard.n) {
            ws_fail(err, "%s is shard %" PRIu64 "/%" PRIu64 " but %s is shard %" PRIu64 "/%" PRIu64
                         ": the shard counts differ", inputs[i], in[i].shard.k, in[i].shard.n, inputs[0],
                    in[0].shard.k, in[0].shard.n);
            goto done;
        }
        if (in[i].info.points_total != in[0].info.points_total) {
            ws_fail(err, "%s: points_total %" PRIu64 " differs from %s's %" PRIu64, inputs[i],
                    in[i].info.points_total, inputs[0], in[0].info.points_total);
            goto done;
        }
    }
    uint64_t N = in[0].shard.n, total = in[0].info.points_total;
    res->points_total = total;
    if (N > (uint64_t)1 << 24) {
        ws_fail(err, "warpsweep merge: %" PRIu64 " shards: too many", N);
        goto done;
    }
    by_shard = calloc(N, sizeof *by_shard);
    for (int i = 0; i < ninputs; i++) {
        uint64_t k = in[i].shard.k;
        if (by_shard[k]) {
            ws_fail(err, "shard %" PRIu64 "/%" PRIu64 " is given twice: %s and %s", k, N, by_shard[k], inputs[i]);
            goto done;
        }
        by_shard[k] = (char *)inputs[i];
    }
    owner = calloc(total ? total : 1, sizeof *owner);
    if (!owner) {
        ws_fail(err, "warpsweep merge: out of memory for %" PRIu64 " points", total);
        goto done;
    }
    /* a minimal sweep: what the file builder needs (names, text, hash, count) */
    if (read_workloads(inputs[0], &sw, &sweep_file, err))
        goto done;
    sw.name = in[0].info.sweep_name;
    sw.file = sweep_file ? sweep_file : "";
    sw.text = ws_store_sweep_text(inputs[0], err);
    if (!sw.text)
        goto done;
    memcpy(sw.hash, in[0].info.sweep_hash, sizeof sw.hash);
    memcpy(sw.own_hash, in[0].info.own_hash, sizeof sw.own_hash);
    memcpy(sw.inputs_hash, in[0].info.inputs_hash, sizeof sw.inputs_hash);
    sw.count = total;

    j = ws_journal_create(jpath, &sw, total, err);
    if (!j)
        goto done;
    merge_ctx c = {.sw = &sw, .j = j, .owner = owner, .in = in, .total = total, .rep = rep, .err = err};
    c.batch = malloc(MERGE_BATCH * sizeof(ws_row));
    for (int i = 0; i < ninputs && !c.failed; i++) {
        c.cur = i;
        if (ws_store_read(inputs[i], merge_row, &c, err) || c.failed) {
            c.failed = 1;
            break;
        }
        flush_batch(&c);
    }
    free(c.batch);
    if (c.failed)
        goto done;
    res->duplicated = c.dups;

    /* missing: whole shards, then points of the shards that are there */
    for (uint64_t k = 0; k < N; k++) {
        uint64_t expect = k < total ? (total - k + N - 1) / N : 0, have = 0;
        for (uint64_t p = k; p < total; p += N)
            have += owner[p] != 0;
        uint64_t miss = expect - have;
        res->missing += miss;
        if (!by_shard[k]) {
            res->shards_missing++;
            char what[128];
            snprintf(what, sizeof what, "shard %" PRIu64 "/%" PRIu64 ": no file given:", k, N);
            list_missing(rep, owner, total, k, N, miss, what);
        } else if (miss) {
            char what[4400];
            snprintf(what, sizeof what, "shard %" PRIu64 "/%" PRIu64 " (%s, an interrupted run? finish it with "
                     "warpsweep run --shard %" PRIu64 "/%" PRIu64 " --resume):", k, N, by_shard[k], k, N);
            list_missing(rep, owner, total, k, N, miss, what);
        }
    }
    if (c.dups || c.foreign || c.bad_workload) {
        ws_fail(err, "warpsweep merge: refusing to merge: %" PRIu64 " duplicated point%s, %" PRIu64
                     " point%s outside their shard, %" PRIu64 " unknown workload%s (see above)",
                c.dups, c.dups == 1 ? "" : "s", c.foreign, c.foreign == 1 ? "" : "s", c.bad_workload,
                c.bad_workload == 1 ? "" : "s");
        goto done;
    }
    if (res->missing && !(o && o->allow_partial)) {
        ws_fail(err, "warpsweep merge: %" PRIu64 " of %" PRIu64 " points missing (%" PRIu64
                     " shard%s without a file): nothing written; --allow-partial merges what is there",
                res->missing, total, res->shards_missing, res->shards_missing == 1 ? "" : "s");
        goto done;
    }
    if (ws_store_build(out, jpath, &sw, err))
        goto done;
    /* the run started when its earliest shard did */
    {
        char created[32];
        snprintf(created, sizeof created, "%s", in[0].info.created_utc);
        for (int i = 1; i < ninputs; i++)
            if (in[i].info.created_utc[0] && strcmp(in[i].info.created_utc, created) < 0)
                snprintf(created, sizeof created, "%s", in[i].info.created_utc);
        hid_t f = H5Fopen(out, H5F_ACC_RDWR, H5P_DEFAULT);
        if (f >= 0) {
            if (created[0])
                put_attr_str(f, "created_utc", created);
            H5Fclose(f);
        }
    }
    res->rows = total - res->missing;
    rc = 0;
done:
    if (j) { /* ours (locked) until here; a journal another merge holds is left alone */
        unlink(jpath);
        ws_journal_close(j);
    }
    for (int i = 0; i < sw.nworkloads; i++)
        free(sw.workload_names[i]);
    free(sw.workload_names);
    free(sw.text);
    free(sweep_file);
    free(owner);
    free(by_shard);
    free(in);
    return rc;
}
