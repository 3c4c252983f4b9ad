#ifndef WS_RUN_HOOKS_H
#define WS_RUN_HOOKS_H
/* Seams of `warpsweep run` for the MPI driver (mpi_run.c): the same command
 * line, the same resume/journal/HDF5/signal handling on rank 0, with the
 * OpenMP driver replaced by the MPI coordinator, and the other ranks turned
 * into workers right after the sweeps are loaded. */
#include "warpsweep/sweep.h"

typedef struct ws_run_hooks {
    void *ctx;
    /* Called once the sweeps are loaded and checked (every rank). Returns -1
     * to run them here (rank 0), or the exit code (workers: after serving). */
    int (*loaded)(void *ctx, ws_sweep **sws, int n, int threads);
    /* Replaces ws_sweep_drive (same contract). */
    int (*drive)(void *ctx, const ws_sweep *sw, const ws_drive_opts *o, ws_row_sink *sink, ws_drive_stats *stats,
                 ws_error *err);
} ws_run_hooks;

/* `warpsweep run` with hooks (NULL: the single-process run). */
int ws_cmd_run(int argc, char **argv, const ws_run_hooks *hooks);

/* 1 when this process was started by an MPI launcher (mpirun, srun with
 * PMI/PMIx) and MPI is built in; WS_MPI=0 in the environment says no. */
int ws_mpi_launched(void);
/* `warpsweep run` across MPI ranks (mpi_run.c). */
int ws_mpi_cmd_run(int argc, char **argv);
#endif
