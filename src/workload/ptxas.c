/*
 * Registers per thread from ptxas (include/warpsweep/ptxas.h).
 *
 * Occupancy depends on the registers the assembler allocates, which only
 * ptxas knows: `ptxas -v` prints, per function,
 *
 *   ptxas info    : Compiling entry function '_Z6matmulPKfS0_Pfi' for 'sm_75'
 *   ptxas info    : Function properties for _Z6matmulPKfS0_Pfi
 *       0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
 *   ptxas info    : Used 40 registers, used 1 barriers, 512 bytes smem, 380 bytes cmem[0]
 *
 * (CUDA 13.0's ptxas on sweeps/kernels/matmul.ptx). We run it once per
 * (PTX text, entry, target, ptxas version) and keep the count in
 * $XDG_CACHE_HOME/warpsweep (else ~/.cache/warpsweep), one small file per
 * key, written to a temporary name and renamed so that concurrent runs (MPI
 * ranks) never see half a file. The ptxas version costs a run of
 * `ptxas --version`; it is cached too, keyed by the binary's path, size,
 * inode and modification time, so that a cache hit starts no process.
 *
 * ptxas is started with posix_spawn (no shell: file names may hold spaces
 * or quotes), stdin from /dev/null, stdout and stderr into one pipe that is
 * read to the end before waiting for the child. There is no timeout: ptxas
 * on a kernel of a few thousand lines takes milliseconds.
 */
#define _GNU_SOURCE   /* pipe2, strverscmp */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "warpsweep/ptxas.h"

extern char **environ;

#define OUT_CAP (64u << 10)       /* ptxas -v output kept: a few hundred bytes per function */
#define MAX_PTX (64u << 20)       /* the PTX loader's own limit is lower; this only bounds the read */
#define FALLBACK_GPU "sm_75"      /* the oldest target CUDA 13's ptxas accepts (sm_70/72 are gone) */
#define CACHE_MAGIC "warpsweep-ptxas-cache 1"

const char *ws_regs_source_name(int source)
{
    switch (source) {
    case WS_REGS_WORKLOAD: return "workload";
    case WS_REGS_PTXAS: return "ptxas";
    case WS_REGS_ESTIMATE: return "estimate";
    default: return "?";
    }
}

/* ------------------------------------------------------------ parsing -- */

/* The first occurrence of needle in line[0..len), or NULL. */
static const char *find_in(const char *line, size_t len, const char *needle)
{
    size_t n = strlen(needle);
    for (size_t i = 0; i + n <= len; i++)
        if (memcmp(line + i, needle, n) == 0)
            return line + i;
    return NULL;
}

static int name_is(const char *p, const char *end, const char *entry)
{
    while (end > p && (end[-1] == ' ' || end[-1] == '\r' || end[-1] == '\t'))
        end--;
    size_t n = strlen(entry);
    return (size_t)(end - p) == n && memcmp(p, entry, n) == 0;
}

int ws_ptxas_parse_regs(const char *output, const char *entry)
{
    static const char props[] = "Function properties for ", compiling[] = "Compiling entry function '";
    int in_entry = 0;
    for (const char *line = output; *line;) {
        const char *eol = strchr(line, '\n');
        size_t len = eol ? (size_t)(eol - line) : strlen(line);
        const char *end = line + len, *p;
        if ((p = find_in(line, len, props))) {
            in_entry = name_is(p + sizeof props - 1, end, entry);
        } else if ((p = find_in(line, len, compiling))) {
            const char *name = p + sizeof compiling - 1;
            const char *q = memchr(name, '\'', (size_t)(end - name));
            in_entry = q && name_is(name, q, entry);
        } else if (in_entry && (p = find_in(line, len, "Used "))) {
            char *after;
            long n = strtol(p + 5, &after, 10);
            if (after != p + 5 && n >= 0 && n <= 65536 && strncmp(after, " register", 9) == 0)
                return (int)n;
        }
        line = eol ? eol + 1 : end;
    }
    return -1;
}

int ws_ptx_target(const char *ptx, size_t len, char *buf, size_t bufsize)
{
    static const char dir[] = ".target";
    const size_t dlen = sizeof dir - 1;
    for (size_t i = 0; i < len; i++) {
        if (ptx[i] == '/' && i + 1 < len && ptx[i + 1] == '/') {        /* line comment */
            while (i < len && ptx[i] != '\n') i++;
        } else if (ptx[i] == '/' && i + 1 < len && ptx[i + 1] == '*') { /* block comment */
            for (i += 2; i + 1 < len && !(ptx[i] == '*' && ptx[i + 1] == '/'); i++) {}
            i++;
        } else if (ptx[i] == '"') {                                     /* a string (.file) */
            for (i++; i < len && ptx[i] != '"' && ptx[i] != '\n'; i++) {}
        } else if (len - i > dlen && memcmp(ptx + i, dir, dlen) == 0 && (ptx[i + dlen] == ' ' || ptx[i + dlen] == '\t')) {
            size_t j = i + dlen, n = 0;
            while (j < len && (ptx[j] == ' ' || ptx[j] == '\t')) j++;
            while (j + n < len && (ptx[j + n] == '_' || (ptx[j + n] >= '0' && ptx[j + n] <= '9') ||
                                   (ptx[j + n] >= 'a' && ptx[j + n] <= 'z') || (ptx[j + n] >= 'A' && ptx[j + n] <= 'Z')))
                n++;
            if (n == 0 || n >= bufsize)
                return -1;
            memcpy(buf, ptx + j, n);
            buf[n] = 0;
            return 0;
        }
    }
    return -1;
}

/* ----------------------------------------------------------- finding -- */

static int is_executable(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

static int try_dir(const char *dir, size_t dlen, char *out, size_t n)
{
    if (dlen == 0) { dir = "."; dlen = 1; }   /* POSIX: an empty PATH element is the current directory */
    int w = snprintf(out, n, "%.*s/ptxas", (int)dlen, dir);
    return w > 0 && (size_t)w < n && is_executable(out);
}

/* The /usr/local/cuda-X.Y/bin/ptxas of the highest version X.Y. */
static int try_versioned_cuda(char *out, size_t n)
{
    DIR *d = opendir("/usr/local");
    if (!d)
        return 0;
    char best[256] = "";
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strncmp(e->d_name, "cuda-", 5) != 0 || strlen(e->d_name) >= sizeof best)
            continue;
        char dir[300];
        snprintf(dir, sizeof dir, "/usr/local/%s/bin", e->d_name);
        char probe[320];
        if (try_dir(dir, strlen(dir), probe, sizeof probe) && (!best[0] || strverscmp(e->d_name, best) > 0))
            snprintf(best, sizeof best, "%s", e->d_name);
    }
    closedir(d);
    if (!best[0])
        return 0;
    char dir[300];
    snprintf(dir, sizeof dir, "/usr/local/%s/bin", best);
    return try_dir(dir, strlen(dir), out, n);
}

/* 0 with the path in out, or -1 with why in note. */
static int find_ptxas(char *out, size_t n, char *note, size_t nn)
{
    const char *env = getenv("WS_PTXAS");
    if (env) {
        if (!*env) {
            snprintf(note, nn, "WS_PTXAS is empty (never use ptxas)");
            return -1;
        }
        if (!is_executable(env)) {
            snprintf(note, nn, "WS_PTXAS=%.200s is not an executable file", env);
            return -1;
        }
        snprintf(out, n, "%s", env);
        return 0;
    }
    const char *path = getenv("PATH");
    for (const char *p = path; p && *p;) {
        const char *colon = strchr(p, ':');
        size_t len = colon ? (size_t)(colon - p) : strlen(p);
        if (try_dir(p, len, out, n))
            return 0;
        if (!colon)
            break;
        p = colon + 1;
    }
    const char *cuda_home = getenv("CUDA_HOME");
    if (cuda_home && *cuda_home) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s/bin", cuda_home);
        if (try_dir(dir, strlen(dir), out, n))
            return 0;
    }
    if (try_dir("/usr/local/cuda/bin", 19, out, n) || try_versioned_cuda(out, n) ||
        try_dir("/opt/cuda/bin", 13, out, n))
        return 0;
    snprintf(note, nn, "no ptxas found");
    return -1;
}

/* ----------------------------------------------------------- running -- */

/* Runs argv[0] (a path) with argv; stdout and stderr into out (at most
 * cap - 1 bytes kept, NUL-terminated; the rest is read and dropped).
 * Returns the exit status (128 + signal when killed), or -1 with errno
 * when it could not be started. */
static int run_capture(char *const argv[], char *out, size_t cap)
{
    int fd[2];
    if (pipe2(fd, O_CLOEXEC) < 0)
        return -1;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
    posix_spawn_file_actions_adddup2(&fa, fd[1], 2);
    pid_t pid;
    int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fd[1]);
    if (rc != 0) {
        close(fd[0]);
        errno = rc;
        return -1;
    }
    size_t n = 0;
    for (;;) {
        char chunk[4096];
        ssize_t k = read(fd[0], chunk, sizeof chunk);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        size_t keep = (size_t)k < cap - 1 - n ? (size_t)k : cap - 1 - n;
        memcpy(out + n, chunk, keep);
        n += keep;
    }
    out[n] = 0;
    close(fd[0]);
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

/* The first line of out that says what went wrong ("fatal" or "error"),
 * else its first line, into buf. */
static void first_error_line(const char *out, char *buf, size_t n)
{
    const char *pick = NULL;
    for (const char *l = out; *l && !pick; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
        const char *eol = strchr(l, '\n');
        size_t len = eol ? (size_t)(eol - l) : strlen(l);
        if (find_in(l, len, "fatal") || find_in(l, len, "error"))
            pick = l;
    }
    if (!pick)
        pick = out;
    size_t len = strcspn(pick, "\r\n");
    if (len > 160)
        len = 160;
    snprintf(buf, n, "%.*s", (int)len, pick);
    if (!*buf)
        snprintf(buf, n, "no output");
}

/* ------------------------------------------------------------- cache --- */

static uint64_t fnv1a(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

/* A 128-bit key (two FNV-1a streams with different bases) of the parts,
 * each followed by a NUL so that ("ab", "c") and ("a", "bc") differ. */
static void key_hex(const void *const parts[], const size_t lens[], int nparts, char hex[33])
{
    uint64_t a = 0xcbf29ce484222325ull, b = 0x84222325cbf29ce4ull;
    for (int i = 0; i < nparts; i++) {
        a = fnv1a(fnv1a(a, parts[i], lens[i]), "", 1);
        b = fnv1a(fnv1a(b, "", 1), parts[i], lens[i]);
    }
    snprintf(hex, 33, "%016llx%016llx", (unsigned long long)a, (unsigned long long)b);
}

/* $XDG_CACHE_HOME/warpsweep or $HOME/.cache/warpsweep, created; -1 when
 * neither is usable (the caller then simply does not cache). */
static int cache_dir(char *out, size_t n)
{
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    char base[4096];
    if (xdg && xdg[0] == '/')   /* the XDG spec: a relative value is to be ignored */
        snprintf(base, sizeof base, "%s", xdg);
    else if (home && *home)
        snprintf(base, sizeof base, "%s/.cache", home);
    else
        return -1;
    mkdir(base, 0700);
    int w = snprintf(out, n, "%s/warpsweep", base);
    if (w < 0 || (size_t)w >= n)
        return -1;
    if (mkdir(out, 0700) < 0 && errno != EEXIST)
        return -1;
    struct stat st;
    return stat(out, &st) == 0 && S_ISDIR(st.st_mode) ? 0 : -1;
}

/* Reads a whole small file (at most cap - 1 bytes) into buf; -1 on any failure. */
static int read_small(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    size_t n = fread(buf, 1, cap - 1, f);
    int bad = ferror(f) || !feof(f);   /* larger than cap - 1: not one of ours */
    fclose(f);
    buf[n] = 0;
    return bad ? -1 : 0;
}

/* Writes text to dir/name through a temporary file and rename; errors ignored. */
static void write_atomic(const char *dir, const char *name, const char *text)
{
    char path[4096 + 128], tmp[4096 + 160];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f)
        return;
    int bad = fputs(text, f) < 0;
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path) != 0)
        unlink(tmp);
}

/* The output of `ptxas --version`, from the cache when the binary is
 * unchanged; -1 when ptxas does not run. */
static int ptxas_version(const char *ptxas, const char *dir, char *ver, size_t n)
{
    char real[4096], name[64] = "";
    struct stat st;
    if (dir && realpath(ptxas, real) && stat(real, &st) == 0) {
        long long id[4] = {(long long)st.st_size, (long long)st.st_ino, (long long)st.st_mtim.tv_sec,
                           (long long)st.st_mtim.tv_nsec};
        const void *parts[] = {real, id};
        size_t lens[] = {strlen(real), sizeof id};
        char hex[33];
        key_hex(parts, lens, 2, hex);
        snprintf(name, sizeof name, "version-%s", hex);
        char path[4096 + 128];
        snprintf(path, sizeof path, "%s/%s", dir, name);
        if (read_small(path, ver, n) == 0 && strncmp(ver, CACHE_MAGIC "\n", sizeof CACHE_MAGIC) == 0) {
            memmove(ver, ver + sizeof CACHE_MAGIC, strlen(ver + sizeof CACHE_MAGIC) + 1);
            if (*ver)
                return 0;
        }
    }
    char *argv[] = {(char *)ptxas, "--version", NULL};
    if (run_capture(argv, ver, n) != 0 || !*ver)
        return -1;
    if (name[0]) {
        char text[4200];
        snprintf(text, sizeof text, "%s\n%s", CACHE_MAGIC, ver);
        write_atomic(dir, name, text);
    }
    return 0;
}

/* A cached count: the file names the entry and target it was made for (a
 * check against a hash collision or a foreign file) and the count. */
static int cache_get(const char *dir, const char *name, const char *entry, const char *target, ws_ptxas_result *res)
{
    char path[4096 + 128], text[2048];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (read_small(path, text, sizeof text) < 0)
        return -1;
    char want[1024];
    int w = snprintf(want, sizeof want, CACHE_MAGIC "\nentry %s\ntarget %s\ngpu ", entry, target);
    if (w < 0 || (size_t)w >= sizeof want || strncmp(text, want, (size_t)w) != 0)
        return -1;
    char gpu[32];
    unsigned regs;
    char fallback;
    if (sscanf(text + w, "%31s\nregs %u\nfallback %c", gpu, &regs, &fallback) != 3 || regs < 1 || regs > 65536 ||
        (fallback != '0' && fallback != '1'))
        return -1;
    res->regs = regs;
    snprintf(res->gpu, sizeof res->gpu, "%s", gpu);
    if (fallback == '1')
        snprintf(res->note, sizeof res->note, ".target %s is not accepted by this ptxas; counted for %s", target, gpu);
    res->cached = 1;
    return 0;
}

static void cache_put(const char *dir, const char *name, const char *entry, const char *target,
                      const ws_ptxas_result *res, int fallback)
{
    char text[2048];
    int w = snprintf(text, sizeof text, CACHE_MAGIC "\nentry %s\ntarget %s\ngpu %s\nregs %u\nfallback %d\n", entry,
                     target, res->gpu, res->regs, fallback);
    if (w > 0 && (size_t)w < sizeof text)
        write_atomic(dir, name, text);
}

/* ----------------------------------------------------------- the job --- */

static char *read_ptx(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n + 1 >= cap) {
            if (cap >= MAX_PTX) { free(buf); buf = NULL; break; }
            char *nb = realloc(buf, cap = cap ? 2 * cap : 1 << 16);
            if (!nb) { free(buf); buf = NULL; break; }
            buf = nb;
        }
        size_t k = fread(buf + n, 1, cap - 1 - n, f);
        n += k;
        if (k == 0)
            break;
    }
    if (buf && ferror(f)) { free(buf); buf = NULL; }
    fclose(f);
    if (buf) { buf[n] = 0; *len = n; }
    return buf;
}

/* Runs ptxas -v for entry on gpu; 0 with res->regs, 1 when ptxas refused
 * the gpu name itself, -1 otherwise (note set). */
static int compile(const char *ptxas, const char *file, const char *entry, const char *gpu, ws_ptxas_result *res)
{
    char *argv[] = {(char *)ptxas, "-v", "--gpu-name", (char *)gpu, "-e", (char *)entry, (char *)file,
                    "-o", "/dev/null", NULL};
    char *out = malloc(OUT_CAP);
    if (!out) {
        snprintf(res->note, sizeof res->note, "out of memory");
        return -1;
    }
    int rc = run_capture(argv, out, OUT_CAP), ret = -1;
    if (rc < 0) {
        snprintf(res->note, sizeof res->note, "%.200s could not be started: %s", ptxas, strerror(errno));
    } else if (rc != 0) {
        if (strstr(out, "is not defined for option 'gpu-name'")) {
            ret = 1;
        } else {
            char line[200];
            first_error_line(out, line, sizeof line);
            snprintf(res->note, sizeof res->note, "ptxas failed (exit %d) for %s: %s", rc, gpu, line);
        }
    } else {
        int n = ws_ptxas_parse_regs(out, entry);
        if (n < 0) {
            snprintf(res->note, sizeof res->note, "ptxas -v printed no \"Used N registers\" for %s", entry);
        } else {
            res->regs = n ? (uint32_t)n : 1;   /* a kernel of nothing but ret: hold one register anyway */
            snprintf(res->gpu, sizeof res->gpu, "%s", gpu);
            ret = 0;
        }
    }
    free(out);
    return ret;
}

int ws_ptxas_regs(const char *ptx_path, const char *entry, ws_ptxas_result *res)
{
    memset(res, 0, sizeof *res);
    char ptxas[4096];
    if (find_ptxas(ptxas, sizeof ptxas, res->note, sizeof res->note) < 0)
        return -1;
    size_t len = 0;
    char *ptx = read_ptx(ptx_path, &len);
    if (!ptx) {
        snprintf(res->note, sizeof res->note, "cannot read %s for ptxas", ptx_path);
        return -1;
    }
    char target[32];
    if (ws_ptx_target(ptx, len, target, sizeof target) < 0)
        snprintf(target, sizeof target, "%s", FALLBACK_GPU);
    char dirbuf[4096], ver[4096];
    const char *dir = cache_dir(dirbuf, sizeof dirbuf) == 0 ? dirbuf : NULL;
    if (ptxas_version(ptxas, dir, ver, sizeof ver) < 0) {
        free(ptx);
        snprintf(res->note, sizeof res->note, "%.200s --version did not run", ptxas);
        return -1;
    }
    const void *parts[] = {ptx, entry, target, ver};
    size_t lens[] = {len, strlen(entry), strlen(target), strlen(ver)};
    char hex[33], name[48];
    key_hex(parts, lens, 4, hex);
    free(ptx);
    snprintf(name, sizeof name, "regs-%s", hex);
    if (dir && cache_get(dir, name, entry, target, res) == 0)
        return 0;

    /* a relative name that starts with '-' must not read as an option */
    char file[4200];
    snprintf(file, sizeof file, "%s%s", ptx_path[0] == '/' ? "" : "./", ptx_path);
    int rc = compile(ptxas, file, entry, target, res), fallback = 0;
    if (rc == 1 && strcmp(target, FALLBACK_GPU) != 0) {
        fallback = 1;
        rc = compile(ptxas, file, entry, FALLBACK_GPU, res);
    }
    if (rc == 1)
        snprintf(res->note, sizeof res->note, "ptxas accepts neither --gpu-name %s nor %s", target, FALLBACK_GPU);
    if (rc != 0)
        return -1;
    if (fallback)
        snprintf(res->note, sizeof res->note, ".target %s is not accepted by this ptxas; counted for %s", target,
                 res->gpu);
    if (dir)
        cache_put(dir, name, entry, target, res, fallback);
    return 0;
}
