#ifndef WARPSWEEP_SIM_H
#define WARPSWEEP_SIM_H
/* Running one launch: the MIMD reference execution and the cycle-level
 * SIMT core. */
#include <stdio.h>
#include "params.h"
#include "workload.h"

typedef enum ws_status {
    WS_ST_OK,        /* finished, expectations hold */
    WS_ST_DEADLOCK,  /* proven that no thread can make progress again */
    WS_ST_TIMEOUT,   /* max_cycles reached without such a proof */
    WS_ST_INVALID,   /* the configuration cannot run the workload */
    WS_ST_MISMATCH,  /* expect checks failed */
    WS_ST_ERROR,     /* the kernel faulted */
    WS_ST_STARVED,   /* proven that the scheduling policy never again issues a
                        warp that could make progress (not a program deadlock) */
    WS_ST_COUNT
} ws_status;

const char *ws_status_name(int status);  /* "ok", "deadlock", ... */

typedef struct ws_result {
    int status;
    char message[WS_ERROR_LEN];
    ws_value metrics[WS_NMETRICS];
} ws_result;

/* Which issues --trace and --timeline record: a cycle window and a set of
 * warps (slots within a core) and cores, so that a long run can be looked
 * at in part. */
typedef struct ws_trace_filter {
    uint64_t from, to;        /* cycles from <= cycle < to */
    const uint8_t *warps;     /* bitmap over warp slots (bit w of byte w/8), or NULL: every warp */
    const uint8_t *cores;     /* bitmap over cores, or NULL: every core */
    uint32_t nwarp_bits, ncore_bits;
} ws_trace_filter;

typedef struct ws_run_opts {
    FILE *trace;          /* --trace: CSV row per issued instruction, or NULL */
    FILE *timeline;       /* --timeline: ASCII timeline, or NULL */
    const ws_trace_filter *filter;   /* of trace and timeline, or NULL: everything */
    int dump_buffer;      /* --dump: buffer index to print after the run, or -1 */
    FILE *dump_out;
    const char *dump_path; /* --dump BUF=FILE: write it there (ws_buffer_save; an error: one line on stderr) */
} ws_run_opts;

/* A reusable simulation: keeps its buffers between runs, so an OpenMP
 * thread running many points allocates only when a point needs more than
 * the previous one. Not shared between threads. Transformed kernels and
 * reference runs (for `expect: reference`) come from a kernel cache
 * (kcache.h): the sweep's, shared by its threads (ws_sim_new_shared), or a
 * private one (ws_sim_new); entries are keyed by the workload (pointer,
 * kernel, path), seed, warp size and pass settings: a workload must not be
 * freed and another loaded in its place while a ws_sim that ran it is used. */
typedef struct ws_sim ws_sim;
ws_sim *ws_sim_new(void);
void ws_sim_free(ws_sim *s);

/* Runs wl under cfg cycle by cycle and fills res (status, message, every
 * metric). Never aborts: every outcome is a status. opts may be NULL.
 * A workload with a launch sequence runs it on one memory image; the
 * metrics are the totals (docs/model.md "Kernel boundaries"). */
void ws_sim_run(ws_sim *s, const ws_workload *wl, const ws_config *cfg,
                const ws_run_opts *opts, ws_result *res);

/* One launch of the last ws_sim_run: where it sits in the sequence and
 * what it did. */
typedef struct ws_launch_stats {
    uint32_t stmt;          /* index of the launch statement in wl->stmts */
    uint32_t launch;        /* index into wl->launches */
    uint64_t iteration;     /* iteration of its innermost loop (0 outside loops) */
    const char *name;       /* the statement's name (entry by default), owned by the workload */
    uint64_t start, cycles; /* start cycle and duration (end - start) */
    uint64_t ctas, warp_insts, thread_insts;
    uint64_t steady_cycles; /* cycles of this launch in the steady state */
    double steady_ipc, tail_fraction;
    double sampled;         /* fraction of the launch simulated in detail (1 = full) */
    int status;             /* ws_status of the run after this launch (-1 while it ran on: ok so far) */
} ws_launch_stats;
/* The launches of the last ws_sim_run on s, in the order they ran (*n of
 * them; a launch that failed to start is not listed). Valid until the next
 * ws_sim_run on s or ws_sim_free. */
const ws_launch_stats *ws_sim_launches(const ws_sim *s, uint32_t *n);

/* Occupancy of one core (src/sim/occupancy.c): the resource that limits
 * resident CTAs, as the occupancy_limit metric reports it. */
typedef enum ws_occ_limit {
    WS_OCC_WARPS,      /* warp slots */
    WS_OCC_REGISTERS,  /* register file */
    WS_OCC_SMEM,       /* shared memory */
    WS_OCC_MAX_CTAS,   /* the max_ctas parameter */
    WS_OCC_GRID,       /* the grid has fewer CTAs per core than the core could hold */
    WS_OCC_COUNT
} ws_occ_limit;
/* "warps", "registers", "smem", "max_ctas", "grid" (the metric's labels). */
const char *ws_occupancy_limit_name(int64_t limit);

typedef struct ws_occupancy {
    uint32_t warps_per_cta;
    uint32_t ctas_per_core;   /* 0 when one CTA does not fit */
    int limit;                /* ws_occ_limit */
    int fits;                 /* 0: the point is invalid; why says which resource and by how much */
    char why[WS_ERROR_LEN];
} ws_occupancy;
/* Occupancy of workload wl (kernel k: wl->kernel or a transformed copy)
 * under cfg; nothing is run. */
void ws_occupancy_compute(const ws_workload *wl, const ws_kernel *k, const ws_config *cfg, ws_occupancy *o);
/* The same for one launch l of a sequence. */
void ws_occupancy_launch(const ws_launch_spec *l, const ws_kernel *k, const ws_config *cfg, ws_occupancy *o);

/* The MIMD reference: every thread runs independently in a fixed
 * round-robin order, meeting only at CTA barriers and warp-level
 * operations. Fills mem (initialised from seed) with the final state and
 * res with status and instruction counts. */
void ws_reference_run(const ws_workload *wl, uint64_t seed, uint32_t warp_size,
                      uint64_t max_steps, ws_memimage *mem, ws_result *res);
/* The same in lock-step mode (reference.c, lockstep_turn): the threads of a
 * warp at one PC take their turn together; the outcome of a race-free kernel
 * is the same, several times faster (docs/sampling.md). */
void ws_reference_run_lockstep(const ws_workload *wl, uint64_t seed, uint32_t warp_size,
                               uint64_t max_steps, ws_memimage *mem, ws_result *res);
/* The MIMD reference with one ws_exec_inst per thread turn (no grouped turns,
 * docs/model.md "The MIMD reference's thread groups"): the same order and
 * outcome as ws_reference_run, slower; the check of the grouping. */
void ws_reference_run_single(const ws_workload *wl, uint64_t seed, uint32_t warp_size,
                             uint64_t max_steps, ws_memimage *mem, ws_result *res);

/* One launch of the reference on an existing memory image (mem: from
 * ws_memimage_init, possibly after earlier launches): the CTAs with linear
 * ids [cta_first, cta_end) of the grid run, all resident at once, as
 * ws_reference_run runs them. res gets status, message, thread_insts and
 * warp_insts (those of this launch). ws_reference_run follows the workload's
 * sequence with it (ws_sequence_run), max_steps over the whole sequence. */
typedef struct ws_ref_launch {
    const ws_kernel *kernel;
    uint32_t grid[3], block[3];
    const uint8_t *param_buf;
    uint32_t param_bytes;
    uint32_t dyn_shared_bytes;
    uint64_t cta_first, cta_end;    /* linear CTA ids run: [first, end) */
    int lockstep;                   /* 1: lock-step turns (ws_reference_run_lockstep) */
    int single_turns;               /* 1: one thread per turn, never grouped (ws_reference_run_single) */
} ws_ref_launch;
void ws_reference_launch(const ws_ref_launch *l, uint32_t warp_size, uint64_t max_steps,
                         ws_memimage *mem, ws_result *res);

#endif
