/* Reading a results file that may be damaged: every file is first read in a
 * forked child (everything the readers in the parent will read: the root
 * attributes, /points' datatype, extent, chunking and attributes, every
 * row), and opened in the parent only if the child got through it.
 *
 * Why a child: HDF5 decodes object headers before warpsweep can look at
 * them. In the file format before 1.8 (version 1 object headers, no
 * checksums; files warpsweep wrote before it asked for the 1.8 format, or any
 * other tool's) one changed byte of a message list or a datatype message sends
 * HDF5 outside its buffers (H5Aexists, the datatype conversion's memcpy) or
 * asks the allocator for 2^63 bytes. Neither can be checked from outside the
 * library, so the damage is allowed to happen where it only ends a child: the
 * parent then prints one line naming the file and the command exits 1. The
 * child's address space is bounded (RLIMIT_AS, except under AddressSanitizer,
 * which reserves terabytes of shadow) so a 14 GB request fails there too. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <hdf5.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "warpsweep/shard.h"
#include "warpsweep/store.h"
#include "h5_read.h"

#if defined(__SANITIZE_ADDRESS__)
#define WS_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WS_ASAN 1
#endif
#endif

/* the address space a vetting child may add to what it inherited */
#define VET_EXTRA_BYTES ((rlim_t)4 << 30)

/* Files already vetted by this process (the store is used by one thread at
 * a time, h5.c): one command reads a file several times (info, then rows,
 * then columns), and merge reads every input twice. A file that changed
 * since (size, mtime, inode) is vetted again. */
typedef struct vetted {
    dev_t dev;
    ino_t ino;
    off_t size;
    struct timespec mtime;
} vetted;
#define VET_CACHE 32
static vetted vet_cache[VET_CACHE];
static int vet_cache_n, vet_cache_next;
static int in_vet_child; /* set in the child: it reads the file itself */

static int same_file(const vetted *v, const struct stat *st)
{
    return v->dev == st->st_dev && v->ino == st->st_ino && v->size == st->st_size &&
           v->mtime.tv_sec == st->st_mtim.tv_sec && v->mtime.tv_nsec == st->st_mtim.tv_nsec;
}

static int already_vetted(const struct stat *st)
{
    for (int i = 0; i < vet_cache_n; i++)
        if (same_file(&vet_cache[i], st))
            return 1;
    return 0;
}

static void remember_vetted(const struct stat *st)
{
    vet_cache[vet_cache_next] = (vetted){st->st_dev, st->st_ino, st->st_size, st->st_mtim};
    vet_cache_next = (vet_cache_next + 1) % VET_CACHE;
    if (vet_cache_n < VET_CACHE)
        vet_cache_n++;
}

static int ignore_row(void *ctx, const ws_row *row, const char *workload)
{
    (void)ctx, (void)row, (void)workload;
    return 0;
}

static void ignore_column(void *ctx, const char *name, const char *type) { (void)ctx, (void)name, (void)type; }

/* The child's reading: what info, pareto, merge and run --resume read. */
static int read_everything(const char *path, ws_error *err)
{
    ws_file_info info;
    ws_shard shard;
    if (ws_store_info(path, &info, err) || ws_store_get_shard(path, &shard, err) ||
        ws_store_columns(path, ignore_column, NULL, err) || ws_store_read(path, ignore_row, NULL, err))
        return -1;
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0)
        return ws_fail(err, "%s: not an HDF5 file (or damaged)", path);
    char *s = NULL;
    int rc = ws_h5_attr_str(f, path, "sweep_yaml", &s, err);
    free(s);
    s = NULL;
    if (rc >= 0)
        rc = ws_h5_attr_str(f, path, "sweep_file", &s, err);
    free(s);
    s = NULL;
    hid_t ds = rc >= 0 ? H5Dopen2(f, "points", H5P_DEFAULT) : -1;
    if (rc >= 0 && ds < 0)
        rc = ws_fail(err, "%s: cannot open /points: the file is damaged", path);
    if (ds >= 0) {
        rc = ws_h5_attr_str(ds, path, "choices:workload", &s, err);
        free(s);
        H5Dclose(ds);
    }
    H5Fclose(f);
    return rc < 0 ? -1 : 0;
}

static void limit_address_space(void)
{
#ifndef WS_ASAN
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long long pages = 0;
    if (f) {
        if (fscanf(f, "%llu", &pages) != 1)
            pages = 0;
        fclose(f);
    }
    long pg = sysconf(_SC_PAGESIZE);
    struct rlimit rl = {(rlim_t)pages * (rlim_t)(pg > 0 ? pg : 4096) + VET_EXTRA_BYTES, 0};
    rl.rlim_max = rl.rlim_cur;
    setrlimit(RLIMIT_AS, &rl);
#endif
}

/* The child holds nothing of the parent's but stdio and its pipe: a journal
 * descriptor it inherited would keep the journal's flock after the parent is
 * killed, refusing an immediate `--resume` (issue 46). */
static void close_inherited(int keep)
{
    int ok = keep <= 3 || close_range(3, (unsigned)keep - 1, 0) == 0;
    if (ok && close_range((unsigned)keep + 1, ~0u, 0) == 0)
        return;
    long max = sysconf(_SC_OPEN_MAX);   /* no close_range (Linux < 5.9): one by one */
    for (long fd = 3; fd < (max > 0 && max < 65536 ? max : 65536); fd++)
        if (fd != keep)
            close((int)fd);
}

static void run_child(const char *path, int wfd)
{
    in_vet_child = 1;
    close_inherited(wfd);
    signal(SIGINT, SIG_DFL); /* not the parent's handlers (run's stop flag) */
    signal(SIGTERM, SIG_DFL);
    int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (null >= 0) { /* nothing from the child reaches the user but its one message */
        dup2(null, STDOUT_FILENO);
        dup2(null, STDERR_FILENO);
    }
    limit_address_space();
    ws_error err = {{0}};
    int rc = read_everything(path, &err);
    if (rc) {
        size_t n = strnlen(err.msg, sizeof err.msg);
        if (write(wfd, err.msg, n) < 0) {
        }
    }
    _exit(rc ? 1 : 0); /* no atexit handlers, no flush of the parent's stdio buffers */
}

static const char *signal_abbrev(int sig)
{
    switch (sig) {
    case SIGSEGV: return " SIGSEGV";
    case SIGBUS: return " SIGBUS";
    case SIGABRT: return " SIGABRT";
    case SIGFPE: return " SIGFPE";
    case SIGILL: return " SIGILL";
    case SIGKILL: return " SIGKILL";
    default: return "";
    }
}

int ws_h5_vet(const char *path, ws_error *err)
{
    struct stat st;
    if (in_vet_child)
        return 0;
    if (stat(path, &st))
        return ws_fail(err, "%s: cannot open: %s", path, strerror(errno));
    if (!S_ISREG(st.st_mode))
        return ws_fail(err, "%s: not a regular file: not a results file", path);
    if (already_vetted(&st))
        return 0;
    int p[2];
    if (pipe2(p, O_CLOEXEC))
        return ws_fail(err, "%s: cannot check the file: pipe: %s", path, strerror(errno));
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(p[0]);
        close(p[1]);
        return ws_fail(err, "%s: cannot check the file: fork: %s", path, strerror(errno));
    }
    if (pid == 0) {
        close(p[0]);
        run_child(path, p[1]);
    }
    close(p[1]);
    char msg[WS_ERROR_LEN];
    size_t n = 0;
    for (;;) {
        ssize_t r = read(p[0], msg + n, sizeof msg - 1 - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        n += (size_t)r;
        if (n == sizeof msg - 1)
            break;
    }
    msg[n] = 0;
    close(p[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        remember_vetted(&st);
        return 0;
    }
    if (WIFEXITED(status) && n)
        return ws_fail(err, "%s", msg);
    int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP || sig == SIGQUIT) /* Ctrl-C reaches the child too */
        return ws_fail(err, "%s: the check of the file was interrupted (signal %d)", path, sig);
    if (WIFSIGNALED(status))
        return ws_fail(err, "%s: damaged: the HDF5 library crashed reading it (signal %d%s, in the child process that "
                       "checks every file first)", path, WTERMSIG(status), signal_abbrev(WTERMSIG(status)));
    return ws_fail(err, "%s: damaged: the HDF5 library failed reading it (exit %d of the child process that "
                   "checks the file first)", path, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

hid_t ws_h5_open_read(const char *path, ws_error *err)
{
    ws_h5_begin();
    if (access(path, R_OK)) {
        ws_fail(err, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    if (ws_h5_vet(path, err))
        return -1;
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0)
        ws_fail(err, "%s: not an HDF5 file (or damaged)", path);
    return f;
}
