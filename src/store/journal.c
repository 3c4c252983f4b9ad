/* The append-only journal of finished rows (see store.h).
 *
 * Layout: a 128-byte header, then records of 8 + sizeof(ws_row) bytes:
 *   u64 check = FNV-1a 64 of the row bytes, xor'ed with WS_REC_SALT
 *   ws_row (zero-filled before use, so padding is deterministic)
 * A record is accepted when its check matches and its fields fit the sweep
 * (row_fits). A bad record followed by a good one was damaged in place (a
 * flipped bit, a forged record): it is skipped, its point runs again, and the
 * records after it are kept. Only the bytes after the last good record (a
 * write cut by kill -9 or a crash) are a torn tail: ws_journal_open cuts them.
 *
 * One process at a time: ws_journal_create and ws_journal_open take an
 * exclusive flock(2) on the journal, held until ws_journal_close, and write
 * their pid into the header so that a second run can name the holder. flock
 * belongs to the open file description, so other descriptors of the file
 * (ws_store_build reads it through its own) opened and closed meanwhile do
 * not drop it, as they would a POSIX fcntl lock. */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "warpsweep/store.h"
#include "warpsweep/strutil.h"

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
    int32_t holder_pid;       /* the process that has it open (locked); 0 in journals before the lock */
    char own_hash[16];        /* the parts of hash (sweep.h), to say what changed; */
    char inputs_hash[16];     /*   zero in journals before them */
    uint32_t model_version;   /* WS_MODEL_VERSION; zero in journals before model versions */
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

/* The pid the header names as the journal's holder, or 0. */
static pid_t recorded_holder(int fd)
{
    hdr h;
    if (pread(fd, &h, sizeof h, 0) == (ssize_t)sizeof h && memcmp(h.magic, WS_JOURNAL_MAGIC, 8) == 0 &&
        h.holder_pid > 0)
        return (pid_t)h.holder_pid;
    return 0;
}

#define DEAD_HOLDER_WAIT_MS 10000   /* the most a lock left by a dead holder's descendants is waited for */

/* Takes the exclusive lock on fd, or fails naming the process that holds it.
 * A lock whose recorded holder is dead is held by something it left behind
 * (a forked child that inherited the descriptor, such as a file check in
 * flight when the run was killed): it is waited for, up to
 * DEAD_HOLDER_WAIT_MS, and then taken (issue 46: `--resume` right after a
 * kill -9 was refused for about a second). */
static int lock_journal(int fd, const char *path, ws_error *err)
{
    int waited_ms = 0;
    while (flock(fd, LOCK_EX | LOCK_NB)) {
        if (errno == EINTR)
            continue;
        if (errno != EWOULDBLOCK)
            return ws_fail(err, "%s: cannot lock: %s", path, strerror(errno));
        pid_t holder = recorded_holder(fd);
        if (holder > 0 && kill(holder, 0) < 0 && errno == ESRCH && waited_ms < DEAD_HOLDER_WAIT_MS) {
            struct timespec ts = {0, 50 * 1000 * 1000};
            nanosleep(&ts, NULL);
            waited_ms += 50;
            continue;
        }
        char who[96] = "another process";
        if (holder > 0)
            snprintf(who, sizeof who, waited_ms ? "a process left by process %d, which is gone" : "process %d",
                     (int)holder);
        return ws_fail(err, "%s: in use by another warpsweep (%s): wait for it to end or stop it first", path, who);
    }
    return 0;
}

static void set_holder(int fd)
{
    int32_t pid = (int32_t)getpid();
    if (pwrite(fd, &pid, sizeof pid, offsetof(hdr, holder_pid)) != (ssize_t)sizeof pid) {
        /* only the message of a refused second run loses the pid */
    }
}

ws_journal *ws_journal_create(const char *path, const ws_sweep *sw, uint64_t points_total, ws_error *err)
{
    /* not O_TRUNC: a journal another run holds must not be emptied before the lock says so */
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        ws_fail(err, "%s: cannot create: %s", path, strerror(errno));
        return NULL;
    }
    if (lock_journal(fd, path, err)) {
        close(fd);
        return NULL;
    }
    if (ftruncate(fd, 0)) {
        ws_fail(err, "%s: cannot truncate: %s", path, strerror(errno));
        close(fd);
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
    memcpy(h.hash, sw->hash, 16);
    memcpy(h.own_hash, sw->own_hash, strnlen(sw->own_hash, 16));
    memcpy(h.inputs_hash, sw->inputs_hash, strnlen(sw->inputs_hash, 16));
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(h.created_utc, sizeof h.created_utc, "%Y-%m-%dT%H:%M:%SZ", &tm);
    h.holder_pid = (int32_t)getpid();
    h.model_version = WS_MODEL_VERSION;
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
        memcpy(info->own_hash, h->own_hash, 16);
        memcpy(info->inputs_hash, h->inputs_hash, 16);
        memcpy(info->created_utc, h->created_utc, sizeof info->created_utc - 1);
        info->points_total = h->points_total;
        info->model_version = h->model_version;
    }
    return 0;
}

/* Whether a checksummed record could have come from this sweep: its point
 * inside the sweep (and the header's points_total), a known status, a
 * terminated message and, for a loaded sweep, the workload, seed and
 * parameters of that very point. sw is NULL for no sweep check; merge's
 * minimal sweep (no axes) checks the point and workload indices only. */
static int row_fits(const ws_sweep *sw, uint64_t points_total, const ws_row *r)
{
    if (r->point >= points_total || r->status < 0 || r->status >= WS_ST_COUNT ||
        !memchr(r->message, 0, sizeof r->message))
        return 0;
    if (!sw)
        return 1;
    if (r->point >= sw->count || r->workload >= (uint32_t)sw->nworkloads)
        return 0;
    if (sw->naxes == 0)
        return 1;
    ws_point pt;
    ws_sweep_point(sw, r->point, &pt);
    return pt.workload == r->workload && pt.seed == r->seed && memcmp(pt.cfg.v, r->params, sizeof r->params) == 0;
}

/* Scans the records of fd: calls fn (if any) with each good one and its
 * record number (its position in the file), counts the bad ones before the
 * last good one in *damaged, and sets *end to the offset just after the last
 * good record (the bytes after it are a torn tail). */
static void scan_fd(int fd, const ws_sweep *sw, uint64_t points_total, uint64_t *ngood, uint64_t *damaged,
                    off_t *end, int (*fn)(void *, const ws_row *, uint64_t), void *ctx)
{
    enum { BATCH = 256 };
    unsigned char *buf = malloc(BATCH * REC_SIZE);
    off_t off = HDR_SIZE;
    uint64_t good = 0, bad_since_good = 0, bad_before = 0, recno = 0;
    *end = HDR_SIZE;
    for (int stop = 0; !stop;) {
        ssize_t r = pread(fd, buf, BATCH * REC_SIZE, off);
        size_t whole = r > 0 ? (size_t)r / REC_SIZE : 0;
        for (size_t i = 0; i < whole && !stop; i++, recno++) {
            uint64_t check;
            ws_row row;
            memcpy(&check, buf + i * REC_SIZE, 8);
            memcpy(&row, buf + i * REC_SIZE + 8, sizeof row);
            if (check != rec_check(&row) || !row_fits(sw, points_total, &row)) {
                bad_since_good++;
                continue;
            }
            bad_before += bad_since_good;
            bad_since_good = 0;
            good++;
            *end = off + (off_t)((i + 1) * REC_SIZE);
            if (fn && fn(ctx, &row, recno))
                stop = 1;
        }
        if (whole < BATCH)
            break;
        off += (off_t)(BATCH * REC_SIZE);
    }
    free(buf);
    *ngood = good;
    *damaged = bad_before;
}

int ws_journal_scan(const char *path, const ws_sweep *sw, ws_journal_info *info,
                    int (*fn)(void *ctx, const ws_row *row, uint64_t recno), void *ctx, ws_error *err)
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
    scan_fd(fd, sw, h.points_total, &info->records, &info->damaged, &end, fn, ctx);
    struct stat st;
    if (fstat(fd, &st) == 0 && st.st_size > end)
        info->torn_bytes = (uint64_t)(st.st_size - end);
    close(fd);
    return 0;
}

ws_journal *ws_journal_open(const char *path, const ws_sweep *sw, ws_journal_info *info, ws_error *err)
{
    const char *hash = sw ? sw->hash : NULL;
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        ws_fail(err, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    if (lock_journal(fd, path, err)) {
        close(fd);
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
    char why[512];
    if (ws_model_mismatch(h.model_version, path, "resume", why, sizeof why)) {
        ws_fail(err, "%s", why);
        close(fd);
        return NULL;
    }
    if (hash && memcmp(h.hash, hash, 16) != 0) {
        char raw[17], shown[80]; /* a damaged header's bytes are quoted and escaped, not printed raw */
        memcpy(raw, h.hash, 16);
        raw[16] = 0;
        ws_fail(err, "%s: %s since this run started (sweep hash %s, the journal has %s): "
                "refusing to resume; use --force to start over", path,
                ws_sweep_what_changed(sw, info->own_hash, info->inputs_hash), hash,
                ws_printable_name(shown, sizeof shown, raw));
        close(fd);
        return NULL;
    }
    off_t end;
    scan_fd(fd, sw, h.points_total, &info->records, &info->damaged, &end, NULL, NULL);
    set_holder(fd);
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
