/* The HDF5 results file (format: results/README.md). Columns come from the
 * parameter and metric registries at run time. Only one thread calls into
 * HDF5 at a time (the Debian build is not thread-safe). */
#include <errno.h>
#include <fcntl.h>
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "warpsweep/store.h"

#define CHUNK_ROWS 1024

typedef struct layout {
    hid_t type;
    size_t size;
    size_t off_point, off_workload, off_seed, off_status, off_message, off_sim;
    size_t off_param[WS_NPARAMS], off_metric[WS_NMETRICS];
    size_t workload_len, status_len, message_len, choice_len[WS_NPARAMS];
    size_t label_len[WS_NMETRICS];    /* labelled metrics (ML): a string column; else 0 */
    uint8_t label_as_int[WS_NMETRICS]; /* reading a file that stored the code as an integer */
    int seed_id;
} layout;

static hid_t str_type(size_t n)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, n ? n : 1);
    H5Tset_strpad(t, H5T_STR_NULLPAD);
    return t;
}

static size_t max_label_len(const char *choices)
{
    size_t best = 1, cur = 0;
    for (const char *p = choices; ; p++) {
        if (*p == '|' || *p == 0) {
            if (cur > best)
                best = cur;
            cur = 0;
            if (!*p)
                break;
        } else {
            cur++;
        }
    }
    return best;
}

static int layout_build(layout *L, size_t workload_len, size_t message_len)
{
    memset(L, 0, sizeof *L);
    L->seed_id = ws_param_find("seed");
    L->workload_len = workload_len ? workload_len : 1;
    L->message_len = message_len ? message_len : 1;
    L->status_len = 1;
    for (int s = 0; s < WS_ST_COUNT; s++)
        if (strlen(ws_status_name(s)) > L->status_len)
            L->status_len = strlen(ws_status_name(s));
    size_t off = 0;
    L->off_point = off; off += 8;
    L->off_workload = off; off += L->workload_len;
    L->off_seed = off; off += 8;
    for (int i = 0; i < WS_NPARAMS; i++) {
        if (i == L->seed_id)
            continue;
        L->off_param[i] = off;
        if (ws_params[i].type == WS_PT_CHOICE) {
            L->choice_len[i] = max_label_len(ws_params[i].choices);
            off += L->choice_len[i];
        } else {
            off += 8;
        }
    }
    L->off_status = off; off += L->status_len;
    L->off_message = off; off += L->message_len;
    for (int m = 0; m < WS_NMETRICS; m++) {
        L->off_metric[m] = off;
        /* a label slot also holds the int64 code of files that stored it so */
        L->label_len[m] = ws_metrics[m].labels ? max_label_len(ws_metrics[m].labels) : 0;
        off += L->label_len[m] > 8 ? L->label_len[m] : 8;
    }
    L->off_sim = off; off += 8;
    L->size = off;
    L->type = H5Tcreate(H5T_COMPOUND, off);
    hid_t t;
    H5Tinsert(L->type, "point", L->off_point, H5T_NATIVE_UINT64);
    t = str_type(L->workload_len);
    H5Tinsert(L->type, "workload", L->off_workload, t);
    H5Tclose(t);
    H5Tinsert(L->type, "seed", L->off_seed, H5T_NATIVE_INT64);
    for (int i = 0; i < WS_NPARAMS; i++) {
        if (i == L->seed_id)
            continue;
        if (ws_params[i].type == WS_PT_CHOICE) {
            t = str_type(L->choice_len[i]);
            if (H5Tinsert(L->type, ws_params[i].name, L->off_param[i], t) < 0)
                return -1;
            H5Tclose(t);
        } else if (H5Tinsert(L->type, ws_params[i].name, L->off_param[i],
                             ws_params[i].type == WS_PT_FLOAT ? H5T_NATIVE_DOUBLE : H5T_NATIVE_INT64) < 0) {
            return -1;
        }
    }
    t = str_type(L->status_len);
    H5Tinsert(L->type, "status", L->off_status, t);
    H5Tclose(t);
    t = str_type(L->message_len);
    H5Tinsert(L->type, "message", L->off_message, t);
    H5Tclose(t);
    for (int m = 0; m < WS_NMETRICS; m++) {
        if (L->label_len[m]) {
            t = str_type(L->label_len[m]);
            herr_t e = H5Tinsert(L->type, ws_metrics[m].name, L->off_metric[m], t);
            H5Tclose(t);
            if (e < 0)
                return -1;
        } else if (H5Tinsert(L->type, ws_metrics[m].name, L->off_metric[m],
                             ws_metrics[m].is_float ? H5T_NATIVE_DOUBLE : H5T_NATIVE_INT64) < 0) {
            return -1;
        }
    }
    H5Tinsert(L->type, "sim_seconds", L->off_sim, H5T_NATIVE_DOUBLE);
    return 0;
}

static void put_str(unsigned char *dst, size_t cap, const char *s)
{
    size_t n = strnlen(s, cap);
    memcpy(dst, s, n);
    if (n < cap)
        memset(dst + n, 0, cap - n);
}

static void get_str(char *dst, size_t dcap, const unsigned char *src, size_t cap)
{
    size_t n = strnlen((const char *)src, cap);
    if (n >= dcap)
        n = dcap - 1;
    memcpy(dst, src, n);
    dst[n] = 0;
}

static void row_to_buf(const layout *L, const ws_sweep *sw, const ws_row *r, unsigned char *b)
{
    memcpy(b + L->off_point, &r->point, 8);
    put_str(b + L->off_workload, L->workload_len,
            r->workload < (uint32_t)sw->nworkloads ? sw->workload_names[r->workload] : "?");
    int64_t seed = (int64_t)r->seed;
    memcpy(b + L->off_seed, &seed, 8);
    for (int i = 0; i < WS_NPARAMS; i++) {
        if (i == L->seed_id)
            continue;
        if (ws_params[i].type == WS_PT_CHOICE) {
            char name[64];
            ws_param_choice(i, r->params[i].i, name, sizeof name);
            put_str(b + L->off_param[i], L->choice_len[i], name);
        } else {
            memcpy(b + L->off_param[i], &r->params[i], 8);
        }
    }
    put_str(b + L->off_status, L->status_len, ws_status_name(r->status));
    put_str(b + L->off_message, L->message_len, r->message);
    for (int m = 0; m < WS_NMETRICS; m++) {
        char label[64];
        if (L->label_len[m])
            put_str(b + L->off_metric[m], L->label_len[m],
                    ws_metric_label(m, r->metrics[m].i, label, sizeof label) ? label : "");
        else
            memcpy(b + L->off_metric[m], &r->metrics[m], 8);
    }
    memcpy(b + L->off_sim, &r->sim_seconds, 8);
}

static int status_of(const char *s)
{
    for (int i = 0; i < WS_ST_COUNT; i++)
        if (strcmp(ws_status_name(i), s) == 0)
            return i;
    return WS_ST_ERROR;
}

static void buf_to_row(const layout *L, const unsigned char *b, ws_row *r, char *workload, size_t wcap)
{
    memset(r, 0, sizeof *r);
    memcpy(&r->point, b + L->off_point, 8);
    get_str(workload, wcap, b + L->off_workload, L->workload_len);
    int64_t seed;
    memcpy(&seed, b + L->off_seed, 8);
    r->seed = (uint64_t)seed;
    for (int i = 0; i < WS_NPARAMS; i++) {
        if (i == L->seed_id) {
            r->params[i].i = seed;
            continue;
        }
        if (ws_params[i].type == WS_PT_CHOICE) {
            char name[64];
            get_str(name, sizeof name, b + L->off_param[i], L->choice_len[i]);
            ws_value v = {.i = 0};
            if (ws_param_parse(i, name, &v, NULL) == 0)
                r->params[i] = v;
        } else {
            memcpy(&r->params[i], b + L->off_param[i], 8);
        }
    }
    char st[32];
    get_str(st, sizeof st, b + L->off_status, L->status_len);
    r->status = status_of(st);
    get_str(r->message, sizeof r->message, b + L->off_message, L->message_len);
    for (int m = 0; m < WS_NMETRICS; m++) {
        if (L->label_len[m] && !L->label_as_int[m]) {
            char label[64];
            get_str(label, sizeof label, b + L->off_metric[m], L->label_len[m]);
            r->metrics[m].i = ws_metric_code(m, label);
        } else {
            memcpy(&r->metrics[m], b + L->off_metric[m], 8);
        }
    }
    memcpy(&r->sim_seconds, b + L->off_sim, 8);
}

/* ---- building the file from the journal ---- */

typedef struct idx_entry {
    uint64_t point, rec;
} idx_entry;

typedef struct scan_ctx {
    idx_entry *idx;
    size_t n, cap;
    size_t max_msg;
} scan_ctx;

static int collect(void *vctx, const ws_row *row, uint64_t recno)
{
    scan_ctx *c = vctx;
    if (c->n == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 4096;
        c->idx = realloc(c->idx, c->cap * sizeof *c->idx);
    }
    c->idx[c->n++] = (idx_entry){row->point, recno};
    size_t ml = strnlen(row->message, sizeof row->message);
    if (ml > c->max_msg)
        c->max_msg = ml;
    return 0;
}

static int cmp_idx(const void *a, const void *b)
{
    const idx_entry *x = a, *y = b;
    if (x->point != y->point)
        return x->point < y->point ? -1 : 1;
    return x->rec < y->rec ? -1 : x->rec > y->rec;
}

static int attr_str(hid_t loc, const char *name, const char *value)
{
    size_t n = strlen(value);
    hid_t t = str_type(n ? n : 1);
    hid_t sp = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate2(loc, name, t, sp, H5P_DEFAULT, H5P_DEFAULT);
    int rc = a < 0 ? -1 : H5Awrite(a, t, n ? value : "") < 0 ? -1 : 0;
    if (a >= 0)
        H5Aclose(a);
    H5Sclose(sp);
    H5Tclose(t);
    return rc;
}

static int attr_u64(hid_t loc, const char *name, hid_t type, const void *v)
{
    hid_t sp = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate2(loc, name, type, sp, H5P_DEFAULT, H5P_DEFAULT);
    int rc = a < 0 ? -1 : H5Awrite(a, type, v) < 0 ? -1 : 0;
    if (a >= 0)
        H5Aclose(a);
    H5Sclose(sp);
    return rc;
}

#define JREC_SIZE (8 + sizeof(ws_row))
#define JHDR_SIZE 128

int ws_store_build(const char *out_path, const char *journal_path, const ws_sweep *sw, ws_error *err)
{
    scan_ctx sc = {0};
    ws_journal_info ji;
    if (ws_journal_scan(journal_path, &ji, collect, &sc, err))
        return -1;
    if (sc.n)
        qsort(sc.idx, sc.n, sizeof *sc.idx, cmp_idx);
    size_t nrows = 0;
    for (size_t i = 0; i < sc.n; i++) /* dedupe: first record of each point wins */
        if (i == 0 || sc.idx[i].point != sc.idx[i - 1].point)
            sc.idx[nrows++] = sc.idx[i];

    size_t wl = 1;
    for (int i = 0; i < sw->nworkloads; i++)
        if (strlen(sw->workload_names[i]) > wl)
            wl = strlen(sw->workload_names[i]);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    layout L;
    if (layout_build(&L, wl, sc.max_msg)) {
        free(sc.idx);
        return ws_fail(err, "%s: cannot build the column layout (a parameter or metric name clashes?)", out_path);
    }
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", out_path);
    int rc = -1;
    int jfd = -1;
    unsigned char *buf = NULL, *rec = NULL;
    hid_t f = -1, space = -1, dcpl = -1, ds = -1, mspace = -1;
    f = H5Fcreate(tmp, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (f < 0) {
        ws_fail(err, "%s: cannot create the HDF5 file", tmp);
        goto out;
    }
    hsize_t dims[1] = {nrows}, maxdims[1] = {H5S_UNLIMITED}, chunk[1] = {CHUNK_ROWS};
    space = H5Screate_simple(1, dims, maxdims);
    dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(dcpl, 1, chunk);
    H5Pset_shuffle(dcpl);
    H5Pset_deflate(dcpl, 4);
    ds = H5Dcreate2(f, "points", L.type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    if (ds < 0) {
        ws_fail(err, "%s: cannot create /points", tmp);
        goto out;
    }
    jfd = open(journal_path, O_RDONLY | O_CLOEXEC);
    if (jfd < 0) {
        ws_fail(err, "%s: cannot open: %s", journal_path, strerror(errno));
        goto out;
    }
    buf = malloc(CHUNK_ROWS * L.size);
    rec = malloc(JREC_SIZE);
    for (size_t start = 0; start < nrows; start += CHUNK_ROWS) {
        size_t n = nrows - start < CHUNK_ROWS ? nrows - start : CHUNK_ROWS;
        for (size_t i = 0; i < n; i++) {
            off_t off = JHDR_SIZE + (off_t)(sc.idx[start + i].rec * JREC_SIZE);
            if (pread(jfd, rec, JREC_SIZE, off) != (ssize_t)JREC_SIZE) {
                ws_fail(err, "%s: read error", journal_path);
                goto out;
            }
            ws_row row;
            memcpy(&row, rec + 8, sizeof row);
            row_to_buf(&L, sw, &row, buf + i * L.size);
        }
        hsize_t st[1] = {start}, cnt[1] = {n};
        hid_t fsp = H5Dget_space(ds);
        H5Sselect_hyperslab(fsp, H5S_SELECT_SET, st, NULL, cnt, NULL);
        mspace = H5Screate_simple(1, cnt, NULL);
        herr_t w = H5Dwrite(ds, L.type, mspace, fsp, H5P_DEFAULT, buf);
        H5Sclose(fsp);
        H5Sclose(mspace);
        mspace = -1;
        if (w < 0) {
            ws_fail(err, "%s: cannot write rows (disk full?)", tmp);
            goto out;
        }
    }
    /* choice columns: their choices, in registry order (categoricals) */
    for (int i = 0; i < WS_NPARAMS; i++) {
        char an[128];
        if (ws_params[i].type == WS_PT_CHOICE) {
            snprintf(an, sizeof an, "choices:%s", ws_params[i].name);
            attr_str(ds, an, ws_params[i].choices);
        }
        if (ws_params[i].unit && *ws_params[i].unit) {
            snprintf(an, sizeof an, "unit:%s", ws_params[i].name);
            attr_str(ds, an, ws_params[i].unit);
        }
    }
    for (int m = 0; m < WS_NMETRICS; m++) {
        char an[128];
        if (*ws_metrics[m].unit) {
            snprintf(an, sizeof an, "unit:%s", ws_metrics[m].name);
            attr_str(ds, an, ws_metrics[m].unit);
        }
        if (ws_metrics[m].labels) {   /* labelled metrics: categoricals like the choice columns */
            snprintf(an, sizeof an, "choices:%s", ws_metrics[m].name);
            attr_str(ds, an, ws_metrics[m].labels);
        }
    }
    {
        char st[256] = "";
        for (int s = 0; s < WS_ST_COUNT; s++)
            snprintf(st + strlen(st), sizeof st - strlen(st), "%s%s", s ? "|" : "", ws_status_name(s));
        attr_str(ds, "choices:status", st);
        char wls[8192] = "";
        for (int i = 0; i < sw->nworkloads; i++)
            snprintf(wls + strlen(wls), sizeof wls - strlen(wls), "%s%s", i ? "|" : "", sw->workload_names[i]);
        attr_str(ds, "choices:workload", wls);
    }
    int64_t fv = WS_FORMAT_VERSION;
    uint64_t total = sw->count, written = nrows;
    if (attr_str(f, "warpsweep_version", WS_VERSION) || attr_u64(f, "format_version", H5T_NATIVE_INT64, &fv) ||
        attr_str(f, "sweep_name", sw->name) || attr_str(f, "sweep_file", sw->file) ||
        attr_str(f, "sweep_yaml", sw->text) || attr_str(f, "sweep_hash", sw->hash) ||
        attr_str(f, "created_utc", ji.created_utc) || attr_u64(f, "points_total", H5T_NATIVE_UINT64, &total) ||
        attr_u64(f, "points_written", H5T_NATIVE_UINT64, &written)) {
        ws_fail(err, "%s: cannot write attributes", tmp);
        goto out;
    }
    H5Dclose(ds);
    ds = -1;
    if (H5Fclose(f) < 0) {
        f = -1;
        ws_fail(err, "%s: cannot close (disk full?)", tmp);
        goto out;
    }
    f = -1;
    /* make the new file durable, then atomically replace the old one */
    int tfd = open(tmp, O_RDONLY | O_CLOEXEC);
    if (tfd >= 0) {
        fsync(tfd);
        close(tfd);
    }
    if (rename(tmp, out_path)) {
        ws_fail(err, "%s: cannot rename to %s: %s", tmp, out_path, strerror(errno));
        goto out;
    }
    rc = 0;
out:
    if (ds >= 0)
        H5Dclose(ds);
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (space >= 0)
        H5Sclose(space);
    if (f >= 0)
        H5Fclose(f);
    if (rc)
        unlink(tmp);
    if (jfd >= 0)
        close(jfd);
    H5Tclose(L.type);
    free(buf);
    free(rec);
    free(sc.idx);
    return rc;
}

/* ---- reading ---- */

static int read_attr_str(hid_t f, const char *name, char *out, size_t cap)
{
    out[0] = 0;
    if (H5Aexists(f, name) <= 0)
        return -1;
    hid_t a = H5Aopen(f, name, H5P_DEFAULT);
    hid_t t = H5Aget_type(a);
    int rc = -1;
    if (H5Tget_class(t) == H5T_STRING && !H5Tis_variable_str(t)) {
        size_t n = H5Tget_size(t);
        char *tmp = calloc(1, n + 1);
        hid_t mt = str_type(n);
        if (H5Aread(a, mt, tmp) >= 0) {
            snprintf(out, cap, "%s", tmp);
            rc = 0;
        }
        H5Tclose(mt);
        free(tmp);
    }
    H5Tclose(t);
    H5Aclose(a);
    return rc;
}

static hid_t open_file(const char *path, ws_error *err)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    if (access(path, R_OK)) {
        ws_fail(err, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0)
        ws_fail(err, "%s: not an HDF5 file (or damaged)", path);
    return f;
}

int ws_store_info(const char *path, ws_file_info *info, ws_error *err)
{
    memset(info, 0, sizeof *info);
    hid_t f = open_file(path, err);
    if (f < 0)
        return -1;
    read_attr_str(f, "sweep_name", info->sweep_name, sizeof info->sweep_name);
    read_attr_str(f, "sweep_hash", info->sweep_hash, sizeof info->sweep_hash);
    read_attr_str(f, "created_utc", info->created_utc, sizeof info->created_utc);
    read_attr_str(f, "warpsweep_version", info->warpsweep_version, sizeof info->warpsweep_version);
    if (H5Aexists(f, "points_total") > 0) {
        hid_t a = H5Aopen(f, "points_total", H5P_DEFAULT);
        H5Aread(a, H5T_NATIVE_UINT64, &info->points_total);
        H5Aclose(a);
    }
    int rc = 0;
    if (H5Aexists(f, "format_version") > 0) {
        hid_t a = H5Aopen(f, "format_version", H5P_DEFAULT);
        if (H5Aread(a, H5T_NATIVE_INT64, &info->format_version) < 0)
            rc = ws_fail(err, "%s: format_version is not an integer: not a warpsweep results file", path);
        else if (info->format_version != WS_FORMAT_VERSION)
            rc = ws_fail(err, "%s: format version %lld (written by warpsweep %s); this warpsweep reads format version %d",
                         path, (long long)info->format_version,
                         info->warpsweep_version[0] ? info->warpsweep_version : "?", WS_FORMAT_VERSION);
        H5Aclose(a);
    }
    if (H5Lexists(f, "points", H5P_DEFAULT) <= 0) {
        rc = ws_fail(err, "%s: no /points dataset: not a warpsweep results file", path);
    } else {
        hid_t ds = H5Dopen2(f, "points", H5P_DEFAULT);
        hid_t sp = H5Dget_space(ds);
        hsize_t d[1] = {0};
        H5Sget_simple_extent_dims(sp, d, NULL);
        info->rows = d[0];
        H5Sclose(sp);
        H5Dclose(ds);
    }
    if (!info->sweep_hash[0] && !rc)
        rc = ws_fail(err, "%s: no sweep_hash attribute: not a warpsweep results file", path);
    H5Fclose(f);
    return rc;
}

char *ws_store_sweep_text(const char *path, ws_error *err)
{
    hid_t f = open_file(path, err);
    if (f < 0)
        return NULL;
    char *out = NULL;
    if (H5Aexists(f, "sweep_yaml") > 0) {
        hid_t a = H5Aopen(f, "sweep_yaml", H5P_DEFAULT);
        hid_t t = H5Aget_type(a);
        size_t n = H5Tget_size(t);
        out = calloc(1, n + 1);
        hid_t mt = str_type(n);
        H5Aread(a, mt, out);
        H5Tclose(mt);
        H5Tclose(t);
        H5Aclose(a);
    } else {
        ws_fail(err, "%s: no sweep_yaml attribute", path);
    }
    H5Fclose(f);
    return out;
}

/* memory layout for reading: string sizes taken from the file's columns */
static size_t member_str_size(hid_t ftype, const char *name, size_t dflt)
{
    int i = H5Tget_member_index(ftype, name);
    if (i < 0)
        return dflt;
    hid_t mt = H5Tget_member_type(ftype, (unsigned)i);
    size_t n = H5Tget_class(mt) == H5T_STRING ? H5Tget_size(mt) : dflt;
    H5Tclose(mt);
    return n;
}

/* 1 when the file stores labelled metric m as an integer code (files
 * written before the metric had labels) */
static int label_stored_as_int(hid_t ftype, int m)
{
    int i = H5Tget_member_index(ftype, ws_metrics[m].name);
    if (i < 0)
        return 0;
    hid_t mt = H5Tget_member_type(ftype, (unsigned)i);
    int as_int = H5Tget_class(mt) == H5T_INTEGER;
    H5Tclose(mt);
    return as_int;
}

/* a memory type with only the members present in the file */
static hid_t subset_type(layout *L, hid_t ftype)
{
    for (int m = 0; m < WS_NMETRICS; m++)
        L->label_as_int[m] = L->label_len[m] && label_stored_as_int(ftype, m);
    hid_t t = H5Tcreate(H5T_COMPOUND, L->size);
    int n = H5Tget_nmembers(L->type);
    for (int i = 0; i < n; i++) {
        char *name = H5Tget_member_name(L->type, (unsigned)i);
        if (H5Tget_member_index(ftype, name) >= 0) {
            hid_t mt = H5Tget_member_type(L->type, (unsigned)i);
            for (int m = 0; m < WS_NMETRICS; m++)
                if (L->label_as_int[m] && strcmp(name, ws_metrics[m].name) == 0) {
                    H5Tclose(mt);
                    mt = H5Tcopy(H5T_NATIVE_INT64);
                }
            H5Tinsert(t, name, H5Tget_member_offset(L->type, (unsigned)i), mt);
            H5Tclose(mt);
        }
        H5free_memory(name);
    }
    return t;
}

int ws_store_read(const char *path, int (*fn)(void *ctx, const ws_row *row, const char *workload), void *ctx,
                  ws_error *err)
{
    hid_t f = open_file(path, err);
    if (f < 0)
        return -1;
    if (H5Lexists(f, "points", H5P_DEFAULT) <= 0) {
        H5Fclose(f);
        return ws_fail(err, "%s: no /points dataset: not a warpsweep results file", path);
    }
    hid_t ds = H5Dopen2(f, "points", H5P_DEFAULT);
    hid_t ftype = H5Dget_type(ds);
    layout L;
    layout_build(&L, member_str_size(ftype, "workload", 1), member_str_size(ftype, "message", 1));
    hid_t mtype = subset_type(&L, ftype);
    hid_t sp = H5Dget_space(ds);
    hsize_t d[1] = {0};
    H5Sget_simple_extent_dims(sp, d, NULL);
    H5Sclose(sp);
    unsigned char *buf = calloc(CHUNK_ROWS, L.size);
    char *wname = malloc(L.workload_len + 1);
    int rc = 0;
    for (hsize_t start = 0; start < d[0] && !rc; start += CHUNK_ROWS) {
        hsize_t n = d[0] - start < CHUNK_ROWS ? d[0] - start : CHUNK_ROWS;
        hid_t fsp = H5Dget_space(ds);
        hsize_t st[1] = {start}, cnt[1] = {n};
        H5Sselect_hyperslab(fsp, H5S_SELECT_SET, st, NULL, cnt, NULL);
        hid_t msp = H5Screate_simple(1, cnt, NULL);
        memset(buf, 0, CHUNK_ROWS * L.size);
        herr_t r = H5Dread(ds, mtype, msp, fsp, H5P_DEFAULT, buf);
        H5Sclose(msp);
        H5Sclose(fsp);
        if (r < 0) {
            rc = ws_fail(err, "%s: cannot read /points", path);
            break;
        }
        for (hsize_t i = 0; i < n && !rc; i++) {
            ws_row row;
            buf_to_row(&L, buf + i * L.size, &row, wname, L.workload_len + 1);
            if (fn(ctx, &row, wname))
                rc = 1;
        }
    }
    free(buf);
    free(wname);
    H5Tclose(mtype);
    H5Tclose(L.type);
    H5Tclose(ftype);
    H5Dclose(ds);
    H5Fclose(f);
    return rc < 0 ? -1 : 0;
}

int ws_store_columns(const char *path, void (*fn)(void *ctx, const char *name, const char *type), void *ctx,
                     ws_error *err)
{
    hid_t f = open_file(path, err);
    if (f < 0)
        return -1;
    if (H5Lexists(f, "points", H5P_DEFAULT) <= 0) {
        H5Fclose(f);
        return ws_fail(err, "%s: no /points dataset", path);
    }
    hid_t ds = H5Dopen2(f, "points", H5P_DEFAULT);
    hid_t t = H5Dget_type(ds);
    int n = H5Tget_nmembers(t);
    for (int i = 0; i < n; i++) {
        char *name = H5Tget_member_name(t, (unsigned)i);
        hid_t mt = H5Tget_member_type(t, (unsigned)i);
        char ty[32];
        switch (H5Tget_class(mt)) {
        case H5T_INTEGER:
            snprintf(ty, sizeof ty, "%s%zu", H5Tget_sign(mt) == H5T_SGN_NONE ? "uint" : "int", 8 * H5Tget_size(mt));
            break;
        case H5T_FLOAT:
            snprintf(ty, sizeof ty, "float%zu", 8 * H5Tget_size(mt));
            break;
        case H5T_STRING:
            snprintf(ty, sizeof ty, "string[%zu]", H5Tget_size(mt));
            break;
        default:
            snprintf(ty, sizeof ty, "other");
        }
        fn(ctx, name, ty);
        H5Tclose(mt);
        H5free_memory(name);
    }
    H5Tclose(t);
    H5Dclose(ds);
    H5Fclose(f);
    return 0;
}
