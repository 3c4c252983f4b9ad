#ifndef WARPSWEEP_SHARD_H
#define WARPSWEEP_SHARD_H
/* Shards of a sweep (SLURM job arrays) and merging their files
 * (docs/cluster.md).
 *
 * Shard K of N holds the points whose index is K mod N (interleaved, so the
 * costly regions of a grid spread over every task). A shard file is an
 * ordinary results file with three more root attributes: shard_index (K),
 * shard_count (N) and shard_points (how many points the shard holds). */
#include <stdint.h>
#include "error.h"
#include "sweep.h"

typedef struct ws_shard {
    uint64_t k, n;      /* n == 0: not sharded */
} ws_shard;

/* Parses "K/N" (0 <= K < N) or "auto": K = (SLURM_ARRAY_TASK_ID -
 * SLURM_ARRAY_TASK_MIN) / SLURM_ARRAY_TASK_STEP, N = SLURM_ARRAY_TASK_COUNT
 * (from the environment). */
int ws_shard_parse(const char *arg, ws_shard *s, ws_error *err);
/* The point indices of shard s of a sweep of count points ({0, 1, count}
 * when not sharded). */
ws_point_range ws_shard_range(const ws_shard *s, uint64_t count);
/* Writes the shard attributes into an existing results file. */
int ws_store_set_shard(const char *path, const ws_shard *s, uint64_t shard_points, ws_error *err);
/* Reads them: returns 0 and fills s (n = 0 when the file is not a shard). */
int ws_store_get_shard(const char *path, ws_shard *s, ws_error *err);
/* Before resuming path as shard s: fails when the file is another shard
 * (or not a shard). A file that cannot be read is left to the caller. */
int ws_store_check_shard(const char *path, const ws_shard *s, ws_error *err);

typedef struct ws_merge_opts {
    int allow_partial;   /* write what is there, report what is missing */
    int force;           /* overwrite the output */
    FILE *report;        /* where the missing/duplicate report goes (stderr) */
} ws_merge_opts;

typedef struct ws_merge_result {
    uint64_t points_total;   /* points of the sweep */
    uint64_t rows;           /* rows written */
    uint64_t missing;        /* point indices in no shard file */
    uint64_t duplicated;     /* point indices in more than one shard file */
    uint64_t shards_missing; /* shard indices with no file */
} ws_merge_result;

/* Merges shard files into out: checks that every input comes from the same
 * sweep (hash) and the same shard count, that no shard is given twice, and
 * reports missing and duplicated point indices. Refuses (-1) when points
 * are missing unless allow_partial, and always when a point is duplicated
 * or a file comes from another sweep. The output is built like a run's
 * (journal -> HDF5, atomically) so it equals a single-process run. */
int ws_store_merge(const char *out, const char *const *inputs, int ninputs, const ws_merge_opts *o,
                   ws_merge_result *res, ws_error *err);

#endif
