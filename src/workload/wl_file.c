/*
 * Buffers from files (wl_file.h): raw little-endian binary, NumPy .npy, and
 * Matrix Market / edge-list matrices as CSR arrays.
 *
 * Formats:
 *   raw    the elements back to back, little-endian, nothing else; the
 *          element count is the file size over the element size.
 *   .npy   NumPy's format (numpy.lib.format, "A Simple File Format for NumPy
 *          Arrays", NEP 1): "\x93NUMPY", version 1.0 (2-byte header length)
 *          or 2.0/3.0 (4-byte), a Python-literal dict {'descr', 'fortran_order',
 *          'shape'}, then the data. C order, little-endian dtypes only.
 *   .mtx   Matrix Market coordinate format (NIST, Boisvert, Pozo, Remington,
 *          "The Matrix Market Exchange Formats: Initial Design", 1996): a
 *          "%%MatrixMarket matrix coordinate FIELD SYMMETRY" banner, % comments,
 *          "M N NNZ", then NNZ lines "i j [v]" with 1-based indices. FIELD:
 *          real, double, integer, pattern (every value 1); SYMMETRY: general,
 *          symmetric (the lower triangle is stored; each off-diagonal entry
 *          (i, j) also stands for (j, i)), skew-symmetric (strictly lower; (j, i)
 *          is -v). Complex / hermitian and the dense "array" format are errors.
 *   edges  one edge "u v [w]" per line, 0-based vertex ids (as SNAP's graph
 *          files), '#' or '%' comment lines; vertices = largest id + 1; the
 *          values are the weights, 1 when the file has none; `undirected`
 *          adds (v, u) for every edge with u != v.
 * Every error is one line naming the file and the byte offset (binary) or
 * file:line (text), and what was expected.
 */
#define _GNU_SOURCE   /* memfd_create, getline */
#include "wl_file.h"
#include "warpsweep/strutil.h"
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "warpsweep/digest.h"
#include "wl_types.h"

/* Rows and columns of a matrix, vertices of a graph: a workload's buffers hold
 * at most 4 GiB together, so a larger size line is a typo, not an input (and
 * would otherwise be allocated before the entries are read). */
#define MAX_DIM (1ull << 28)

/* ---- the sealed copy ---- */

/* Every source ends as an anonymous memory file (memfd_create(2)) holding
 * exactly its elements, sealed against writes, growth and shrinking (fcntl(2)
 * F_ADD_SEALS), and every run maps that MAP_PRIVATE.
 *
 * Why a copy and not the user's file itself: a MAP_PRIVATE page that the run
 * has not written is the file's page-cache page, so a file truncated while a
 * sweep runs (an editor's save, `cp` over it, a script regenerating it) turns
 * a run's read past the new end into SIGBUS, and a file rewritten in place
 * changes the input of the runs still going. A per-thread SIGBUS handler would
 * need a process-wide handler and a longjmp out of the simulator's state;
 * checking the size with fstat before and after each run still leaves the
 * window in between; MAP_POPULATE on a writable private mapping copies every
 * page per run. The sealed copy cannot shrink, even through /proc/PID/fd, so no
 * run can fault on it, and every point of a sweep sees the bytes checked at
 * load. It costs one read at load (0.15 s for 100 MB with the digest,
 * against 0.02 s to map the file) and one copy in memory, shared by all the
 * runs of the process. */
typedef struct staging {
    int fd;
    uint8_t *p;            /* writable shared view while it is filled */
    uint64_t bytes;
} staging;

static int staging_open(staging *s, const char *path, uint64_t bytes, ws_error *err)
{
    s->bytes = bytes;
    s->p = NULL;
    s->fd = memfd_create("warpsweep-input", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    void *p = MAP_FAILED;
    /* fallocate, not ftruncate: the pages exist before they are written, so
     * a lack of memory is this error, not a fault while filling */
    if (s->fd >= 0 && bytes && fallocate(s->fd, 0, 0, (off_t)bytes) == 0)
        p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd, 0);
    if (p == MAP_FAILED) {
        int e = bytes ? errno : EINVAL;
        if (s->fd >= 0)
            close(s->fd);
        s->fd = -1;
        return ws_fail(err, "%s: cannot hold %" PRIu64 " bytes in memory: %s", path, bytes, strerror(e));
    }
    s->p = p;
    return 0;
}

static void staging_drop(staging *s)
{
    if (s->p)
        munmap(s->p, s->bytes);
    if (s->fd >= 0)
        close(s->fd);
    s->p = NULL;
    s->fd = -1;
}

/* Takes s; sets the read-only view. */
static ws_file_data *new_data(const char *path, staging *s, uint64_t count, ws_error *err)
{
    ws_file_data *f = calloc(1, sizeof *f);
    if (!f || !(f->path = strdup(path))) {
        free(f);
        staging_drop(s);
        ws_fail(err, "%s: out of memory", path);
        return NULL;
    }
    f->digest = ws_xxh64(s->p, s->bytes, 0);
    munmap(s->p, s->bytes);   /* F_SEAL_WRITE needs no writable shared mapping left */
    s->p = NULL;
    f->fd = s->fd;
    f->bytes = s->bytes;
    f->count = count;
    if (fcntl(f->fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) < 0) {
        ws_fail(err, "%s: cannot seal its in-memory copy: %s", path, strerror(errno));
        wl_file_free(f);
        return NULL;
    }
    f->map_len = (size_t)f->bytes;
    f->map_base = mmap(NULL, f->map_len, PROT_READ, MAP_PRIVATE, f->fd, 0);
    if (f->map_base == MAP_FAILED) {
        f->map_base = NULL;
        ws_fail(err, "%s: cannot map %" PRIu64 " bytes: %s", path, f->bytes, strerror(errno));
        wl_file_free(f);
        return NULL;
    }
    f->view = f->map_base;
    return f;
}

int wl_file_map_private(const ws_file_data *f, void **base, size_t *len, uint8_t **data, ws_error *err)
{
    *len = (size_t)f->bytes;
    *base = mmap(NULL, *len, PROT_READ | PROT_WRITE, MAP_PRIVATE, f->fd, 0);
    if (*base == MAP_FAILED) {
        *base = NULL;
        return ws_fail(err, "%s: cannot map %" PRIu64 " bytes: %s", f->path, f->bytes, strerror(errno));
    }
    *data = *base;
    return 0;
}

void wl_file_free(ws_file_data *f)
{
    if (!f)
        return;
    if (f->map_base)
        munmap(f->map_base, f->map_len);
    if (f->fd >= 0)
        close(f->fd);
    free(f->path);
    free(f);
}

static int same_file_state(const struct stat *a, const struct stat *b)
{
    return a->st_size == b->st_size && a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
           a->st_mtim.tv_nsec == b->st_mtim.tv_nsec && a->st_ino == b->st_ino;
}

/* Copies the elements, bytes [offset, offset + size) of the checked file fd
 * (closed here), into a sealed copy. The file may change meanwhile: a read
 * that ends early, or another size or mtime afterwards, is a load error. */
static ws_file_data *copy_file(const char *path, int fd, const struct stat *checked, uint64_t offset, uint64_t bytes,
                               uint64_t count, ws_error *err)
{
    staging s;
    if (staging_open(&s, path, bytes, err) < 0) {
        close(fd);
        return NULL;
    }
    uint64_t done = 0;
    while (done < bytes) {
        uint64_t chunk = bytes - done < (1u << 30) ? bytes - done : (1u << 30);
        ssize_t r = pread(fd, s.p + done, (size_t)chunk, (off_t)(offset + done));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        done += (uint64_t)r;
    }
    int e = errno;
    struct stat now = {0};
    int changed = fstat(fd, &now) < 0 || !same_file_state(checked, &now);
    close(fd);
    if (done < bytes || changed) {
        staging_drop(&s);
        if (done < bytes && !changed)
            ws_fail(err, "%s: offset %" PRIu64 ": cannot read: %s", path, offset + done, strerror(e));
        else
            ws_fail(err, "%s: changed while it was read (%lld bytes when checked, %lld now): load it again once "
                    "it is written", path, (long long)checked->st_size, (long long)now.st_size);
        return NULL;
    }
    ws_file_data *f = new_data(path, &s, count, err);
    if (f)
        f->offset = offset;
    return f;
}

/* Replaces control and non-ASCII bytes by '?': a quoted piece of a broken
 * file must not break the one-line message. */
static char *printable(char *s)
{
    for (char *t = s; *t; t++)
        if ((unsigned char)*t < 0x20 || (unsigned char)*t >= 0x7f)
            *t = '?';
    return s;
}

/* ---- raw and .npy ---- */

static int open_regular(const char *path, struct stat *st, ws_error *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return ws_fail(err, "%s: cannot open: %s", path, strerror(errno));
    if (fstat(fd, st) < 0 || !S_ISREG(st->st_mode)) {
        close(fd);
        return ws_fail(err, "%s: not a regular file", path);
    }
    return fd;
}

static ws_file_data *open_raw(const char *path, int type, int fd, const struct stat *st, ws_error *err)
{
    uint64_t size = (uint64_t)st->st_size;
    uint64_t eb = (uint64_t)wl_type_bytes(type);
    if (size == 0) {
        close(fd);
        ws_fail(err, "%s: empty file: expected at least one %s element", path, wl_type_name(type));
        return NULL;
    }
    if (size % eb) {
        close(fd);
        ws_fail(err, "%s: offset %" PRIu64 ": truncated %s element (%" PRIu64 " of %" PRIu64 " bytes): a raw file "
                "holds whole little-endian elements of the buffer's type", path, size - size % eb,
                wl_type_name(type), size % eb, eb);
        return NULL;
    }
    return copy_file(path, fd, st, 0, size, size / eb, err);
}

/* ---- the .npy header ----
 * The header is the repr of a Python dict (numpy.lib.format writes
 * "{'descr': '<f4', 'fortran_order': False, 'shape': (100,), }" padded with
 * spaces and a newline). It is parsed as that literal and nothing else:
 * exactly the three keys, each once, quoted strings without escapes, False
 * or True, a tuple of non-negative decimal integers, then only spaces and
 * newlines. Everything else is refused with one line quoting what was found
 * (ws_quote: escaped, a long piece elided). */

typedef struct npy_cursor {
    const char *p, *end;
    const char *path; /* printable (ws_printable_name) */
    uint64_t hoff;
    ws_error *err;
} npy_cursor;

static void npy_skip_space(npy_cursor *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
        c->p++;
}

/* fails quoting (at most 24 bytes of) what stands at the cursor */
static int npy_fail_here(npy_cursor *c, const char *expected)
{
    char shown[48];
    size_t n = (size_t)(c->end - c->p);
    if (n == 0)
        return ws_fail(c->err, "%s: offset %" PRIu64 ": header: expected %s, found the end of the header", c->path,
                       c->hoff, expected);
    ws_quote(shown, sizeof shown, c->p, n < 24 ? n : 24);
    return ws_fail(c->err, "%s: offset %" PRIu64 ": header: expected %s, found %s%s", c->path, c->hoff, expected,
                   shown, n > 24 ? " ..." : "");
}

/* a quoted string (either quote, no escapes, on one line): its bytes */
static int npy_string(npy_cursor *c, const char **s, size_t *len, const char *what)
{
    if (c->p == c->end || (*c->p != '\'' && *c->p != '"'))
        return npy_fail_here(c, what);
    char q = *c->p;
    const char *b = c->p + 1, *e = b;
    while (e < c->end && *e != q && *e != '\\' && *e != '\n')
        e++;
    if (e == c->end || *e != q)
        return npy_fail_here(c, "a quoted string without escapes");
    *s = b;
    *len = (size_t)(e - b);
    c->p = e + 1;
    return 0;
}

/* an identifier such as False (letters, digits, '_') */
static size_t npy_word(const npy_cursor *c)
{
    size_t n = 0;
    while (c->p + n < c->end && (isalnum((unsigned char)c->p[n]) || c->p[n] == '_'))
        n++;
    return n;
}

static int npy_is(const char *s, size_t n, const char *word) { return n == strlen(word) && memcmp(s, word, n) == 0; }

/* descr: '<' (or '|' for one byte) + kind + the buffer's width in bytes,
 * written as NumPy writes it (no leading zero, nothing after); b-types
 * accept either signedness of their width */
static int npy_descr(npy_cursor *c, const char *d, size_t n, int type)
{
    char shown[48];
    ws_quote(shown, sizeof shown, d, n);
    if (n >= 1 && d[0] == '>')
        return ws_fail(c->err, "%s: offset %" PRIu64 ": dtype %s is big-endian: expected little-endian ('<') %s",
                       c->path, c->hoff, shown, wl_type_name(type));
    int width = wl_type_bytes(type);
    size_t digits = 0;
    while (2 + digits < n && isdigit((unsigned char)d[2 + digits]))
        digits++;
    int ok = n >= 3 && 2 + digits == n && d[2] != '0' && digits <= 2 && atoi(d + 2) == width &&
             (d[0] == '<' || (d[0] == '|' && width == 1));
    if (ok) {
        char kind = d[1];
        if (wl_type_float(type))
            ok = kind == 'f';
        else if (type >= WS_TY_B8 && type <= WS_TY_B64)
            ok = kind == 'i' || kind == 'u';
        else
            ok = kind == (wl_type_signed(type) ? 'i' : 'u');
    }
    if (!ok)
        return ws_fail(c->err, "%s: offset %" PRIu64 ": dtype %s does not match the buffer's type %s", c->path,
                       c->hoff, shown, wl_type_name(type));
    return 0;
}

/* shape: (), (N,), (N, M) or (N, M,); *count = the product */
static int npy_shape(npy_cursor *c, uint64_t *count)
{
    if (c->p == c->end || *c->p != '(')
        return npy_fail_here(c, "'shape' as a tuple such as (100,)");
    c->p++;
    uint64_t n = 1;
    int items = 0, comma = 0;
    for (;;) {
        npy_skip_space(c);
        if (c->p < c->end && *c->p == ')') {
            if (items == 1 && !comma)
                return ws_fail(c->err, "%s: offset %" PRIu64 ": header: 'shape' (%" PRIu64 ") is an integer, not a "
                               "tuple: expected (%" PRIu64 ",)", c->path, c->hoff, n, n);
            c->p++;
            break;
        }
        if (items && !comma)
            return npy_fail_here(c, "',' or ')' in 'shape'");
        if (c->p < c->end && *c->p == '-')
            return npy_fail_here(c, "a non-negative dimension in 'shape'");
        size_t k = 0;
        while (c->p + k < c->end && isdigit((unsigned char)c->p[k]))
            k++;
        if (k == 0 || (k > 1 && c->p[0] == '0') || (c->p + k < c->end && (isalnum((unsigned char)c->p[k]) ||
                                                                         c->p[k] == '_' || c->p[k] == '.')))
            return npy_fail_here(c, "a decimal integer dimension in 'shape'");
        uint64_t dim = 0;
        for (size_t i = 0; i < k; i++) {
            unsigned dig = (unsigned)(c->p[i] - '0');
            if (dim > (UINT64_MAX - dig) / 10)
                return npy_fail_here(c, "a dimension below 2^64 in 'shape'");
            dim = dim * 10 + dig;
        }
        if (dim && n > UINT64_MAX / dim)
            return ws_fail(c->err, "%s: offset %" PRIu64 ": header: 'shape' holds more than 2^64 elements", c->path,
                           c->hoff);
        n *= dim;
        c->p += k;
        items++;
        npy_skip_space(c);
        comma = c->p < c->end && *c->p == ',';
        if (comma)
            c->p++;
    }
    *count = n;
    return 0;
}

enum { NPY_DESCR, NPY_FORTRAN, NPY_SHAPE, NPY_NKEYS };
static const char *const npy_keys[NPY_NKEYS] = {"descr", "fortran_order", "shape"};

static int npy_value(npy_cursor *c, int key, int type, uint64_t *count)
{
    if (key == NPY_DESCR) {
        const char *d;
        size_t n;
        if (npy_string(c, &d, &n, "'descr' as a dtype string such as '<f4' (structured dtypes are not buffers)"))
            return -1;
        return npy_descr(c, d, n, type);
    }
    if (key == NPY_FORTRAN) {
        size_t n = npy_word(c);
        if (npy_is(c->p, n, "True"))
            return ws_fail(c->err, "%s: offset %" PRIu64 ": fortran_order is True: expected C order (False)", c->path,
                           c->hoff);
        if (!npy_is(c->p, n, "False"))
            return npy_fail_here(c, "fortran_order False");
        c->p += n;
        return 0;
    }
    return npy_shape(c, count);
}

/* Parses the header h[0..len); *count = the product of the shape. */
static int parse_npy_header(const char *path, const char *h, size_t len, uint64_t hoff, int type, uint64_t *count,
                            ws_error *err)
{
    while (len && (h[len - 1] == ' ' || h[len - 1] == '\n' || h[len - 1] == '\r' || h[len - 1] == '\t'))
        len--; /* the padding: a message quotes what precedes it */
    npy_cursor c = {h, h + len, path, hoff, err};
    int seen[NPY_NKEYS] = {0};
    npy_skip_space(&c);
    if (c.p == c.end || *c.p != '{')
        return npy_fail_here(&c, "a dict '{'");
    c.p++;
    for (;;) {
        npy_skip_space(&c);
        if (c.p < c.end && *c.p == '}') {
            c.p++;
            break;
        }
        const char *k;
        size_t kn;
        if (npy_string(&c, &k, &kn, "a quoted key or '}'"))
            return -1;
        int key = -1;
        for (int i = 0; i < NPY_NKEYS; i++)
            if (npy_is(k, kn, npy_keys[i]))
                key = i;
        char shown[48];
        if (key < 0)
            return ws_fail(err, "%s: offset %" PRIu64 ": header: unknown key %s: expected 'descr', 'fortran_order' and "
                           "'shape'", path, hoff, ws_quote(shown, sizeof shown, k, kn));
        if (seen[key]++)
            return ws_fail(err, "%s: offset %" PRIu64 ": header: duplicate key '%s'", path, hoff, npy_keys[key]);
        npy_skip_space(&c);
        if (c.p == c.end || *c.p != ':')
            return npy_fail_here(&c, "':' after a key");
        c.p++;
        npy_skip_space(&c);
        if (npy_value(&c, key, type, count))
            return -1;
        npy_skip_space(&c);
        if (c.p < c.end && *c.p == ',')
            c.p++;
        else if (c.p == c.end || *c.p != '}')
            return npy_fail_here(&c, "',' or '}' after a value");
    }
    npy_skip_space(&c);
    if (c.p != c.end)
        return npy_fail_here(&c, "only spaces and a newline after the dict");
    for (int i = 0; i < NPY_NKEYS; i++)
        if (!seen[i])
            return ws_fail(err, "%s: offset %" PRIu64 ": header has no '%s': expected a dict with 'descr', "
                           "'fortran_order' and 'shape'", path, hoff, npy_keys[i]);
    return 0;
}

static ws_file_data *open_npy(const char *path, int type, int fd, const struct stat *st, ws_error *err)
{
    char pbuf[256];
    const char *shown = ws_printable_name(pbuf, sizeof pbuf, path); /* in messages */
    uint64_t size = (uint64_t)st->st_size;
    uint8_t pre[12];
    ssize_t got = pread(fd, pre, sizeof pre, 0);
    if (got < 10 || memcmp(pre, "\x93NUMPY", 6) != 0) {
        close(fd);
        ws_fail(err, "%s: offset 0: expected the .npy magic \"\\x93NUMPY\"%s", shown,
                got < 10 ? " (file shorter than a header)" : "");
        return NULL;
    }
    int major = pre[6];
    if (major < 1 || major > 3 || (major > 1 && got < 12)) {
        close(fd);
        ws_fail(err, "%s: offset 6: .npy version %d.%d: expected 1.0, 2.0 or 3.0", shown, major, pre[7]);
        return NULL;
    }
    uint64_t hoff = major == 1 ? 10 : 12;
    uint64_t hlen = major == 1 ? (uint64_t)pre[8] | (uint64_t)pre[9] << 8
                               : (uint64_t)pre[8] | (uint64_t)pre[9] << 8 | (uint64_t)pre[10] << 16 |
                                 (uint64_t)pre[11] << 24;
    if (hoff + hlen > size || hlen > (1u << 20)) {
        close(fd);
        ws_fail(err, "%s: offset %" PRIu64 ": truncated header: it declares %" PRIu64 " bytes, the file has %" PRIu64
                " after the length field", shown, hoff, hlen, size > hoff ? size - hoff : 0);
        return NULL;
    }
    char *h = malloc(hlen + 1);
    if (!h || pread(fd, h, hlen, (off_t)hoff) != (ssize_t)hlen) {
        free(h);
        close(fd);
        ws_fail(err, "%s: cannot read the header", shown);
        return NULL;
    }
    h[hlen] = 0;
    uint64_t count = 0;
    int rc = parse_npy_header(shown, h, (size_t)hlen, hoff, type, &count, err);
    free(h);
    if (rc < 0) {
        close(fd);
        return NULL;
    }
    uint64_t doff = hoff + hlen, eb = (uint64_t)wl_type_bytes(type);
    if (count == 0 || count > UINT64_MAX / eb) {
        close(fd);
        ws_fail(err, "%s: offset %" PRIu64 ": shape holds %" PRIu64 " elements: expected at least one", shown, hoff,
                count);
        return NULL;
    }
    if (size - doff != count * eb) {
        close(fd);
        ws_fail(err, "%s: offset %" PRIu64 ": %s data: the header declares %" PRIu64 " elements (%" PRIu64
                " bytes from offset %" PRIu64 "), the file has %" PRIu64 " bytes there", shown,
                size - doff < count * eb ? size : doff + count * eb,
                size - doff < count * eb ? "truncated" : "trailing bytes after the", count, count * eb, doff,
                size - doff);
        return NULL;
    }
    return copy_file(path, fd, st, doff, count * eb, count, err);
}

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

ws_file_data *wl_file_open(const char *path, int type, ws_error *err)
{
    struct stat st;
    int fd = open_regular(path, &st, err);
    if (fd < 0)
        return NULL;
    return ends_with(path, ".npy") ? open_npy(path, type, fd, &st, err) : open_raw(path, type, fd, &st, err);
}

/* ---- text matrices ---- */

typedef struct triplets {
    uint64_t *row, *col;
    double *val;
    uint64_t n, cap;
} triplets;

static int push(triplets *t, uint64_t r, uint64_t c, double v)
{
    if (t->n == t->cap) {
        uint64_t cap = t->cap ? t->cap * 2 : 1024;
        uint64_t *nr = realloc(t->row, cap * sizeof *nr);
        if (nr)
            t->row = nr;
        uint64_t *nc = realloc(t->col, cap * sizeof *nc);
        if (nc)
            t->col = nc;
        double *nv = realloc(t->val, cap * sizeof *nv);
        if (nv)
            t->val = nv;
        if (!nr || !nc || !nv)
            return -1;
        t->cap = cap;
    }
    t->row[t->n] = r;
    t->col[t->n] = c;
    t->val[t->n] = v;
    t->n++;
    return 0;
}

static void triplets_free(triplets *t)
{
    free(t->row);
    free(t->col);
    free(t->val);
}

/* A line reader that counts lines. */
typedef struct lines {
    FILE *f;
    const char *path;
    char *buf;
    size_t cap;
    int line;
} lines;

static char *next_line(lines *l)
{
    ssize_t n = getline(&l->buf, &l->cap, l->f);
    if (n < 0)
        return NULL;
    l->line++;
    while (n > 0 && (l->buf[n - 1] == '\n' || l->buf[n - 1] == '\r'))
        l->buf[--n] = 0;
    return l->buf;
}

static int blank(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return *s == 0;
}

/* Reads a non-negative decimal integer token; *s advances. */
static int read_uint(const char **s, uint64_t *out)
{
    const char *t = *s;
    while (*t == ' ' || *t == '\t')
        t++;
    if (!isdigit((unsigned char)*t))
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(t, &end, 10);
    if (errno || (*end && *end != ' ' && *end != '\t'))
        return -1;
    *out = v;
    *s = end;
    return 0;
}

static int read_double(const char **s, double *out)
{
    const char *t = *s;
    while (*t == ' ' || *t == '\t')
        t++;
    char *end;
    double v = strtod(t, &end);
    if (end == t || (*end && *end != ' ' && *end != '\t') || !isfinite(v))
        return -1;
    *out = v;
    *s = end;
    return 0;
}

static int lower_eq(const char *a, const char *b)
{
    return strcasecmp(a, b) == 0;
}

typedef struct mm_banner {
    int pattern, integer, symmetry;   /* symmetry: 0 general, 1 symmetric, 2 skew-symmetric */
} mm_banner;

static int parse_banner(lines *l, const char *s, mm_banner *b, ws_error *err)
{
    char w[5][32] = {{0}};
    int n = sscanf(s, "%31s %31s %31s %31s %31s", w[0], w[1], w[2], w[3], w[4]);
    for (int i = 0; i < 5; i++)
        printable(w[i]);
    if (n < 1 || strcmp(w[0], "%%MatrixMarket") != 0)
        return ws_fail(err, "%s:%d: expected the banner \"%%%%MatrixMarket matrix coordinate FIELD SYMMETRY\"", l->path,
                       l->line);
    if (n != 5 || !lower_eq(w[1], "matrix"))
        return ws_fail(err, "%s:%d: banner has %d words: expected \"%%%%MatrixMarket matrix coordinate FIELD "
                       "SYMMETRY\"", l->path, l->line, n);
    if (!lower_eq(w[2], "coordinate"))
        return ws_fail(err, "%s:%d: format '%s': expected coordinate (a dense array is not a sparse matrix)", l->path,
                       l->line, w[2]);
    b->pattern = lower_eq(w[3], "pattern");
    b->integer = lower_eq(w[3], "integer");
    if (!b->pattern && !b->integer && !lower_eq(w[3], "real") && !lower_eq(w[3], "double"))
        return ws_fail(err, "%s:%d: field '%s': expected real, double, integer or pattern (complex is not supported)",
                       l->path, l->line, w[3]);
    if (lower_eq(w[4], "general"))
        b->symmetry = 0;
    else if (lower_eq(w[4], "symmetric"))
        b->symmetry = 1;
    else if (lower_eq(w[4], "skew-symmetric"))
        b->symmetry = 2;
    else
        return ws_fail(err, "%s:%d: symmetry '%s': expected general, symmetric or skew-symmetric", l->path, l->line,
                       w[4]);
    return 0;
}

/* The first line that is neither blank nor a comment (% or, for an edge list, #). */
static char *content_line(lines *l, int hash_comments)
{
    char *s;
    while ((s = next_line(l))) {
        const char *t = s;
        while (*t == ' ' || *t == '\t')
            t++;
        if (*t && *t != '%' && !(hash_comments && *t == '#'))
            return s;
    }
    return NULL;
}

static int read_mtx(lines *l, triplets *t, wl_csr *c, ws_error *err)
{
    char *s = next_line(l);
    mm_banner b = {0, 0, 0};
    if (!s)
        return ws_fail(err, "%s:1: empty file: expected the %%%%MatrixMarket banner", l->path);
    if (parse_banner(l, s, &b, err) < 0)
        return -1;
    s = content_line(l, 0);
    const char *p = s;
    uint64_t nnz;
    if (!s || read_uint(&p, &c->rows) < 0 || read_uint(&p, &c->cols) < 0 || read_uint(&p, &nnz) < 0 || !blank(p))
        return ws_fail(err, "%s:%d: expected the size line \"ROWS COLUMNS ENTRIES\"%s", l->path, l->line,
                       s ? "" : " (end of file)");
    if (c->rows > MAX_DIM || c->cols > MAX_DIM)
        return ws_fail(err, "%s:%d: size %" PRIu64 " x %" PRIu64 ": expected at most 2^28 rows and columns", l->path,
                       l->line, c->rows, c->cols);
    if (c->rows == 0 || c->cols == 0 || (b.symmetry && c->rows != c->cols))
        return ws_fail(err, "%s:%d: size %" PRIu64 " x %" PRIu64 ": expected %s", l->path, l->line, c->rows, c->cols,
                       b.symmetry ? "a square matrix (it is symmetric)" : "at least one row and one column");
    c->integer_values = b.pattern || b.integer;
    int size_line = l->line;
    for (uint64_t k = 0; k < nnz; k++) {
        s = content_line(l, 0);
        if (!s)
            return ws_fail(err, "%s:%d: truncated file: %" PRIu64 " of the %" PRIu64 " entries declared at line %d",
                           l->path, l->line, k, nnz, size_line);
        p = s;
        uint64_t i, j;
        double v = 1;
        if (read_uint(&p, &i) < 0 || read_uint(&p, &j) < 0 || (!b.pattern && read_double(&p, &v) < 0) || !blank(p))
            return ws_fail(err, "%s:%d: entry %" PRIu64 ": expected \"ROW COLUMN%s\"", l->path, l->line, k + 1,
                           b.pattern ? "" : " VALUE");
        if (b.integer && v != floor(v))
            return ws_fail(err, "%s:%d: entry %" PRIu64 ": value %g is not an integer (field integer)", l->path,
                           l->line, k + 1, v);
        if (i < 1 || i > c->rows || j < 1 || j > c->cols)
            return ws_fail(err, "%s:%d: entry %" PRIu64 ": index (%" PRIu64 ", %" PRIu64 ") out of range: expected "
                           "1..%" PRIu64 ", 1..%" PRIu64 " (1-based)", l->path, l->line, k + 1, i, j, c->rows, c->cols);
        if ((b.symmetry == 1 && i < j) || (b.symmetry == 2 && i <= j))
            return ws_fail(err, "%s:%d: entry %" PRIu64 ": (%" PRIu64 ", %" PRIu64 ") is %s the diagonal: a %s matrix "
                           "stores the %slower triangle", l->path, l->line, k + 1, i, j, i == j ? "on" : "above",
                           b.symmetry == 1 ? "symmetric" : "skew-symmetric", b.symmetry == 2 ? "strictly " : "");
        if (push(t, i - 1, j - 1, v) < 0 || (b.symmetry && i != j && push(t, j - 1, i - 1, b.symmetry == 2 ? -v : v) < 0))
            return ws_fail(err, "%s:%d: out of memory", l->path, l->line);
    }
    if (content_line(l, 0))
        return ws_fail(err, "%s:%d: more entries than the %" PRIu64 " declared at line %d", l->path, l->line, nnz,
                       size_line);
    return 0;
}

static int read_edges(lines *l, triplets *t, wl_csr *c, int undirected, ws_error *err)
{
    int weighted = -1, first = 0;
    uint64_t maxid = 0;
    char *s;
    c->integer_values = 1;
    while ((s = content_line(l, 1))) {
        const char *p = s;
        uint64_t u, v;
        double w = 1;
        if (read_uint(&p, &u) < 0 || read_uint(&p, &v) < 0)
            return ws_fail(err, "%s:%d: expected an edge \"SOURCE TARGET [WEIGHT]\" of 0-based vertex ids", l->path,
                           l->line);
        int has_w = !blank(p);
        if (has_w && (read_double(&p, &w) < 0 || !blank(p)))
            return ws_fail(err, "%s:%d: expected an edge \"SOURCE TARGET [WEIGHT]\": bad weight", l->path, l->line);
        if (weighted >= 0 && has_w != weighted)
            return ws_fail(err, "%s:%d: %s weight, but the edge at line %d has %s: expected every edge with a "
                           "weight or none", l->path, l->line, has_w ? "a" : "no", first, weighted ? "one" : "none");
        if (weighted < 0) {
            weighted = has_w;
            first = l->line;
        }
        if (u >= MAX_DIM || v >= MAX_DIM)
            return ws_fail(err, "%s:%d: vertex id out of range: expected ids below 2^28", l->path, l->line);
        if (w != floor(w))
            c->integer_values = 0;
        maxid = u > maxid ? u : maxid;
        maxid = v > maxid ? v : maxid;
        if (push(t, u, v, w) < 0 || (undirected && u != v && push(t, v, u, w) < 0))
            return ws_fail(err, "%s:%d: out of memory", l->path, l->line);
    }
    if (t->n == 0)
        return ws_fail(err, "%s:%d: no edges: expected lines \"SOURCE TARGET [WEIGHT]\"", l->path, l->line + 1);
    c->rows = c->cols = maxid + 1;
    return 0;
}

/* Stable counting sort of order[] by key[order[i]] in [0, range). */
static int counting_sort(uint64_t *order, uint64_t n, const uint64_t *key, uint64_t range, uint64_t *counts)
{
    uint64_t *tmp = malloc((n ? n : 1) * sizeof *tmp);
    if (!tmp)
        return -1;
    memset(counts, 0, (range + 1) * sizeof *counts);
    for (uint64_t i = 0; i < n; i++)
        counts[key[order[i]] + 1]++;
    for (uint64_t k = 0; k < range; k++)
        counts[k + 1] += counts[k];
    for (uint64_t i = 0; i < n; i++)
        tmp[counts[key[order[i]]]++] = order[i];
    memcpy(order, tmp, n * sizeof *order);
    free(tmp);
    return 0;
}

/* CSR from triplets: a radix sort by column then (stably) by row. */
static int build_csr(wl_csr *c, const triplets *t)
{
    uint64_t n = t->n, range = c->rows > c->cols ? c->rows : c->cols;
    uint64_t *order = malloc((n ? n : 1) * sizeof *order);
    uint64_t *counts = malloc((range + 1) * sizeof *counts);
    c->row_ptr = calloc(c->rows + 1, sizeof *c->row_ptr);
    c->col_idx = malloc((n ? n : 1) * sizeof *c->col_idx);
    c->values = malloc((n ? n : 1) * sizeof *c->values);
    int ok = order && counts && c->row_ptr && c->col_idx && c->values;
    if (ok) {
        for (uint64_t i = 0; i < n; i++)
            order[i] = i;
        ok = counting_sort(order, n, t->col, c->cols, counts) == 0 && counting_sort(order, n, t->row, c->rows, counts) == 0;
    }
    if (ok) {
        for (uint64_t i = 0; i < n; i++) {
            c->row_ptr[t->row[i] + 1]++;
            c->col_idx[i] = t->col[order[i]];
            c->values[i] = t->val[order[i]];
        }
        for (uint64_t r = 0; r < c->rows; r++)
            c->row_ptr[r + 1] += c->row_ptr[r];
        c->nnz = n;
    }
    free(order);
    free(counts);
    return ok ? 0 : -1;
}

void wl_csr_free(wl_csr *c)
{
    if (!c)
        return;
    free(c->path);
    free(c->row_ptr);
    free(c->col_idx);
    free(c->values);
    free(c);
}

wl_csr *wl_csr_load(const char *path, int format, int undirected, ws_error *err)
{
    lines l = {.path = path};
    l.f = fopen(path, "r");
    if (!l.f) {
        ws_fail(err, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    wl_csr *c = calloc(1, sizeof *c);
    triplets t = {0};
    int rc = -1;
    if (c && (c->path = strdup(path))) {
        c->format = format;
        c->undirected = undirected;
        rc = format == WL_CSR_MTX ? read_mtx(&l, &t, c, err) : read_edges(&l, &t, c, undirected, err);
        if (rc == 0 && (rc = build_csr(c, &t)) < 0)
            ws_fail(err, "%s: out of memory building CSR arrays", path);
    } else {
        ws_fail(err, "%s: out of memory", path);
    }
    triplets_free(&t);
    free(l.buf);
    fclose(l.f);
    if (rc < 0) {
        wl_csr_free(c);
        return NULL;
    }
    return c;
}

/* ---- CSR parts as buffers ---- */

static const char *const part_names[] = {"row_ptr", "col_idx", "values"};

/* Largest integer an integer type holds (as a double for values). */
static uint64_t type_max(int type)
{
    int bits = wl_type_bytes(type) * 8 - (wl_type_signed(type) ? 1 : 0);
    return bits >= 64 ? UINT64_MAX : (1ull << bits) - 1;
}

static int convert_part(const wl_csr *c, int part, int type, uint8_t *out, ws_error *err)
{
    const char *pn = part_names[part];
    if (part != WL_PART_VALUES) {
        const uint64_t *a = part == WL_PART_ROW_PTR ? c->row_ptr : c->col_idx;
        uint64_t n = part == WL_PART_ROW_PTR ? c->rows + 1 : c->nnz;
        uint64_t max = part == WL_PART_ROW_PTR ? c->nnz : c->cols - 1;
        if (wl_type_float(type))
            return ws_fail(err, "%s: part %s: expected an integer buffer type, not %s", c->path, pn, wl_type_name(type));
        if (max > type_max(type))
            return ws_fail(err, "%s: part %s: value %" PRIu64 " does not fit the buffer's type %s", c->path, pn, max,
                           wl_type_name(type));
        for (uint64_t i = 0; i < n; i++)
            wl_store(out, type, i, a[i]);
        return 0;
    }
    for (uint64_t k = 0; k < c->nnz; k++) {
        double v = c->values[k];
        if (wl_type_float(type)) {
            wl_store(out, type, k, wl_float_bits(type, v));
            continue;
        }
        double lo = wl_type_signed(type) ? -(double)type_max(type) - 1 : 0;
        if (v != floor(v) || v < lo || v > (double)type_max(type))
            return ws_fail(err, "%s: part values: value %.17g (entry %" PRIu64 " of the CSR arrays) is not %s %s", c->path,
                           v, k, v != floor(v) ? "an integer of type" : "in the range of", wl_type_name(type));
        wl_store(out, type, k, wl_int_bits(type, (uint64_t)(int64_t)v));
    }
    return 0;
}

ws_file_data *wl_file_from_csr(const wl_csr *c, int part, int type, ws_error *err)
{
    uint64_t count = part == WL_PART_ROW_PTR ? c->rows + 1 : c->nnz;
    uint64_t bytes = count * (uint64_t)wl_type_bytes(type);
    char shown[1100];
    snprintf(shown, sizeof shown, "%s (%s)", c->path, part_names[part]);
    staging s;   /* converted straight into the sealed copy that runs map */
    if (staging_open(&s, shown, bytes, err) < 0)
        return NULL;
    if (convert_part(c, part, type, s.p, err) < 0) {
        staging_drop(&s);
        return NULL;
    }
    return new_data(shown, &s, count, err);
}
