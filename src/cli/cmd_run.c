/* warpsweep run SWEEP.yaml [-o OUT.h5] [-j N] [--set name=value]... [--resume|--force]
 *                          [--name NAME] [--max-points N] [--quiet]
 * Runs every point of the sweep in parallel; rows go to OUT.h5.journal
 * while running and into OUT.h5 (default results/<name>.h5) at the end or
 * on SIGINT/SIGTERM (exit code 3). See docs/sweeps.md. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "run_hooks.h"
#include "warpsweep/shard.h"
#include "warpsweep/store.h"
#include "warpsweep/sweep.h"

static volatile sig_atomic_t stop_flag;

static void on_signal(int sig)
{
    (void)sig;
    stop_flag = 1;
}

static void usage_to(FILE *out)
{
    fprintf(out, "usage: warpsweep run SWEEP.yaml [-o OUT.h5] [-j N] [--set name=value]... [--resume|--force]\n"
                    "                     [--name NAME] [--max-points N] [--quiet] [--shard K/N|auto]\n");
}

static void usage(void) { usage_to(stderr); }

static int mkdirs(const char *path)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            if (mkdir(buf, 0755) && errno != EEXIST)
                return -1;
            *p = '/';
        }
    return 0;
}

/* The points an earlier run finished, and their statuses: the progress
 * report of a resumed run counts them, so that its tallies describe the
 * whole output, not the part this process ran. */
typedef struct done_point {
    uint64_t point;
    int32_t status;
} done_point;

typedef struct done_set {
    done_point *p;
    uint64_t *v;                        /* after done_finish: the sorted distinct points */
    size_t n, cap;
    uint64_t by_status[WS_ST_COUNT];    /* after done_finish: of the points in the run's range */
} done_set;

static void done_add(done_set *d, uint64_t k, int32_t status)
{
    if (d->n == d->cap) {
        d->cap = d->cap ? d->cap * 2 : 1024;
        d->p = realloc(d->p, d->cap * sizeof *d->p);
    }
    d->p[d->n++] = (done_point){k, status};
}

static int cmp_done(const void *a, const void *b)
{
    uint64_t x = ((const done_point *)a)->point, y = ((const done_point *)b)->point;
    return x < y ? -1 : x > y;
}

static int in_range(const ws_point_range *r, uint64_t point)
{
    return point >= r->first && (point - r->first) % r->stride == 0 && (point - r->first) / r->stride < r->n;
}

/* sorts, keeps the first record of each point (as ws_store_build does) and
 * tallies the statuses of those in range */
static void done_finish(done_set *d, const ws_point_range *range)
{
    if (!d->n)
        return;
    qsort(d->p, d->n, sizeof *d->p, cmp_done);   /* not stable: equal points keep either status */
    d->v = malloc(d->n * sizeof *d->v);
    size_t m = 0;
    for (size_t i = 0; i < d->n; i++)
        if (i == 0 || d->p[i].point != d->v[m - 1]) {
            d->v[m++] = d->p[i].point;
            if (in_range(range, d->p[i].point) && d->p[i].status >= 0 && d->p[i].status < WS_ST_COUNT)
                d->by_status[d->p[i].status]++;
        }
    d->n = m;
}

static void done_free(done_set *d)
{
    free(d->p);
    free(d->v);
}

static int collect_done(void *ctx, const ws_row *row, uint64_t recno)
{
    (void)recno;
    done_add(ctx, row->point, row->status);
    return 0;
}

typedef struct import_ctx {
    const ws_sweep *sw;
    ws_journal *j;
    done_set *done;
    ws_error *err;
    int failed;
} import_ctx;

static int import_row(void *vctx, const ws_row *row, const char *workload)
{
    import_ctx *c = vctx;
    ws_row r = *row;
    r.workload = 0;
    for (int i = 0; i < c->sw->nworkloads; i++)
        if (strcmp(c->sw->workload_names[i], workload) == 0)
            r.workload = (uint32_t)i;
    if (ws_journal_append(c->j, &r, 1, c->err)) {
        c->failed = 1;
        return 1;
    }
    done_add(c->done, r.point, r.status);
    return 0;
}

typedef struct sink_ctx {
    ws_journal *j;
    double last_sync;
} sink_ctx;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int sink_write(void *vctx, const ws_row *rows, size_t n, ws_error *err)
{
    sink_ctx *c = vctx;
    if (ws_journal_append(c->j, rows, n, err))
        return -1;
    double t = now();
    if (t - c->last_sync > 5) { /* bounded loss on power failure; kill -9 loses nothing written */
        ws_journal_sync(c->j);
        c->last_sync = t;
    }
    return 0;
}

typedef struct run_opts {
    const char *out;
    int threads, resume, force, quiet;
    uint64_t max_points;
    ws_shard shard;              /* --shard K/N (n = 0: the whole sweep) */
    const ws_run_hooks *hooks;   /* MPI seams (run_hooks.h), or NULL */
} run_opts;

static int run_one(ws_sweep *sw, const run_opts *ro)
{
    ws_error err;
    if (ws_sweep_check_size(sw, ro->max_points, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return WS_EXIT_FAIL;
    }
    if (!ro->quiet) cli_note_sweep_presets(stderr, sw);
    char out[4096], jpath[4200];
    ws_point_range range = ws_shard_range(&ro->shard, sw->count); /* the points this run owns */
    if (ro->out)
        snprintf(out, sizeof out, "%s", ro->out);
    else if (ro->shard.n)
        snprintf(out, sizeof out, "results/%s.shard-%llu-of-%llu.h5", sw->name, (unsigned long long)ro->shard.k,
                 (unsigned long long)ro->shard.n);
    else
        snprintf(out, sizeof out, "results/%s.h5", sw->name);
    snprintf(jpath, sizeof jpath, "%s.journal", out);
    /* only regular files are ever replaced: -o DIR or -o /dev/null must not run
     * the whole sweep to fail at the final rename (or, with --force, unlink a device) */
    const char *paths[2] = {out, jpath};
    for (int i = 0; i < 2; i++) {
        struct stat st;
        if (stat(paths[i], &st) == 0 && !S_ISREG(st.st_mode)) {
            fprintf(stderr, "warpsweep run: %s is %s; refusing to write there\n", paths[i],
                    S_ISDIR(st.st_mode) ? "a directory" : "not a regular file (a device, FIFO or socket)");
            return WS_EXIT_FAIL;
        }
    }
    size_t outlen = strlen(out);
    if (outlen == 0 || out[outlen - 1] == '/') {
        fprintf(stderr, "warpsweep run: -o '%s' is not a file name; give one such as %sOUT.h5\n", out, out);
        return WS_EXIT_USAGE;
    }
    if (mkdirs(out)) {
        fprintf(stderr, "warpsweep run: %s: cannot create its directory: %s\n", out, strerror(errno));
        return WS_EXIT_FAIL;
    }
    int have_h5 = access(out, F_OK) == 0, have_j = access(jpath, F_OK) == 0;
    if ((have_h5 || have_j) && !ro->resume && !ro->force) {
        fprintf(stderr, "warpsweep run: %s already exists; use --resume to continue it or --force to overwrite it\n",
                have_h5 ? out : jpath);
        return WS_EXIT_FAIL;
    }
    if (ro->force) /* the journal is emptied and OUT.h5 removed once the journal's lock is ours (below) */
        have_h5 = have_j = 0;
    if (ro->resume && have_h5 && ro->shard.n && ws_store_check_shard(out, &ro->shard, &err)) {
        fprintf(stderr, "warpsweep run: %s\n", err.msg);
        return WS_EXIT_FAIL;
    }
    done_set done = {0};
    ws_journal *j = NULL;
    if (ro->resume && have_j) {
        ws_journal_info info;
        j = ws_journal_open(jpath, sw, &info, &err);
        if (!j) {
            fprintf(stderr, "%s\n", err.msg);
            return WS_EXIT_FAIL;
        }
        if (info.torn_bytes && !ro->quiet)
            fprintf(stderr, "warpsweep run: %s: discarded a torn last record (%llu bytes) from an interrupted run\n",
                    jpath, (unsigned long long)info.torn_bytes);
        if (info.damaged && !ro->quiet)
            fprintf(stderr, "warpsweep run: %s: skipped %llu damaged record%s (%s point%s run again); kept the %llu "
                    "good ones\n", jpath, (unsigned long long)info.damaged, info.damaged == 1 ? "" : "s",
                    info.damaged == 1 ? "its" : "their", info.damaged == 1 ? "" : "s",
                    (unsigned long long)info.records);
        if (ws_journal_scan(jpath, sw, NULL, collect_done, &done, &err)) {
            fprintf(stderr, "%s\n", err.msg);
            ws_journal_close(j);
            return WS_EXIT_FAIL;
        }
    } else if (ro->resume && have_h5) {
        ws_file_info fi;
        if (ws_store_info(out, &fi, &err)) {
            fprintf(stderr, "%s\n", err.msg);
            return WS_EXIT_FAIL;
        }
        char why[512];
        if (ws_model_mismatch(fi.model_version, out, "resume", why, sizeof why)) {
            fprintf(stderr, "warpsweep run: %s\n", why);
            return WS_EXIT_FAIL;
        }
        if (strcmp(fi.sweep_hash, sw->hash) != 0) {
            fprintf(stderr, "warpsweep run: %s: %s since this file was written (sweep hash %s, the file "
                            "has %s): refusing to resume; use --force to start over\n", out,
                    ws_sweep_what_changed(sw, fi.own_hash, fi.inputs_hash), sw->hash, fi.sweep_hash);
            return WS_EXIT_FAIL;
        }
        if (fi.rows >= range.n) {
            if (!ro->quiet)
                fprintf(stderr, "warpsweep run: %s is complete (%llu points); nothing to do\n", out,
                        (unsigned long long)fi.rows);
            return WS_EXIT_OK;
        }
        j = ws_journal_create(jpath, sw, sw->count, &err);
        if (!j) {
            fprintf(stderr, "%s\n", err.msg);
            return WS_EXIT_FAIL;
        }
        import_ctx ic = {sw, j, &done, &err, 0};
        if (ws_store_read(out, import_row, &ic, &err) || ic.failed) {
            fprintf(stderr, "%s\n", err.msg);
            ws_journal_close(j);
            return WS_EXIT_FAIL;
        }
    } else {
        j = ws_journal_create(jpath, sw, sw->count, &err);
        if (!j) {
            fprintf(stderr, "warpsweep run: %s\n", err.msg);
            return WS_EXIT_FAIL;
        }
        if (ro->force)
            unlink(out);
    }
    done_finish(&done, &range);

    stop_flag = 0;
    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND; /* a second signal ends the process at once (the journal stays valid) */
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);

    uint64_t done_in_range = 0;
    for (int s = 0; s < WS_ST_COUNT; s++)
        done_in_range += done.by_status[s];
    ws_progress *prog = ro->quiet ? NULL : ws_progress_new(stderr, range.n, done_in_range, sw->name);
    if (prog)
        ws_progress_add_earlier(prog, done.by_status);
    sink_ctx sc = {j, now()};
    ws_row_sink sink = {&sc, sink_write};
    ws_drive_opts dopts = {
        .threads = ro->threads,
        .range = range,
        .done = done.v,
        .ndone = done.n,
        .stop = &stop_flag,
        .progress = prog,
    };
    ws_drive_stats st;
    int drc = ro->hooks && ro->hooks->drive ? ro->hooks->drive(ro->hooks->ctx, sw, &dopts, &sink, &st, &err)
                                            : ws_sweep_drive(sw, &dopts, &sink, &st, &err);
    if (prog) {
        ws_progress_finish(prog);
        ws_progress_free(prog);
    }
    if (drc) {
        fprintf(stderr, "warpsweep run: %s\n", err.msg);
    }
    /* consolidate: the journal -> OUT.h5 (atomically); the journal stays
     * open, hence locked, until OUT.h5 is final, so no second run can start
     * on it in between */
    if (ws_store_build(out, jpath, sw, &err)) {
        ws_journal_close(j);
        fprintf(stderr, "warpsweep run: %s\n", err.msg);
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGTERM, &old_term, NULL);
        done_free(&done);
        return WS_EXIT_FAIL;
    }
    if (ro->shard.n && ws_store_set_shard(out, &ro->shard, range.n, &err)) {
        fprintf(stderr, "warpsweep run: %s\n", err.msg);
        drc = -1;
    }
    ws_file_info fi;
    if (ws_store_info(out, &fi, &err)) { /* the file just built is re-read (vetted): damaged, the journal stays */
        ws_journal_close(j);
        fprintf(stderr, "warpsweep run: %s (the journal %s is kept: run --resume rebuilds the file)\n", err.msg, jpath);
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGTERM, &old_term, NULL);
        done_free(&done);
        return WS_EXIT_FAIL;
    }
    int complete = fi.rows >= range.n;
    if (complete)
        unlink(jpath);
    ws_journal_close(j);
    int interrupted = st.interrupted || (stop_flag && !complete);
    if (!ro->quiet) {
        fprintf(stderr, "warpsweep run: %s: %llu of %llu points", out, (unsigned long long)fi.rows,
                (unsigned long long)range.n);
        if (interrupted)
            fprintf(stderr, " (interrupted: warpsweep run --resume continues)");
        fprintf(stderr, "\n");
    }
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    done_free(&done);
    if (drc)
        return WS_EXIT_FAIL;
    return interrupted ? WS_EXIT_INTERRUPTED : WS_EXIT_OK;
}

int cmd_run(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        usage_to(stdout);
        return WS_EXIT_OK;
    }
    if (ws_mpi_launched()) /* under mpirun/srun: rank 0 coordinates, the others work (mpi_run.c) */
        return ws_mpi_cmd_run(argc, argv);
    return ws_cmd_run(argc, argv, NULL);
}

int ws_cmd_run(int argc, char **argv, const ws_run_hooks *hooks)
{
    const char *file = NULL, *name = NULL;
    run_opts ro = {0};
    ro.hooks = hooks;
    const char **sets = calloc((size_t)argc + 1, sizeof(char *));
    int nsets = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if ((strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) && more)
            ro.out = argv[++i];
        else if ((strcmp(a, "-j") == 0 || strcmp(a, "--jobs") == 0) && more) {
            char *end;
            long v = strtol(argv[++i], &end, 10);
            if (*end || v < 1 || v > 4096) {
                fprintf(stderr, "warpsweep run: -j expects a positive number of threads, got '%s'\n", argv[i]);
                free(sets);
                return WS_EXIT_USAGE;
            }
            ro.threads = (int)v;
        } else if (strncmp(a, "-j", 2) == 0 && a[2]) {
            char *end;
            long v = strtol(a + 2, &end, 10);
            ro.threads = *end || v < 1 || v > 4096 ? 0 : (int)v;
            if (ro.threads < 1) {
                fprintf(stderr, "warpsweep run: -j expects a positive number of threads, got '%s'\n", a + 2);
                free(sets);
                return WS_EXIT_USAGE;
            }
        } else if (strcmp(a, "--set") == 0 && more)
            sets[nsets++] = argv[++i];
        else if (strcmp(a, "--name") == 0 && more)
            name = argv[++i];
        else if (strcmp(a, "--max-points") == 0 && more) {
            char *end;
            ro.max_points = strtoull(argv[++i], &end, 10);
            if (*end || !ro.max_points || argv[i][0] == '-') {
                fprintf(stderr, "warpsweep run: --max-points expects a positive integer\n");
                free(sets);
                return WS_EXIT_USAGE;
            }
        } else if (strcmp(a, "--shard") == 0 && more) {
            ws_error serr;
            if (ws_shard_parse(argv[++i], &ro.shard, &serr)) {
                fprintf(stderr, "warpsweep run: %s\n", serr.msg);
                free(sets);
                return WS_EXIT_USAGE;
            }
        } else if (strcmp(a, "--resume") == 0)
            ro.resume = 1;
        else if (strcmp(a, "--force") == 0)
            ro.force = 1;
        else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0)
            ro.quiet = 1;
        else if (a[0] == '-' || file) {
            fprintf(stderr, "warpsweep run: unexpected argument '%s'\n", a);
            usage();
            free(sets);
            return WS_EXIT_USAGE;
        } else
            file = a;
    }
    if (!file) {
        usage();
        free(sets);
        return WS_EXIT_USAGE;
    }
    if (ro.resume && ro.force) {
        fprintf(stderr, "warpsweep run: --resume and --force exclude each other\n");
        free(sets);
        return WS_EXIT_USAGE;
    }
    ws_sweep_opts opts = {.sets = sets, .nsets = nsets, .load_workloads = 1};
    ws_sweep **sws;
    int n;
    ws_error err;
    if (ws_sweep_load(file, name, &opts, &sws, &n, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        free(sets);
        return WS_EXIT_FAIL;
    }
    free(sets);
    if (n > 1 && ro.out) {
        fprintf(stderr, "warpsweep run: %s holds %d sweeps: -o needs --name to choose one\n", file, n);
        ws_sweeps_free(sws, n);
        return WS_EXIT_USAGE;
    }
    /* check every sweep's size before running any */
    for (int s = 0; s < n; s++)
        if (ws_sweep_check_size(sws[s], ro.max_points, &err)) {
            fprintf(stderr, "%s\n", err.msg);
            ws_sweeps_free(sws, n);
            return WS_EXIT_FAIL;
        }
    int rc = WS_EXIT_OK;
    if (hooks && hooks->loaded && (rc = hooks->loaded(hooks->ctx, sws, n, ro.threads)) >= 0) {
        ws_sweeps_free(sws, n); /* an MPI worker: it served the sweeps */
        return rc;
    }
    rc = WS_EXIT_OK;
    for (int s = 0; s < n && rc == WS_EXIT_OK; s++)
        rc = run_one(sws[s], &ro);
    ws_sweeps_free(sws, n);
    return rc;
}
