/* The HDF5 results file (format: results/README.md). Columns come from the
 * parameter and metric registries at run time. Only one thread calls into
 * HDF5 at a time (the Debian build is not thread-safe). */
#define _GNU_SOURCE /* F_OFD_SETLK (Linux 3.15) */
#include <errno.h>
#include <fcntl.h>
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "warpsweep/store.h"
#include "warpsweep/strutil.h"
#include "h5_read.h"

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

void ws_h5_begin(void)
{
    H5dont_atexit(); /* fails harmlessly once the library is initialised; then it was already called */
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

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

/* Creates tmp (not truncating it) and takes an exclusive lock on it, held
 * until the descriptor is closed: a run holds its journal's lock already, but
 * a merge into the same output must not truncate the file a run is writing
 * (or the other way round). An OFD lock (fcntl F_OFD_SETLK): it belongs to
 * this descriptor, so HDF5 opening and closing its own descriptor of the
 * file does not drop it; HDF5's own flock is turned off for the file
 * (H5Pset_file_locking) as it would conflict where flock is emulated with
 * fcntl locks (NFS). */
static int lock_tmp(const char *tmp, ws_error *err)
{
    int fd = open(tmp, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        ws_fail(err, "%s: cannot create: %s", tmp, strerror(errno));
        return -1;
    }
    struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};
    if (fcntl(fd, F_OFD_SETLK, &fl)) {
        if (errno == EAGAIN || errno == EACCES)
            ws_fail(err, "%s: being written by another warpsweep (a run or merge of the same output): wait for it "
                    "to end or stop it first", tmp);
        else
            ws_fail(err, "%s: cannot lock: %s", tmp, strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}

#define JREC_SIZE (8 + sizeof(ws_row))
#define JHDR_SIZE 128

int ws_store_build(const char *out_path, const char *journal_path, const ws_sweep *sw, ws_error *err)
{
    scan_ctx sc = {0};
    ws_journal_info ji;
    if (ws_journal_scan(journal_path, sw, &ji, collect, &sc, err))
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
    ws_h5_begin();
    layout L;
    if (layout_build(&L, wl, sc.max_msg)) {
        free(sc.idx);
        return ws_fail(err, "%s: cannot build the column layout (a parameter or metric name clashes?)", out_path);
    }
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", out_path);
    int rc = -1;
    int jfd = -1, tfd_lock = lock_tmp(tmp, err);
    unsigned char *buf = NULL, *rec = NULL;
    hid_t f = -1, space = -1, dcpl = -1, ds = -1, mspace = -1, fapl = -1;
    if (tfd_lock < 0) {
        H5Tclose(L.type);
        free(sc.idx);
        return -1;
    }
    fapl = H5Pcreate(H5P_FILE_ACCESS);
    H5Pset_file_locking(fapl, 0, 1);
    /* the 1.8 file format: object headers carry a checksum that HDF5 verifies
     * before it parses their messages, so a damaged header is refused instead of
     * being decoded out of bounds (HDF5 File Format Specification, version 2
     * object headers) */
    H5Pset_libver_bounds(fapl, H5F_LIBVER_V18, H5F_LIBVER_LATEST);
    f = H5Fcreate(tmp, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
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
    int64_t fv = WS_FORMAT_VERSION, mv = WS_MODEL_VERSION;
    uint64_t total = sw->count, written = nrows;
    if (attr_str(f, "warpsweep_version", WS_VERSION) || attr_u64(f, "format_version", H5T_NATIVE_INT64, &fv) ||
        attr_u64(f, "model_version", H5T_NATIVE_INT64, &mv) ||
        attr_str(f, "sweep_name", sw->name) || attr_str(f, "sweep_file", sw->file) ||
        attr_str(f, "sweep_yaml", sw->text) || attr_str(f, "sweep_hash", sw->hash) ||
        attr_str(f, "sweep_own_hash", sw->own_hash) || attr_str(f, "inputs_hash", sw->inputs_hash) ||
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
    if (fapl >= 0)
        H5Pclose(fapl);
    if (rc)
        unlink(tmp); /* while still locked: a waiting writer then starts on a new file */
    close(tfd_lock);
    if (jfd >= 0)
        close(jfd);
    H5Tclose(L.type);
    free(buf);
    free(rec);
    free(sc.idx);
    return rc;
}

/* ---- reading ---- */

/* Opens attribute name of loc if present; checks that it holds one value
 * (scalar or a one-element simple dataspace) of class cls and at most maxsize
 * bytes. Returns 1 with *a and *size set, 0 if absent, -1 otherwise. */
static int attr_open_checked(hid_t loc, const char *path, const char *name, H5T_class_t cls, size_t maxsize,
                             hid_t *a, size_t *size, ws_error *err)
{
    htri_t ex = H5Aexists(loc, name);
    if (ex < 0)
        return ws_fail(err, "%s: cannot read attribute %s: the file is damaged", path, name);
    if (ex == 0)
        return 0;
    *a = H5Aopen(loc, name, H5P_DEFAULT);
    if (*a < 0)
        return ws_fail(err, "%s: cannot open attribute %s: the file is damaged", path, name);
    hid_t sp = H5Aget_space(*a), t = H5Aget_type(*a);
    int ok = sp >= 0 && t >= 0;
    if (ok) {
        H5S_class_t sc = H5Sget_simple_extent_type(sp);
        ok = sc == H5S_SCALAR || (sc == H5S_SIMPLE && H5Sget_simple_extent_npoints(sp) == 1);
    }
    size_t n = ok ? H5Tget_size(t) : 0;
    ok = ok && H5Tget_class(t) == cls && n >= 1 && n <= maxsize && (cls != H5T_STRING || H5Tis_variable_str(t) == 0);
    if (sp >= 0)
        H5Sclose(sp);
    if (t >= 0)
        H5Tclose(t);
    if (!ok) {
        H5Aclose(*a);
        return ws_fail(err, "%s: attribute %s is not a single %s of at most %zu bytes: damaged, or not a warpsweep "
                       "results file", path, name, cls == H5T_STRING ? "fixed-length string" : "integer", maxsize);
    }
    *size = n;
    return 1;
}

int ws_h5_attr_i64(hid_t loc, const char *path, const char *name, int64_t *v, ws_error *err)
{
    hid_t a;
    size_t n;
    int rc = attr_open_checked(loc, path, name, H5T_INTEGER, 8, &a, &n, err);
    if (rc <= 0)
        return rc;
    if (H5Aread(a, H5T_NATIVE_INT64, v) < 0)
        rc = ws_fail(err, "%s: cannot read attribute %s: the file is damaged", path, name);
    H5Aclose(a);
    return rc;
}

int ws_h5_attr_str(hid_t loc, const char *path, const char *name, char **out, ws_error *err)
{
    hid_t a;
    size_t n;
    *out = NULL;
    int rc = attr_open_checked(loc, path, name, H5T_STRING, WS_H5_MAX_STR_ATTR, &a, &n, err);
    if (rc <= 0)
        return rc;
    char *buf = calloc(1, n + 1);
    hid_t mt = str_type(n);
    if (!buf || H5Aread(a, mt, buf) < 0) {
        free(buf);
        buf = NULL;
        rc = ws_fail(err, "%s: cannot read attribute %s: the file is damaged", path, name);
    }
    H5Tclose(mt);
    H5Aclose(a);
    *out = buf;
    return rc;
}

int ws_h5_attr_strbuf(hid_t loc, const char *path, const char *name, char *out, size_t cap, ws_error *err)
{
    char *s;
    out[0] = 0;
    int rc = ws_h5_attr_str(loc, path, name, &s, err);
    if (rc > 0)
        snprintf(out, cap, "%s", s);
    free(s);
    return rc;
}

static hid_t open_file(const char *path, ws_error *err)
{
    return ws_h5_open_read(path, err);
}

/* The file's /points datatype, checked before HDF5 converts a single record
 * with it: a compound of at most 1 MiB whose members lie inside the record,
 * and whose warpsweep columns have the class (and a size) warpsweep writes. A
 * damaged member offset would otherwise send the conversion outside its
 * buffers. Unknown members are allowed (and ignored when reading). */
/* 1 for a metric written as a label (a string column) that older files
 * store as its integer code, which the reader still takes */
static int is_labelled_metric(const layout *L, const char *name)
{
    for (int m = 0; m < WS_NMETRICS; m++)
        if (L->label_len[m] && strcmp(ws_metrics[m].name, name) == 0)
            return 1;
    return 0;
}

static int check_points_type(hid_t ftype, const char *path, ws_error *err)
{
    if (H5Tget_class(ftype) != H5T_COMPOUND)
        return ws_fail(err, "%s: /points is not a table of records: not a warpsweep results file", path);
    size_t rec = H5Tget_size(ftype);
    int n = H5Tget_nmembers(ftype);
    if (rec == 0 || rec > ((size_t)1 << 20) || n < 1 || n > 65536)
        return ws_fail(err, "%s: /points records of %zu bytes with %d columns: damaged", path, rec, n);
    layout ref;
    if (layout_build(&ref, 1, 1)) {
        H5Tclose(ref.type);
        return ws_fail(err, "%s: cannot build the column layout", path);
    }
    int rc = 0;
    for (int i = 0; i < n && !rc; i++) {
        char *name = H5Tget_member_name(ftype, (unsigned)i);
        hid_t mt = H5Tget_member_type(ftype, (unsigned)i);
        if (!name || mt < 0) {
            rc = ws_fail(err, "%s: /points column %d is unreadable: damaged", path, i);
        } else {
            size_t off = H5Tget_member_offset(ftype, (unsigned)i), size = H5Tget_size(mt);
            H5T_class_t cls = H5Tget_class(mt);
            int want = H5Tget_member_index(ref.type, name);
            H5T_class_t wcls = want >= 0 ? H5Tget_member_class(ref.type, (unsigned)want) : cls;
            int size_ok = cls == H5T_INTEGER  ? size >= 1 && size <= 8
                          : cls == H5T_FLOAT  ? size == 4 || size == 8
                          : cls == H5T_STRING ? size >= 1 && size <= 65536 && H5Tis_variable_str(mt) == 0
                                              : want < 0 && size >= 1;
            if (size == 0 || off > rec || size > rec - off)
                rc = ws_fail(err, "%s: /points column '%s' (offset %zu, %zu bytes) lies outside its %zu-byte record: "
                             "damaged", path, name, off, size, rec);
            else if ((cls != wcls && !(cls == H5T_INTEGER && is_labelled_metric(&ref, name))) || !size_ok)
                rc = ws_fail(err, "%s: /points column '%s' has a type warpsweep does not write (class %d, %zu bytes): "
                             "damaged, or not a warpsweep results file", path, name, (int)cls, size);
        }
        if (mt >= 0)
            H5Tclose(mt);
        H5free_memory(name);
    }
    H5Tclose(ref.type);
    return rc;
}

/* memory layout for reading: string sizes taken from the file's (checked) columns */
static size_t member_str_size(hid_t ftype, const char *name, size_t dflt)
{
    int i = H5Tget_member_index(ftype, name);
    if (i < 0)
        return dflt;
    hid_t mt = H5Tget_member_type(ftype, (unsigned)i);
    size_t n = mt >= 0 && H5Tget_class(mt) == H5T_STRING ? H5Tget_size(mt) : dflt;
    if (mt >= 0)
        H5Tclose(mt);
    return n;
}

/* the largest chunk the reader lets HDF5 allocate (warpsweep writes
 * CHUNK_ROWS records of at most 1 MiB; a damaged chunk dimension asked for
 * 14 GB) */
#define MAX_CHUNK_BYTES ((double)(64 << 20))

static int check_chunk(hid_t ds, size_t rec, const char *path, ws_error *err)
{
    hid_t dcpl = H5Dget_create_plist(ds);
    if (dcpl < 0)
        return ws_fail(err, "%s: cannot read the /points storage layout: the file is damaged", path);
    int rc = 0;
    if (H5Pget_layout(dcpl) == H5D_CHUNKED) {
        hsize_t c[2] = {0, 0};
        if (H5Pget_chunk(dcpl, 2, c) != 1 || c[0] == 0 || (double)c[0] * (double)rec > MAX_CHUNK_BYTES)
            rc = ws_fail(err, "%s: /points is stored in chunks of %llu records of %zu bytes: damaged", path,
                         (unsigned long long)c[0], rec);
    }
    H5Pclose(dcpl);
    return rc;
}

/* deflate compresses at most 1032:1 (RFC 1951: a 258-byte match in 2 bits) */
#define MAX_DEFLATE_RATIO 1100

/* Opens /points and checks its datatype and its extent: one dimension, no
 * more rows than points_total (when the file says) and no more than the bytes
 * it stores could hold, so a forged extent of 10^12 rows is not read as fill
 * values for ever nor taken as a complete run. */
static int points_open(hid_t f, const char *path, hid_t *ds, hid_t *ftype, hsize_t *rows, ws_error *err)
{
    *ds = *ftype = -1;
    htri_t ex = H5Lexists(f, "points", H5P_DEFAULT);
    if (ex < 0)
        return ws_fail(err, "%s: cannot look up /points: the file is damaged", path);
    if (ex == 0)
        return ws_fail(err, "%s: no /points dataset: not a warpsweep results file", path);
    *ds = H5Dopen2(f, "points", H5P_DEFAULT);
    if (*ds < 0)
        return ws_fail(err, "%s: cannot open /points: the file is damaged", path);
    *ftype = H5Dget_type(*ds);
    if (*ftype < 0)
        return ws_fail(err, "%s: cannot read the /points datatype: the file is damaged", path);
    if (check_points_type(*ftype, path, err))
        return -1;
    hid_t sp = H5Dget_space(*ds);
    hsize_t d[1] = {0};
    int nd = sp >= 0 ? H5Sget_simple_extent_ndims(sp) : -1;
    if (nd != 1 || H5Sget_simple_extent_dims(sp, d, NULL) != 1) {
        if (sp >= 0)
            H5Sclose(sp);
        return ws_fail(err, "%s: /points is not a one-dimensional table: damaged", path);
    }
    H5Sclose(sp);
    *rows = d[0];
    int64_t total;
    int have_total = ws_h5_attr_i64(f, path, "points_total", &total, err);
    if (have_total < 0)
        return -1;
    if (have_total && (total < 0 || *rows > (uint64_t)total))
        return ws_fail(err, "%s: /points has %llu rows but the sweep has %lld points: damaged", path,
                       (unsigned long long)*rows, (long long)total);
    if (check_chunk(*ds, H5Tget_size(*ftype), path, err))
        return -1;
    double stored = (double)H5Dget_storage_size(*ds);
    if ((double)*rows * (double)H5Tget_size(*ftype) > stored * MAX_DEFLATE_RATIO)
        return ws_fail(err, "%s: /points claims %llu rows but stores only %.0f bytes: damaged", path,
                       (unsigned long long)*rows, stored);
    return 0;
}

static void points_close(hid_t ds, hid_t ftype)
{
    if (ftype >= 0)
        H5Tclose(ftype);
    if (ds >= 0)
        H5Dclose(ds);
}

/* "" (absent in older files) or 16 lowercase hex digits */
static int is_hex_hash(const char *h)
{
    size_t n = strlen(h);
    if (n == 0)
        return 1;
    if (n != 16)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!((h[i] >= '0' && h[i] <= '9') || (h[i] >= 'a' && h[i] <= 'f')))
            return 0;
    return 1;
}

static int read_info(hid_t f, const char *path, ws_file_info *info, ws_error *err)
{
    if (ws_h5_attr_strbuf(f, path, "sweep_name", info->sweep_name, sizeof info->sweep_name, err) < 0 ||
        ws_h5_attr_strbuf(f, path, "sweep_hash", info->sweep_hash, sizeof info->sweep_hash, err) < 0 ||
        ws_h5_attr_strbuf(f, path, "sweep_own_hash", info->own_hash, sizeof info->own_hash, err) < 0 ||
        ws_h5_attr_strbuf(f, path, "inputs_hash", info->inputs_hash, sizeof info->inputs_hash, err) < 0 ||
        ws_h5_attr_strbuf(f, path, "created_utc", info->created_utc, sizeof info->created_utc, err) < 0 ||
        ws_h5_attr_strbuf(f, path, "warpsweep_version", info->warpsweep_version, sizeof info->warpsweep_version,
                          err) < 0)
        return -1;
    const char *hashes[] = {info->sweep_hash, info->own_hash, info->inputs_hash};
    const char *hash_names[] = {"sweep_hash", "sweep_own_hash", "inputs_hash"};
    for (int i = 0; i < 3; i++)
        if (!is_hex_hash(hashes[i])) { /* printed by --resume and merge: a damaged one is quoted, not printed raw */
            char shown[64];
            return ws_fail(err, "%s: attribute %s %s is not 16 hex digits: damaged", path, hash_names[i],
                           ws_quote(shown, sizeof shown, hashes[i], strlen(hashes[i])));
        }
    int64_t total = 0;
    int rc = ws_h5_attr_i64(f, path, "points_total", &total, err);
    if (rc < 0)
        return -1;
    info->points_total = total > 0 ? (uint64_t)total : 0;
    rc = ws_h5_attr_i64(f, path, "format_version", &info->format_version, err);
    if (rc < 0)
        return -1;
    if (rc > 0 && info->format_version != WS_FORMAT_VERSION)
        return ws_fail(err, "%s: format version %lld (written by warpsweep %s); this warpsweep reads format version %d",
                       path, (long long)info->format_version,
                       info->warpsweep_version[0] ? info->warpsweep_version : "?", WS_FORMAT_VERSION);
    if (ws_h5_attr_i64(f, path, "model_version", &info->model_version, err) < 0) /* absent: 0, before versions */
        return -1;
    hid_t ds, ftype;
    hsize_t rows = 0;
    rc = points_open(f, path, &ds, &ftype, &rows, err);
    points_close(ds, ftype);
    if (rc)
        return -1;
    info->rows = rows;
    if (!info->sweep_hash[0])
        return ws_fail(err, "%s: no sweep_hash attribute: not a warpsweep results file", path);
    return 0;
}

int ws_store_info(const char *path, ws_file_info *info, ws_error *err)
{
    memset(info, 0, sizeof *info);
    hid_t f = open_file(path, err);
    if (f < 0)
        return -1;
    int rc = read_info(f, path, info, err);
    H5Fclose(f);
    return rc;
}

char *ws_store_sweep_text(const char *path, ws_error *err)
{
    hid_t f = open_file(path, err);
    if (f < 0)
        return NULL;
    char *out = NULL;
    if (ws_h5_attr_str(f, path, "sweep_yaml", &out, err) == 0)
        ws_fail(err, "%s: no sweep_yaml attribute", path);
    H5Fclose(f);
    return out;
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

static int read_rows(hid_t ds, hid_t ftype, hsize_t rows, const char *path,
                     int (*fn)(void *ctx, const ws_row *row, const char *workload), void *ctx, ws_error *err)
{
    layout L;
    if (layout_build(&L, member_str_size(ftype, "workload", 1), member_str_size(ftype, "message", 1))) {
        H5Tclose(L.type);
        return ws_fail(err, "%s: cannot build the column layout", path);
    }
    hid_t mtype = subset_type(&L, ftype);
    unsigned char *buf = calloc(CHUNK_ROWS, L.size);
    char *wname = malloc(L.workload_len + 1);
    int rc = mtype < 0 || !buf || !wname ? ws_fail(err, "%s: out of memory reading /points", path) : 0;
    for (hsize_t start = 0; start < rows && !rc; start += CHUNK_ROWS) {
        hsize_t n = rows - start < CHUNK_ROWS ? rows - start : CHUNK_ROWS;
        hid_t fsp = H5Dget_space(ds);
        hsize_t st[1] = {start}, cnt[1] = {n};
        hid_t msp = H5Screate_simple(1, cnt, NULL);
        memset(buf, 0, CHUNK_ROWS * L.size);
        herr_t r = fsp < 0 || msp < 0 || H5Sselect_hyperslab(fsp, H5S_SELECT_SET, st, NULL, cnt, NULL) < 0
                       ? -1
                       : H5Dread(ds, mtype, msp, fsp, H5P_DEFAULT, buf);
        if (msp >= 0)
            H5Sclose(msp);
        if (fsp >= 0)
            H5Sclose(fsp);
        if (r < 0) {
            rc = ws_fail(err, "%s: cannot read /points (rows %llu..): the file is damaged", path,
                         (unsigned long long)start);
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
    if (mtype >= 0)
        H5Tclose(mtype);
    H5Tclose(L.type);
    return rc;
}

int ws_store_read(const char *path, int (*fn)(void *ctx, const ws_row *row, const char *workload), void *ctx,
                  ws_error *err)
{
    hid_t f = open_file(path, err);
    if (f < 0)
        return -1;
    hid_t ds, ftype;
    hsize_t rows = 0;
    int rc = points_open(f, path, &ds, &ftype, &rows, err);
    if (rc == 0)
        rc = read_rows(ds, ftype, rows, path, fn, ctx, err);
    points_close(ds, ftype);
    H5Fclose(f);
    return rc < 0 ? -1 : 0;
}

int ws_store_columns(const char *path, void (*fn)(void *ctx, const char *name, const char *type), void *ctx,
                     ws_error *err)
{
    hid_t f = open_file(path, err);
    if (f < 0)
        return -1;
    hid_t ds, t;
    hsize_t rows;
    if (points_open(f, path, &ds, &t, &rows, err)) {
        points_close(ds, t);
        H5Fclose(f);
        return -1;
    }
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
