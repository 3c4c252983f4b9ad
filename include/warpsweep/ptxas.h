#ifndef WARPSWEEP_PTXAS_H
#define WARPSWEEP_PTXAS_H
/* Registers per thread from NVIDIA's PTX assembler (src/workload/ptxas.c).
 *
 * A workload without regs_per_thread gets the count that `ptxas -v` reports
 * for its entry ("Used N registers"), when a ptxas can be found; the PTX
 * MaxLive estimate (src/ptx/regpressure.c) is not what ptxas allocates (on
 * the test kernels ptxas's count is 0.6-3.9x it, median 1.4x) and usually
 * inflates occupancy (docs/model.md "Registers per thread"). Results are
 * cached on disk, keyed by the PTX text, the entry, the .target and the
 * ptxas version, so a sweep or a repeated run does not invoke ptxas again. */
#include <stddef.h>
#include <stdint.h>

/* Where a workload's regs_per_thread came from. */
typedef enum ws_regs_source {
    WS_REGS_WORKLOAD,   /* the workload file's regs_per_thread */
    WS_REGS_PTXAS,      /* ptxas -v */
    WS_REGS_ESTIMATE,   /* the PTX MaxLive estimate (no ptxas, or it failed) */
} ws_regs_source;

const char *ws_regs_source_name(int source);   /* "workload", "ptxas", "estimate" */

typedef struct ws_ptxas_result {
    uint32_t regs;          /* registers per thread of the entry */
    char gpu[32];           /* the --gpu-name ptxas compiled for */
    int cached;             /* 1: from the disk cache, ptxas not run */
    char note[256];         /* on failure: why; on success: a fallback taken, or "" */
} ws_ptxas_result;

/* The registers ptxas allocates for `entry` of the PTX file `ptx_path`.
 * ptxas is looked for in $WS_PTXAS (a path; set but empty: never use
 * ptxas), PATH, $CUDA_HOME/bin, /usr/local/cuda/bin, the highest
 * /usr/local/cuda-X.Y/bin, /opt/cuda/bin. It compiles for the PTX's
 * .target, or sm_75 when ptxas does not accept that one (res->note says
 * so). Returns 0 with res filled, or -1 with res->note saying why no count
 * was had (not found, ptxas failed with its first error line, ...). Never
 * fails because of the cache: an unreadable or unwritable cache only means
 * that ptxas runs. */
int ws_ptxas_regs(const char *ptx_path, const char *entry, ws_ptxas_result *res);

/* The "Used N registers" count of function `entry` in the text that
 * `ptxas -v` printed, or -1 when the text has none for it. */
int ws_ptxas_parse_regs(const char *output, const char *entry);

/* The first .target of PTX text (comments skipped) into buf, e.g. "sm_75";
 * returns 0, or -1 when there is none. */
int ws_ptx_target(const char *ptx, size_t len, char *buf, size_t bufsize);

#endif
