/* `warpsweep run` across MPI ranks (docs/cluster.md).
 *
 * Started by mpirun/srun, every rank parses the same command line and loads
 * the same sweeps. Rank 0 then runs the ordinary `run` (output checks,
 * --resume, the journal, SIGINT/SIGTERM, progress, the HDF5 file) with the
 * OpenMP driver replaced by a coordinator: a pool of point indices from
 * which
 *   - rank 0's own OpenMP threads take chunks directly, and
 *   - the other ranks (workers) get chunks by message when they are idle;
 *     they simulate them with their OpenMP threads and send the rows back.
 * Chunks shrink toward the end (guided: a share of what is left, divided by
 * every thread of the job), so no rank idles on a long tail. Rank 0 is the
 * only writer of the journal and of the HDF5 file.
 *
 * Threads: MPI_THREAD_FUNNELED. Only each process's main thread calls MPI:
 * on rank 0 it is OpenMP thread 0 of the coordinator's parallel region (it
 * serves messages; threads 1..j simulate), on a worker the master thread of
 * its parallel loop (it also polls for a cancel between points).
 *
 * Messages (tags):
 *   HELLO  worker -> 0: threads, host, the hashes of its sweeps (checked:
 *          a node that sees another sweep file ends the job)
 *   ROWS   worker -> 0: the finished rows of its last chunk; also "I am idle"
 *   CHUNK  0 -> worker: sweep index, point indices
 *   CANCEL 0 -> worker: stop simulating the current chunk, send what is done
 *   STOP   0 -> worker: no more work, exit
 * An error on any rank prints a message naming the rank and its host, then
 * MPI_Abort ends the whole job (rank 0's journal stays valid: --resume). */
#include "run_hooks.h"

#ifndef WS_HAVE_MPI
int ws_mpi_launched(void) { return 0; }
int ws_mpi_cmd_run(int argc, char **argv) { return ws_cmd_run(argc, argv, NULL); }
#else

#include <mpi.h>
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "warpsweep/kcache.h"

enum { TAG_HELLO = 11, TAG_ROWS, TAG_CHUNK, TAG_CANCEL, TAG_STOP };
enum { W_NEW, W_PARKED, W_BUSY, W_STOPPED };

#define MAX_CHUNK 256
#define MAX_SHARE 16
#define CHUNK_SECONDS 0.25 /* a worker's chunk aims at this much simulation per thread */
#define BATCH_ROWS 128
#define BATCH_SECONDS 0.5

typedef struct hello_msg {
    int32_t threads;
    int32_t nsweeps;
    char host[64];
    char hashes[][17];
} hello_msg;

typedef struct rows_hdr {
    int32_t sweep;
    int32_t stopping;   /* the worker was signalled */
    uint64_t n;
} rows_hdr;

typedef struct mpi_ctx {
    int rank, size;
    char host[64];
    ws_sweep **sws;     /* this rank's sweeps (set by the loaded hook) */
    int nsweeps;
    int loaded;
    int threads;        /* -j of this rank (0: all cores) */
    /* rank 0: the workers */
    int *state;
    int *wthreads;
    uint64_t *points;   /* rows received per rank (this drive) */
    double *sim;        /* simulated seconds per rank (this drive) */
    void *buf;
    size_t bufcap;
} mpi_ctx;

static volatile sig_atomic_t worker_stop;

static void on_worker_signal(int sig)
{
    (void)sig;
    worker_stop = 1;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void nap(long us)
{
    struct timespec t = {0, us * 1000};
    nanosleep(&t, NULL);
}

int ws_mpi_launched(void)
{
    const char *off = getenv("WS_MPI");
    if (off && strcmp(off, "0") == 0)
        return 0;
    return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") || getenv("PMI_RANK") || getenv("PMI_SIZE");
}

static void die(mpi_ctx *c, const char *what)
{
    fprintf(stderr, "warpsweep run: rank %d of %d on %s: %s; ending the job\n", c->rank, c->size, c->host, what);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, WS_EXIT_FAIL);
    exit(WS_EXIT_FAIL);
}

static void *grow(mpi_ctx *c, size_t n)
{
    if (n > c->bufcap) {
        free(c->buf);
        c->buf = malloc(n);
        c->bufcap = n;
        if (!c->buf)
            die(c, "out of memory for a message");
    }
    return c->buf;
}

/* ------------------------------------------------------------------ */
/* Worker                                                              */
/* ------------------------------------------------------------------ */

static int worker_loop(mpi_ctx *c)
{
    int T = c->threads > 0 ? c->threads : omp_get_num_procs();
    size_t hsz = sizeof(hello_msg) + (size_t)c->nsweeps * 17;
    hello_msg *h = calloc(1, hsz);
    h->threads = T;
    h->nsweeps = c->nsweeps;
    snprintf(h->host, sizeof h->host, "%s", c->host);
    for (int s = 0; s < c->nsweeps; s++)
        memcpy(h->hashes[s], c->sws[s]->hash, 17);
    MPI_Send(h, (int)hsz, MPI_BYTE, 0, TAG_HELLO, MPI_COMM_WORLD);
    free(h);

    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_worker_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);

    ws_sim **sims = calloc((size_t)T, sizeof *sims);
    ws_kcache *kc = ws_kcache_new();   /* this rank's threads share kernels and reference runs */
    uint64_t *chunk = malloc((2 + MAX_CHUNK) * sizeof(uint64_t));
    ws_row *rows = malloc(MAX_CHUNK * sizeof(ws_row));
    uint8_t *ok = malloc(MAX_CHUNK);
    size_t msz = sizeof(rows_hdr) + MAX_CHUNK * sizeof(ws_row);
    unsigned char *msg = malloc(msz);
    if (!sims || !kc || !chunk || !rows || !ok || !msg)
        die(c, "out of memory");
    for (;;) {
        MPI_Status st;
        int flag = 0;
        while (!flag) {
            MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
            if (!flag)
                nap(100);
        }
        if (st.MPI_TAG == TAG_STOP) {
            MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_STOP, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            break;
        }
        if (st.MPI_TAG == TAG_CANCEL) { /* late: the chunk it meant is already back */
            MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_CANCEL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            continue;
        }
        if (st.MPI_TAG != TAG_CHUNK)
            die(c, "unexpected message from rank 0");
        int cnt;
        MPI_Get_count(&st, MPI_UINT64_T, &cnt);
        if (cnt < 2 || cnt > 2 + MAX_CHUNK)
            die(c, "malformed chunk from rank 0");
        MPI_Recv(chunk, cnt, MPI_UINT64_T, 0, TAG_CHUNK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        uint64_t s = chunk[0], m = chunk[1];
        if (s >= (uint64_t)c->nsweeps || m != (uint64_t)cnt - 2)
            die(c, "malformed chunk from rank 0");
        const ws_sweep *sw = c->sws[s];
        memset(ok, 0, m);
        int cancel = 0;
#pragma omp parallel num_threads(T)
        {
            int tid = omp_get_thread_num();
            if (!sims[tid])
                sims[tid] = ws_sim_new_shared(kc);
#pragma omp for schedule(dynamic, 1)
            for (uint64_t i = 0; i < m; i++) {
                if (tid == 0 && !__atomic_load_n(&cancel, __ATOMIC_ACQUIRE)) {
                    int f = 0;
                    MPI_Iprobe(0, TAG_CANCEL, MPI_COMM_WORLD, &f, MPI_STATUS_IGNORE);
                    if (f) {
                        MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_CANCEL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                        __atomic_store_n(&cancel, 1, __ATOMIC_RELEASE);
                    }
                }
                if (worker_stop || __atomic_load_n(&cancel, __ATOMIC_ACQUIRE))
                    continue;
                ws_sweep_run_point(sw, sims[tid], chunk[2 + i], &rows[i]);
                ok[i] = 1;
            }
        }
        rows_hdr rh = {(int32_t)s, worker_stop ? 1 : 0, 0};
        ws_row *out = (ws_row *)(msg + sizeof rh);
        for (uint64_t i = 0; i < m; i++)
            if (ok[i])
                out[rh.n++] = rows[i];
        memcpy(msg, &rh, sizeof rh);
        MPI_Send(msg, (int)(sizeof rh + rh.n * sizeof(ws_row)), MPI_BYTE, 0, TAG_ROWS, MPI_COMM_WORLD);
    }
    for (int t = 0; t < T; t++)
        if (sims[t])
            ws_sim_free(sims[t]);
    free(sims);
    ws_kcache_free(kc);
    free(chunk);
    free(rows);
    free(ok);
    free(msg);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    return worker_stop ? WS_EXIT_INTERRUPTED : WS_EXIT_OK;
}

/* ------------------------------------------------------------------ */
/* Rank 0: messages                                                    */
/* ------------------------------------------------------------------ */

/* What a received ROWS message is for. */
typedef struct coord coord;
static void write_rows(coord *co, int from, const ws_row *rows, size_t n);

/* Receives one message (already probed) and updates the worker's state.
 * co is NULL outside a drive (rows are then dropped: they were cut off by
 * an error, and --resume runs them again). */
static void handle(mpi_ctx *c, coord *co, MPI_Status *st, int *stopping)
{
    int src = st->MPI_SOURCE, n;
    MPI_Get_count(st, MPI_BYTE, &n);
    void *b = grow(c, (size_t)n + 1);
    MPI_Recv(b, n, MPI_BYTE, src, st->MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (st->MPI_TAG == TAG_HELLO) {
        hello_msg *h = b;
        h->host[sizeof h->host - 1] = 0;
        c->wthreads[src] = h->threads > 0 ? h->threads : 1;
        c->state[src] = W_PARKED;
        if (c->loaded) {
            int bad = h->nsweeps != c->nsweeps;
            for (int s = 0; !bad && s < c->nsweeps; s++)
                bad = memcmp(h->hashes[s], c->sws[s]->hash, 16) != 0;
            if (bad) {
                char what[512];
                snprintf(what, sizeof what,
                         "rank %d on %s loaded another sweep (hash %.16s, rank 0 has %s): the sweep file, its --set "
                         "values or its input files differ between the ranks", src, h->host,
                         h->nsweeps ? h->hashes[0] : "-", c->nsweeps ? c->sws[0]->hash : "-");
                die(c, what);
            }
        }
    } else if (st->MPI_TAG == TAG_ROWS) {
        rows_hdr rh;
        memcpy(&rh, b, sizeof rh);
        if ((size_t)n != sizeof rh + rh.n * sizeof(ws_row))
            die(c, "malformed rows message");
        if (rh.stopping && stopping)
            *stopping = 1;
        c->state[src] = W_PARKED;
        if (co && rh.n)
            write_rows(co, src, (const ws_row *)((char *)b + sizeof rh), rh.n);
    } else {
        die(c, "unexpected message");
    }
}

/* Probes once; returns 1 if a message was handled. */
static int poll_one(mpi_ctx *c, coord *co, int *stopping)
{
    MPI_Status st;
    int flag = 0;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
    if (!flag)
        return 0;
    handle(c, co, &st, stopping);
    return 1;
}

/* ------------------------------------------------------------------ */
/* Rank 0: the coordinator (replaces ws_sweep_drive)                   */
/* ------------------------------------------------------------------ */

struct coord {
    mpi_ctx *c;
    const ws_drive_opts *o;
    ws_row_sink *sink;
    ws_drive_stats *stats;
    ws_error err;
    int failed;             /* the sink failed */
    int stopping;           /* a worker was signalled */
    int skipped;            /* points left because of a stop */
    /* the pool */
    uint64_t i;             /* next index into o->range */
    uint64_t remaining;     /* indices not yet handed out (done ones excluded) */
    int total_threads;
    double sim_sum;         /* simulated seconds and rows so far: the mean cost of a point */
    uint64_t sim_rows;
};

static void write_rows(coord *co, int from, const ws_row *rows, size_t n)
{
#pragma omp critical(ws_row_sink)
    {
        if (!co->failed) {
            if (co->sink->write(co->sink->ctx, rows, n, &co->err)) {
                __atomic_store_n(&co->failed, 1, __ATOMIC_RELEASE);
            } else {
                co->stats->ran += n;
                for (size_t i = 0; i < n; i++) {
                    if (rows[i].status >= 0 && rows[i].status < WS_ST_COUNT)
                        co->stats->by_status[rows[i].status]++;
                    co->c->sim[from] += rows[i].sim_seconds;
                }
                co->c->points[from] += n;
                for (size_t i = 0; i < n; i++)
                    co->sim_sum += rows[i].sim_seconds;
                co->sim_rows += n;
                if (co->o->progress)
                    ws_progress_update(co->o->progress, rows, n);
            }
        }
    }
}

static int halted(coord *co)
{
    return __atomic_load_n(&co->failed, __ATOMIC_ACQUIRE) || co->stopping || (co->o->stop && *co->o->stop);
}

/* Takes up to the guided share for a requester with `threads` threads. */
static size_t take(coord *co, int threads, uint64_t *out)
{
    size_t m = 0;
#pragma omp critical(ws_mpi_pool)
    {
        uint64_t tt = (uint64_t)co->total_threads * 2;
        uint64_t share = (co->remaining + tt - 1) / tt;
        if (share < 1)
            share = 1;
        if (share > MAX_SHARE)
            share = MAX_SHARE;
        /* points differ in cost by orders of magnitude: a worker's chunk is
         * about CHUNK_SECONDS of simulation per thread at the mean cost so
         * far (one point per thread before any row came back), so a chunk
         * stuck behind an expensive point holds back little */
        double mean = co->sim_rows ? co->sim_sum / (double)co->sim_rows : -1;
        uint64_t by_cost = mean < 0 ? 1 : mean > 0 ? (uint64_t)(CHUNK_SECONDS / mean) : MAX_SHARE;
        if (by_cost < 1)
            by_cost = 1;
        if (share > by_cost)
            share = by_cost;
        uint64_t want = threads ? share * (uint64_t)threads : 1;
        if (want > MAX_CHUNK)
            want = MAX_CHUNK;
        const ws_point_range *r = &co->o->range;
        while (m < want && co->i < r->n) {
            uint64_t k = r->first + co->i * r->stride;
            co->i++;
            if (co->o->ndone && ws_points_contain(co->o->done, co->o->ndone, k))
                continue;
            out[m++] = k;
        }
        co->remaining -= m < co->remaining ? m : co->remaining;
    }
    return m;
}

static int sweep_index(mpi_ctx *c, const ws_sweep *sw)
{
    for (int s = 0; s < c->nsweeps; s++)
        if (c->sws[s] == sw)
            return s;
    return -1;
}

static int coord_drive(void *vctx, const ws_sweep *sw, const ws_drive_opts *o, ws_row_sink *sink,
                       ws_drive_stats *stats, ws_error *err)
{
    mpi_ctx *c = vctx;
    memset(stats, 0, sizeof *stats);
    int sidx = sweep_index(c, sw);
    if (sidx < 0)
        return ws_fail(err, "MPI coordinator: unknown sweep");
    coord co = {.c = c, .o = o, .sink = sink, .stats = stats};
    int T = o->threads > 0 ? o->threads : omp_get_num_procs();
    co.total_threads = T;
    for (int r = 1; r < c->size; r++)
        co.total_threads += c->wthreads[r];
    memset(c->points, 0, (size_t)c->size * sizeof *c->points);
    memset(c->sim, 0, (size_t)c->size * sizeof *c->sim);
    /* points to run: the range minus those already done */
    co.remaining = o->range.n;
    for (size_t d = 0; d < o->ndone; d++) {
        uint64_t k = o->done[d];
        if (k >= o->range.first && (k - o->range.first) % o->range.stride == 0 &&
            (k - o->range.first) / o->range.stride < o->range.n)
            co.remaining--;
    }
    int local_left = 0; /* local simulating threads still running */
    double t0 = now();
    ws_kcache *kc = ws_kcache_new();   /* the local threads share kernels and reference runs */
    if (!kc)
        return ws_fail(err, "out of memory");

#pragma omp parallel num_threads(T + 1)
    {
        int tid = omp_get_thread_num(), nth = omp_get_num_threads();
#pragma omp single
        local_left = nth - 1;
        /* implicit barrier of single: local_left is set */
        if (tid != 0) {
            /* a local simulating thread */
            ws_sim *sim = ws_sim_new_shared(kc);
            uint64_t *chunk = malloc(MAX_CHUNK * sizeof *chunk);
            ws_row *batch = malloc(BATCH_ROWS * sizeof(ws_row));
            size_t nb = 0;
            double last = now();
            for (;;) {
                if (halted(&co)) {
                    __atomic_store_n(&co.skipped, 1, __ATOMIC_RELAXED);
                    break;
                }
                size_t m = take(&co, 0, chunk); /* no message to amortise: one point at a time */
                if (!m)
                    break;
                for (size_t i = 0; i < m; i++) {
                    if (halted(&co)) {
                        __atomic_store_n(&co.skipped, 1, __ATOMIC_RELAXED);
                        break;
                    }
                    ws_sweep_run_point(sw, sim, chunk[i], &batch[nb++]);
                    double t = now();
                    if (nb == BATCH_ROWS || t - last >= BATCH_SECONDS) {
                        write_rows(&co, 0, batch, nb);
                        nb = 0;
                        last = t;
                    }
                }
            }
            write_rows(&co, 0, batch, nb);
            free(batch);
            free(chunk);
            ws_sim_free(sim);
            __atomic_sub_fetch(&local_left, 1, __ATOMIC_ACQ_REL);
        } else {
            /* the main thread: serves the workers (the only MPI caller) */
            uint64_t *chunk = malloc((2 + MAX_CHUNK) * sizeof *chunk);
            int cancelled = 0;
            for (;;) {
                int busy = 0, acted = 0;
                while (poll_one(c, &co, &co.stopping))
                    acted = 1;
                int halt = halted(&co);
                for (int r = 1; r < c->size; r++) {
                    if (c->state[r] == W_PARKED && !halt) {
                        size_t m = take(&co, c->wthreads[r], chunk + 2);
                        if (m) {
                            chunk[0] = (uint64_t)sidx;
                            chunk[1] = m;
                            MPI_Send(chunk, (int)(2 + m), MPI_UINT64_T, r, TAG_CHUNK, MPI_COMM_WORLD);
                            c->state[r] = W_BUSY;
                            acted = 1;
                        }
                    }
                    busy += c->state[r] == W_BUSY || c->state[r] == W_NEW;
                }
                if (halt && !cancelled) {
                    for (int r = 1; r < c->size; r++)
                        if (c->state[r] == W_BUSY)
                            MPI_Send(NULL, 0, MPI_BYTE, r, TAG_CANCEL, MPI_COMM_WORLD);
                    cancelled = 1;
                    if (co.remaining)
                        co.skipped = 1;
                }
                if (!busy && !__atomic_load_n(&local_left, __ATOMIC_ACQUIRE)) {
                    int left;
#pragma omp critical(ws_mpi_pool)
                    left = co.remaining > 0;
                    if (!left || halted(&co))
                        break;
                }
                if (!acted)
                    nap(200);
            }
            free(chunk);
        }
    }
    ws_kcache_free(kc);
    double wall = now() - t0;
    int skipped = co.skipped;
#pragma omp critical(ws_mpi_pool)
    skipped |= co.remaining > 0 && halted(&co);
    stats->interrupted = skipped && (co.stopping || (o->stop && *o->stop));
    if (co.stopping && o->stop)
        *o->stop = 1; /* a worker was signalled: the whole run stops like one process would */
    if (o->progress) {
        fprintf(stderr, "warpsweep run: MPI: %d ranks in %.1f s:", c->size, wall);
        for (int r = 0; r < c->size; r++)
            fprintf(stderr, " rank %d %llu points (%.1f s simulated)%s", r, (unsigned long long)c->points[r], c->sim[r],
                    r + 1 < c->size ? "," : "\n");
    }
    if (co.failed) {
        if (err)
            *err = co.err;
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Entry                                                               */
/* ------------------------------------------------------------------ */

static int on_loaded(void *vctx, ws_sweep **sws, int n, int threads)
{
    mpi_ctx *c = vctx;
    c->sws = sws;
    c->nsweeps = n;
    c->threads = threads;
    c->loaded = 1;
    if (c->rank != 0)
        return worker_loop(c);
    /* every worker says hello (and its sweeps' hashes are checked) before
     * any simulation starts */
    for (;;) {
        int waiting = 0;
        for (int r = 1; r < c->size; r++)
            waiting += c->state[r] == W_NEW;
        if (!waiting)
            break;
        if (!poll_one(c, NULL, NULL))
            nap(500);
    }
    return -1;
}

int ws_mpi_cmd_run(int argc, char **argv)
{
    int provided = 0;
    if (MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
        fprintf(stderr, "warpsweep run: MPI_Init_thread failed\n");
        return WS_EXIT_FAIL;
    }
    mpi_ctx c;
    memset(&c, 0, sizeof c);
    MPI_Comm_rank(MPI_COMM_WORLD, &c.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &c.size);
    gethostname(c.host, sizeof c.host);
    c.host[sizeof c.host - 1] = 0;
    if (provided < MPI_THREAD_FUNNELED)
        die(&c, "this MPI library does not provide MPI_THREAD_FUNNELED (needed: OpenMP threads beside MPI calls)");
    if (c.size == 1) { /* mpirun -np 1: an ordinary run */
        int rc = ws_cmd_run(argc, argv, NULL);
        MPI_Finalize();
        return rc;
    }
    c.state = calloc((size_t)c.size, sizeof *c.state);
    c.wthreads = calloc((size_t)c.size, sizeof *c.wthreads);
    c.points = calloc((size_t)c.size, sizeof *c.points);
    c.sim = calloc((size_t)c.size, sizeof *c.sim);
    ws_run_hooks hooks = {.ctx = &c, .loaded = on_loaded, .drive = c.rank == 0 ? coord_drive : NULL};
    if (c.rank != 0) {
        /* workers print only errors */
        int rc = ws_cmd_run(argc, argv, &hooks);
        if (!c.loaded)
            die(&c, "cannot load the sweep (the message above)");
        MPI_Finalize();
        return rc == WS_EXIT_INTERRUPTED ? WS_EXIT_OK : rc;
    }
    int rc = ws_cmd_run(argc, argv, &hooks);
    /* stop every worker: answer each one's pending message with STOP */
    for (;;) {
        int left = 0;
        for (int r = 1; r < c.size; r++) {
            if (c.state[r] == W_PARKED) {
                MPI_Send(NULL, 0, MPI_BYTE, r, TAG_STOP, MPI_COMM_WORLD);
                c.state[r] = W_STOPPED;
            }
            left += c.state[r] != W_STOPPED;
        }
        if (!left)
            break;
        if (!poll_one(&c, NULL, NULL))
            nap(500);
    }
    free(c.state);
    free(c.wthreads);
    free(c.points);
    free(c.sim);
    free(c.buf);
    MPI_Finalize();
    return rc;
}
#endif
