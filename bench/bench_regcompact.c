/* Load time of register compaction (src/ptx/regcompact.c): loads a PTX file
 * and times ws_ptx_load (decode, CFG, uniformity, compaction) and then
 * ws_reg_compact alone, repeated. A benchmark, not a test.
 *
 *   build/bench_regcompact FILE.ptx [ENTRY] [REPEATS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "warpsweep/ptx.h"
#include "warpsweep/passes.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: %s FILE.ptx [ENTRY] [REPEATS]\n", argv[0]); return 2; }
    const char *entry = argc > 2 && argv[2][0] ? argv[2] : NULL;
    int reps = argc > 3 ? atoi(argv[3]) : 20;
    if (reps < 1) reps = 1;
    ws_error err;
    double t0 = now();
    ws_kernel *k = ws_ptx_load(argv[1], entry, &err);
    double t1 = now();
    if (!k) { fprintf(stderr, "%s\n", err.msg); return 1; }
    for (int i = 0; i < reps; i++)
        if (ws_reg_compact(k)) { fprintf(stderr, "out of memory\n"); return 1; }
    double t2 = now();
    printf("%s: %u instructions, %u blocks, %u registers declared, %u rows after compaction\n", k->name, k->ninsts,
           k->nblocks, k->nregs, k->nslots);
    printf("ws_ptx_load %.3f ms, ws_reg_compact %.3f ms (mean of %d)\n", 1e3 * (t1 - t0), 1e3 * (t2 - t1) / reps, reps);
    ws_kernel_free(k);
    return 0;
}
