/* The parallel driver: OpenMP threads take blocks of point indices with a
 * dynamic schedule, each thread reuses one ws_sim, all of them share one
 * cache of transformed kernels and reference runs (kcache.h: each computed
 * once per sweep, not once per thread), and finished rows are
 * handed to the row sink in batches, one batch at a time (critical
 * section), so the sink (the journal) never sees two threads at once. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sweep_internal.h"
#include "warpsweep/kcache.h"

#define BATCH_ROWS 128
#define BATCH_SECONDS 0.5

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void ws_sweep_run_point(const ws_sweep *sw, ws_sim *sim, uint64_t k, ws_row *row)
{
    ws_point pt;
    ws_sweep_point(sw, k, &pt);
    memset(row, 0, sizeof *row);
    row->point = k;
    row->seed = pt.seed;
    row->workload = pt.workload;
    memcpy(row->params, pt.cfg.v, sizeof row->params);
    if (pt.invalid) {
        row->status = WS_ST_INVALID;
        snprintf(row->message, sizeof row->message, "%s", pt.message);
        return;
    }
    const ws_workload *wl = sw->workloads ? sw->workloads[pt.workload] : NULL;
    if (!wl) {
        row->status = WS_ST_ERROR;
        snprintf(row->message, sizeof row->message, "workload %s not loaded", sw->workload_names[pt.workload]);
        return;
    }
    ws_result res;
    memset(&res, 0, sizeof res);
    double t0 = now();
    ws_sim_run(sim, wl, &pt.cfg, NULL, &res);
    row->sim_seconds = now() - t0;
    row->status = res.status;
    memcpy(row->message, res.message, sizeof row->message);
    row->message[sizeof row->message - 1] = 0;
    /* zero the tail so identical runs give identical bytes */
    size_t ml = strlen(row->message);
    memset(row->message + ml, 0, sizeof row->message - ml);
    memcpy(row->metrics, res.metrics, sizeof row->metrics);
}

int ws_points_contain(const uint64_t *done, size_t n, uint64_t k)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (done[mid] < k)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && done[lo] == k;
}

typedef struct shared {
    ws_row_sink *sink;
    ws_drive_stats *stats;
    ws_progress *progress;
    int failed;
    ws_error err;
} shared;

static void flush(shared *sh, ws_row *rows, size_t n)
{
    if (!n)
        return;
#pragma omp critical(ws_row_sink)
    {
        if (!sh->failed) {
            if (sh->sink->write(sh->sink->ctx, rows, n, &sh->err)) {
                __atomic_store_n(&sh->failed, 1, __ATOMIC_RELEASE);
            } else {
                sh->stats->ran += n;
                for (size_t i = 0; i < n; i++)
                    if (rows[i].status >= 0 && rows[i].status < WS_ST_COUNT)
                        sh->stats->by_status[rows[i].status]++;
                if (sh->progress)
                    ws_progress_update(sh->progress, rows, n);
            }
        }
    }
}

int ws_sweep_drive(const ws_sweep *sw, const ws_drive_opts *o, ws_row_sink *sink, ws_drive_stats *stats,
                   ws_error *err)
{
    memset(stats, 0, sizeof *stats);
    int threads = o->threads > 0 ? o->threads : omp_get_num_procs();
    uint64_t n = o->range.n;
    /* blocks of consecutive indices: small enough to balance the tail
     * (points differ in cost by orders of magnitude), large enough that a
     * stop request skips the rest quickly */
    uint64_t block = n / ((uint64_t)threads * 512);
    if (block < 1)
        block = 1;
    if (block > 64)
        block = 64;
    int64_t nblocks = (int64_t)((n + block - 1) / block);
    shared sh = {sink, stats, o->progress, 0, {{0}}};
    int skipped_by_stop = 0;
    ws_kcache *kc = ws_kcache_new();
    if (!kc)
        return ws_fail(err, "out of memory");

#pragma omp parallel num_threads(threads) reduction(| : skipped_by_stop)
    {
        ws_sim *sim = ws_sim_new_shared(kc);
        ws_row *batch = malloc(BATCH_ROWS * sizeof(ws_row));
        size_t nb = 0;
        double last = now();
#pragma omp for schedule(dynamic, 1)
        for (int64_t b = 0; b < nblocks; b++) {
            if (__atomic_load_n(&sh.failed, __ATOMIC_ACQUIRE))
                continue;
            if (o->stop && *o->stop) {
                skipped_by_stop = 1;
                continue;
            }
            uint64_t lo = (uint64_t)b * block, hi = lo + block < n ? lo + block : n;
            for (uint64_t i = lo; i < hi; i++) {
                if (o->stop && *o->stop) {
                    skipped_by_stop = 1;
                    break;
                }
                uint64_t k = o->range.first + i * o->range.stride;
                if (o->ndone && ws_points_contain(o->done, o->ndone, k))
                    continue;
                ws_sweep_run_point(sw, sim, k, &batch[nb++]);
                double t = now();
                if (nb == BATCH_ROWS || t - last >= BATCH_SECONDS) {
                    flush(&sh, batch, nb);
                    nb = 0;
                    last = t;
                }
            }
        }
        flush(&sh, batch, nb);
        free(batch);
        ws_sim_free(sim);
    }
    ws_kcache_free(kc);
    stats->interrupted = skipped_by_stop;
    if (sh.failed) {
        if (err)
            *err = sh.err;
        return -1;
    }
    return 0;
}
