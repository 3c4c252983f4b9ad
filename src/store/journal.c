/* The append-only journal of finished rows (see store.h).
 *
 * Layout: a 128-byte header, then records of 8 + sizeof(ws_row) bytes:
 *   u64 check = FNV-1a 64 of the row bytes, xor'ed with WS_REC_SALT
 *   ws_row (zero-filled before use, so padding is deterministic)
 * A record whose check does not match (a write cut by kill -9 or a crash)
 * ends the valid part; ws_journal_open truncates the file there. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "warpsweep/store.h"

#define WS_JOURNAL_MAGIC "WSJRNL01"
#define WS_REC_SALT 0x5753524f57303031ull
#define HDR_SIZE 128

typedef struct hdr {
    char magic[8];
    uint32_t version;
    uint32_t record_size;
    uint32_t nparams, nmetrics;
    uint64_t layout;          /* hash of parameter and metric names and types */
    uint64_t points_total;
    char hash[16];
    char created_utc[32];
    char pad[HDR_SIZE - 8 - 4 * 4 - 8 * 2 - 16 - 32];
} hdr;
_Static_assert(sizeof(hdr) == HDR_SIZE, "journal header size");

struct ws_journal {
    int fd;
    char *path;
};

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++) {
        h ^= s[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

static uint64_t layout_hash(void)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (int i = 0; i < WS_NPARAMS; i++) {
        h = fnv(h, ws_params[i].name, strlen(ws_params[i].name) + 1);
        h = fnv(h, &ws_params[i].type, sizeof ws_params[i].type);
        if (ws_params[i].choices)
            h = fnv(h, ws_params[i].choices, strlen(ws_params[i].choices));
    }
    for (int i = 0; i < WS_NMETRICS; i++) {
        h = fnv(h, ws_metrics[i].name, strlen(ws_metrics[i].name) + 1);
        h = fnv(h, &ws_metrics[i].is_float, sizeof ws_metrics[i].is_float);
    }
    return h;
}

static uint64_t rec_check(const ws_row *r) { return fnv(0xcbf29ce484222325ull, r, sizeof *r) ^ WS_REC_SALT; }

#define REC_SIZE (8 + sizeof(ws_row))

static int write_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

ws_journal *ws_journal_create(const char *path, const char *hash, uint64_t points_total, ws_error *err)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        ws_fail(err, "%s: cannot create: %s", path, strerror(errno));
        return NULL;
    }
    hdr h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, WS_JOURNAL_MAGIC, 8);
    h.version = WS_FORMAT_VERSION;
    h.record_size = (uint32_t)REC_SIZE;
    h.nparams = WS_NPARAMS;
    h.nmetrics = WS_NMETRICS;
    h.layout = layout_hash();
    h.points_total = points_total;
    memcpy(h.hash, hash, 16);
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(h.created_utc, sizeof h.created_utc, "%Y-%m-%dT%H:%M:%SZ", &tm);
    if (write_all(fd, &h, sizeof h) || fsync(fd)) {
        ws_fail(err, "%s: cannot write: %s", path, strerror(errno));
        close(fd);
        return NULL;
    }
    ws_journal *j = calloc(1, sizeof *j);
    j->fd = fd;
    j->path = strdup(path);
    return j;
}

static int read_header(int fd, const char *path, hdr *h, ws_journal_info *info, ws_error *err)
{
    ssize_t r = pread(fd, h, sizeof *h, 0);
    if (r != (ssize_t)sizeof *h || memcmp(h->magic, WS_JOURNAL_MAGIC, 8) != 0)
        return ws_fail(err, "%s: not a warpsweep journal (or its header is damaged)", path);
    if (h->record_size != REC_SIZE || h->nparams != WS_NPARAMS || h->nmetrics != WS_NMETRICS ||
        h->layout != layout_hash())
        return ws_fail(err, "%s: written by a warpsweep with other parameters or metrics; cannot resume it with this one",
                       path);
    if (info) {
        memset(info, 0, sizeof *info);
        memcpy(info->hash, h->hash, 16);
        info->hash[16] = 0;
        memcpy(info->created_utc, h->created_utc, sizeof info->created_utc - 1);
        info->points_total = h->points_total;
    }
    return 0;
}

/* Scans records from fd; returns the number of valid ones, sets *end to the
 * byte offset just after the last valid one. */
static int scan_fd(int fd, uint64_t *nvalid, off_t *end, int (*fn)(void *, const ws_row *, uint64_t), void *ctx)
{
    enum { BATCH = 256 };
    unsigned char *buf = malloc(BATCH * REC_SIZE);
    off_t off = HDR_SIZE;
    uint64_t n = 0;
    int stop = 0;
    while (!stop) {
        ssize_t r = pread(fd, buf, BATCH * REC_SIZE, off);
        if (r <= 0)
            break;
        size_t whole = (size_t)r / REC_SIZE;
        if (whole == 0)
            break;
        for (size_t i = 0; i < whole; i++) {
            uint64_t check;
            ws_row row;
            memcpy(&check, buf + i * REC_SIZE, 8);
            memcpy(&row, buf + i * REC_SIZE + 8, sizeof row);
            if (check != rec_check(&row)) {
                stop = 1;
                break;
            }
            if (fn && fn(ctx, &row, n)) {
                stop = 2;
                n++;
                off += (off_t)REC_SIZE;
                break;
            }
            n++;
            off += (off_t)REC_SIZE;
        }
        if (whole < BATCH)
            break;
    }
    free(buf);
    *nvalid = n;
    *end = off;
    return 0;
}

int ws_journal_scan(const char *path, ws_journal_info *info, int (*fn)(void *ctx, const ws_row *row, uint64_t recno),
                    void *ctx, ws_error *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return ws_fail(err, "%s: cannot open: %s", path, strerror(errno));
    hdr h;
    ws_journal_info tmp;
    if (!info)
        info = &tmp;
    if (read_header(fd, path, &h, info, err)) {
        close(fd);
        return -1;
    }
    off_t end;
    scan_fd(fd, &info->records, &end, fn, ctx);
    struct stat st;
    if (fstat(fd, &st) == 0 && st.st_size > end)
        info->torn_bytes = (uint64_t)(st.st_size - end);
    close(fd);
    return 0;
}

ws_journal *ws_journal_open(const char *path, const char *hash, ws_journal_info *info, ws_error *err)
{
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        ws_fail(err, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    hdr h;
    ws_journal_info tmp;
    if (!info)
        info = &tmp;
    if (read_header(fd, path, &h, info, err)) {
        close(fd);
        return NULL;
    }
    if (hash && memcmp(h.hash, hash, 16) != 0) {
        ws_fail(err, "%s: the sweep changed since this run started (sweep hash %s, the journal has %.16s): "
                "refusing to resume; use --force to start over", path, hash, h.hash);
        close(fd);
        return NULL;
    }
    off_t end;
    scan_fd(fd, &info->records, &end, NULL, NULL);
    struct stat st;
    if (fstat(fd, &st) == 0 && st.st_size > end) {
        info->torn_bytes = (uint64_t)(st.st_size - end);
        if (ftruncate(fd, end)) {
            ws_fail(err, "%s: cannot repair (truncate): %s", path, strerror(errno));
            close(fd);
            return NULL;
        }
    }
    if (lseek(fd, end, SEEK_SET) < 0) {
        ws_fail(err, "%s: seek: %s", path, strerror(errno));
        close(fd);
        return NULL;
    }
    ws_journal *j = calloc(1, sizeof *j);
    j->fd = fd;
    j->path = strdup(path);
    return j;
}

int ws_journal_append(ws_journal *j, const ws_row *rows, size_t n, ws_error *err)
{
    enum { BATCH = 64 };
    unsigned char buf[BATCH * REC_SIZE];
    size_t done = 0;
    while (done < n) {
        size_t k = n - done < BATCH ? n - done : BATCH;
        for (size_t i = 0; i < k; i++) {
            uint64_t check = rec_check(&rows[done + i]);
            memcpy(buf + i * REC_SIZE, &check, 8);
            memcpy(buf + i * REC_SIZE + 8, &rows[done + i], sizeof(ws_row));
        }
        if (write_all(j->fd, buf, k * REC_SIZE))
            return ws_fail(err, "%s: cannot write: %s", j->path, strerror(errno));
        done += k;
    }
    return 0;
}

int ws_journal_sync(ws_journal *j) { return fdatasync(j->fd); }

void ws_journal_close(ws_journal *j)
{
    if (!j)
        return;
    fdatasync(j->fd);
    close(j->fd);
    free(j->path);
    free(j);
}
