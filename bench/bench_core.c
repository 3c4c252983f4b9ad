/*
 * bench_core: speed of the cycle-level core (not run by the tests).
 *
 *   build-core/bench_core [SOURCE_DIR]
 *
 * Prints simulated warp instructions per host second, single-threaded, for
 *  - an ALU-bound kernel (64 warps, a 7-instruction independent ALU loop,
 *    scoreboard issue, alu_latency 4: the issue slot is busy every cycle), and
 *  - a memory-bound kernel (sweeps/kernels/latency.ptx, 16 warps, blocking
 *    issue: most cycles nothing can issue and are skipped),
 * and the host-time ratio of the memory-bound run at mem_latency 2000 vs 100
 * (same instructions; event skipping should keep it close to 1), and
 *  - a cache-bound kernel (sweeps/kernels/cachesens.yaml, scoreboard issue,
 *    gto): with a 64 KiB L1 that holds every warp's working set, and with an
 *    8 KiB L1 behind 8 bytes/cycle of DRAM bandwidth (misses, MSHR stalls).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "warpsweep/sim.h"
#include "warpsweep/workload.h"

static const char *alu_ptx =
    ".version 7.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry alu(.param .u64 out, .param .u32 iters)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<16>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n  ld.param.u32 %r1, [iters];\n"
    "  mov.u32 %r2, %tid.x;\n  mov.u32 %r3, 0;\n  mov.u32 %r4, 1;\n  mov.u32 %r5, 2;\n  mov.u32 %r6, 3;\n"
    "$L:\n"
    "  add.s32 %r4, %r4, %r2;\n  xor.b32 %r5, %r5, %r2;\n  mad.lo.s32 %r6, %r6, 3, %r2;\n"
    "  shl.b32 %r7, %r2, 1;\n  add.s32 %r3, %r3, 1;\n  setp.lt.u32 %p1, %r3, %r1;\n  @%p1 bra $L;\n"
    "  add.s32 %r8, %r4, %r5;\n  add.s32 %r8, %r8, %r6;\n  add.s32 %r8, %r8, %r7;\n"
    "  mov.u32 %r9, %ctaid.x;\n  mov.u32 %r10, %ntid.x;\n  mad.lo.s32 %r11, %r9, %r10, %r2;\n"
    "  cvta.to.global.u64 %rd2, %rd1;\n  mul.wide.u32 %rd3, %r11, 4;\n  add.s64 %rd2, %rd2, %rd3;\n"
    "  st.global.u32 [%rd2], %r8;\n  ret;\n}\n";

static const char *alu_yaml =
    "name: bench_alu\nkernel: bench_alu.ptx\nentry: alu\ngrid: 16\nblock: 128\nregs_per_thread: 16\n"
    "buffers:\n  out: {type: u32, count: 2048, init: 0}\nparams: [out, 3000]\n";

static const char *mem_yaml_fmt =
    "name: bench_mem\nkernel: %s/sweeps/kernels/latency.ptx\nentry: latency\ngrid: 16\nblock: 32\n"
    "regs_per_thread: 10\nbuffers:\n  one: {type: u32, count: 1, init: 1}\n"
    "  out: {type: u32, count: 512, init: 0}\nparams: [one, out, 3000]\nexpect:\n  out: 3000\n";

/* cachesens.ptx scaled up for timing: 16 CTAs of 16 warps, each warp re-reading
 * its own 2 KiB slice 32 times. */
static const char *cache_yaml_fmt =
    "name: bench_cache\nkernel: %s/sweeps/kernels/cachesens.ptx\nentry: _Z9cachesensPKjPjii\n"
    "grid: 16\nblock: 512\nregs_per_thread: 33\nbuffers:\n"
    "  in:  {type: u32, count: 131072, init: iota}\n  out: {type: u32, count: 8192, init: 0}\n"
    "params: [in, out, 512, 32]\n";

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f) { perror(path); exit(1); }
    fputs(text, f);
    fclose(f);
}

/* Best of `reps` runs: host seconds; fills *res with the last result. */
static double timed(ws_sim *s, ws_workload *wl, ws_config *cfg, int reps, ws_result *res)
{
    double best = 1e30;
    for (int i = 0; i < reps; i++) {
        double t0 = now_s();
        ws_sim_run(s, wl, cfg, NULL, res);
        double t = now_s() - t0;
        if (t < best) best = t;
        if (res->status != WS_ST_OK) {
            fprintf(stderr, "bench: run failed: %s: %s\n", ws_status_name(res->status), res->message);
            exit(1);
        }
    }
    return best;
}

static void set(ws_config *c, const char *a)
{
    ws_error err;
    if (ws_config_set(c, a, &err) < 0) { fprintf(stderr, "%s\n", err.msg); exit(1); }
}

int main(int argc, char **argv)
{
    const char *src = argc > 1 ? argv[1] : ".";
    char dir[] = "/tmp/ws_bench_XXXXXX";
    if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
    char p_ptx[512], p_alu[512], p_mem[512], text[2048], abs_src[1024];
    if (!realpath(src, abs_src)) { perror(src); return 1; }
    snprintf(p_ptx, sizeof p_ptx, "%s/bench_alu.ptx", dir);
    snprintf(p_alu, sizeof p_alu, "%s/bench_alu.yaml", dir);
    snprintf(p_mem, sizeof p_mem, "%s/bench_mem.yaml", dir);
    write_file(p_ptx, alu_ptx);
    write_file(p_alu, alu_yaml);
    snprintf(text, sizeof text, mem_yaml_fmt, abs_src);
    write_file(p_mem, text);

    ws_error err;
    ws_workload *alu = ws_workload_load(p_alu, &err);
    if (!alu) { fprintf(stderr, "%s\n", err.msg); return 1; }
    ws_workload *mem = ws_workload_load(p_mem, &err);
    if (!mem) { fprintf(stderr, "%s\n", err.msg); return 1; }
    ws_sim *s = ws_sim_new();
    ws_result res;

    for (int div = 0; div < 2; div++) {
        ws_config c;
        ws_config_defaults(&c);
        set(&c, "warps=64");
        set(&c, "issue=scoreboard");
        set(&c, div ? "divergence=sbi" : "divergence=stack");
        double t = timed(s, alu, &c, 3, &res);
        double wi = (double)res.metrics[WS_M_warp_insts].i;
        printf("ALU-bound (%s): %.0f warp insts in %.3f s = %.2f M warp insts/s (issue_utilization %.3f, %lld cycles)\n",
               div ? "sbi" : "stack", wi, t, wi / t / 1e6, res.metrics[WS_M_issue_utilization].f,
               (long long)res.metrics[WS_M_cycles].i);
    }
    double tm[2];
    int lats[2] = {100, 2000};
    for (int i = 0; i < 2; i++) {
        ws_config c;
        ws_config_defaults(&c);
        set(&c, "issue=blocking");
        char a[64];
        snprintf(a, sizeof a, "mem_latency=%d", lats[i]);
        set(&c, a);
        tm[i] = timed(s, mem, &c, 3, &res);
        double wi = (double)res.metrics[WS_M_warp_insts].i;
        printf("memory-bound (mem_latency %d): %.0f warp insts, %lld cycles in %.3f s = %.2f M warp insts/s, %.1f M cycles/s\n",
               lats[i], wi, (long long)res.metrics[WS_M_cycles].i, tm[i], wi / tm[i] / 1e6,
               (double)res.metrics[WS_M_cycles].i / tm[i] / 1e6);
    }
    printf("host-time ratio mem_latency 2000 / 100: %.2f\n", tm[1] / tm[0]);

    char p_cache[512];
    snprintf(p_cache, sizeof p_cache, "%s/bench_cache.yaml", dir);
    snprintf(text, sizeof text, cache_yaml_fmt, abs_src);
    write_file(p_cache, text);
    ws_workload *cache = ws_workload_load(p_cache, &err);
    if (!cache) { fprintf(stderr, "%s\n", err.msg); return 1; }
    const char *l1[2][2] = {{"l1_kb=64", "dram_bw=0"}, {"l1_kb=8", "dram_bw=8"}};
    for (int i = 0; i < 2; i++) {
        ws_config c;
        ws_config_defaults(&c);
        set(&c, "scheduler=gto");
        set(&c, l1[i][0]);
        set(&c, l1[i][1]);
        double t = timed(s, cache, &c, 3, &res);
        double wi = (double)res.metrics[WS_M_warp_insts].i;
        printf("cache-bound (%s, %s): %.0f warp insts in %.3f s = %.2f M warp insts/s (l1_hit_rate %.3f)\n",
               l1[i][0], l1[i][1], wi, t, wi / t / 1e6, res.metrics[WS_M_l1_hit_rate].f);
    }
    ws_workload_free(cache);
    unlink(p_cache);
    ws_sim_free(s);
    ws_workload_free(alu);
    ws_workload_free(mem);
    unlink(p_ptx); unlink(p_alu); unlink(p_mem); rmdir(dir);
    return 0;
}
