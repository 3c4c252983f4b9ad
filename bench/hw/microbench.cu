// Hardware microbenchmarks for the model's constants (issue 43): memory latencies by pointer chase
// (L1, L2, DRAM, shared; unloaded and with streaming warps beside), streaming bandwidth, the
// dependent-issue latency of instructions and of ptxas's expansions, and the costs of a launch
// (start, CTA dispatch, drain). One binary, one TSV line per figure on stdout:
//     name <TAB> value <TAB> unit <TAB> detail
// Build and run: bench/hw/run.sh (nvcc -O3 -arch=sm_XX). Method per figure in README.md.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

static void out(const char *name, double v, const char *unit, const char *detail)
{
    printf("%s\t%.4f\t%s\t%s\n", name, v, unit, detail);
    fflush(stdout);
}

__device__ __forceinline__ uint64_t gtimer()
{
    uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

// ---- pointer chase: one thread follows next[] `steps` times; cycles and ns per load ----------
// `.cg` (L2, bypassing L1) or default caching, chosen by the template parameter.
template <int CG>
__global__ void chase(const uint32_t *next, uint32_t start, int steps, uint64_t *res)
{
    uint32_t p = start;
    for (int i = 0; i < 64; i++) p = CG ? __ldcg(next + p) : next[p];   // warm: TLB, caches
    uint64_t t0 = clock64(), g0 = gtimer();
    for (int i = 0; i < steps; i++) p = CG ? __ldcg(next + p) : next[p];
    uint64_t t1 = clock64(), g1 = gtimer();
    res[0] = t1 - t0;
    res[1] = g1 - g0;
    res[2] = p;     // keeps the chain live
}

// The same chase while `streamers` other warps of other CTAs read a large buffer (loaded latency).
__global__ void chase_loaded(const uint32_t *next, uint32_t start, int steps, uint64_t *res,
                             const float4 *big, size_t nbig, float *sink, volatile int *stop)
{
    if (blockIdx.x == 0) {
        if (threadIdx.x != 0) return;
        uint32_t p = start;
        for (int i = 0; i < 64; i++) p = __ldcg(next + p);
        uint64_t t0 = clock64(), g0 = gtimer();
        for (int i = 0; i < steps; i++) p = __ldcg(next + p);
        uint64_t t1 = clock64(), g1 = gtimer();
        res[0] = t1 - t0;
        res[1] = g1 - g0;
        res[2] = p;
        *stop = 1;
        return;
    }
    float acc = 0.f;
    size_t i = (size_t)(blockIdx.x - 1) * blockDim.x + threadIdx.x, n = (size_t)(gridDim.x - 1) * blockDim.x;
    while (!*stop) {
        for (int k = 0; k < 64; k++, i += n) {
            if (i >= nbig) i -= nbig;
            float4 v = __ldcg(big + i);
            acc += v.x + v.y + v.z + v.w;
        }
    }
    if (acc == 12345.f) *sink = acc;
}

__global__ void chase_shared(int steps, uint32_t stride_words, uint64_t *res)
{
    __shared__ uint32_t s[8192];
    for (uint32_t i = threadIdx.x; i < 8192; i += blockDim.x) s[i] = (i + stride_words) % 8192;
    __syncthreads();
    if (threadIdx.x) return;
    uint32_t p = 0;
    for (int i = 0; i < 64; i++) p = s[p];
    uint64_t t0 = clock64();
    for (int i = 0; i < steps; i++) p = s[p];
    uint64_t t1 = clock64();
    res[0] = t1 - t0;
    res[2] = p;
}

// A random cyclic permutation over `n` slots `stride` words apart (no hardware prefetch to find).
static std::vector<uint32_t> ring(size_t words, size_t stride, uint32_t *start)
{
    size_t n = words / stride;
    std::vector<uint32_t> order(n), next(words, 0);
    for (size_t i = 0; i < n; i++) order[i] = (uint32_t)(i * stride);
    srand(12345);
    for (size_t i = n - 1; i > 0; i--) std::swap(order[i], order[(size_t)rand() % (i + 1)]);
    for (size_t i = 0; i < n; i++) next[order[i]] = order[(i + 1) % n];
    *start = order[0];
    return next;
}

static void chase_at(const char *name, size_t bytes, size_t stride_bytes, int cg, int steps)
{
    uint32_t start;
    std::vector<uint32_t> h = ring(bytes / 4, stride_bytes / 4, &start);
    uint32_t *d;
    uint64_t *res, hr[3];
    CK(cudaMalloc(&d, bytes));
    CK(cudaMalloc(&res, 3 * sizeof(uint64_t)));
    CK(cudaMemcpy(d, h.data(), bytes, cudaMemcpyHostToDevice));
    if (cg) chase<1><<<1, 1>>>(d, start, steps, res);
    else chase<0><<<1, 1>>>(d, start, steps, res);
    CK(cudaMemcpy(hr, res, sizeof hr, cudaMemcpyDeviceToHost));
    char det[160];
    snprintf(det, sizeof det, "footprint %zu B, stride %zu B, %s, %d loads", bytes, stride_bytes, cg ? "ld.cg" : "ld.ca", steps);
    char n2[96];
    snprintf(n2, sizeof n2, "%s_cycles", name);
    out(n2, (double)hr[0] / steps, "cycles", det);
    snprintf(n2, sizeof n2, "%s_ns", name);
    out(n2, (double)hr[1] / steps, "ns", det);
    CK(cudaFree(d));
    CK(cudaFree(res));
}

static void chase_under_load(size_t bytes, int streamer_ctas)
{
    uint32_t start;
    std::vector<uint32_t> h = ring(bytes / 4, 32, &start);
    uint32_t *d;
    uint64_t *res, hr[3];
    float4 *big;
    float *sink;
    int *stop;
    size_t nbig = (size_t)1 << 26;   // 1 GiB of float4
    CK(cudaMalloc(&d, bytes));
    CK(cudaMalloc(&res, 3 * sizeof(uint64_t)));
    CK(cudaMalloc(&big, nbig * sizeof(float4)));
    CK(cudaMemset(big, 0, nbig * sizeof(float4)));
    CK(cudaMalloc(&sink, 4));
    CK(cudaMalloc(&stop, 4));
    CK(cudaMemset(stop, 0, 4));
    CK(cudaMemcpy(d, h.data(), bytes, cudaMemcpyHostToDevice));
    chase_loaded<<<1 + streamer_ctas, 256>>>(d, start, 4096, res, big, nbig, sink, stop);
    CK(cudaMemcpy(hr, res, sizeof hr, cudaMemcpyDeviceToHost));
    char det[160];
    snprintf(det, sizeof det, "DRAM chase (%zu B, stride 32 B, ld.cg) beside %d streaming CTAs x 256 threads", bytes,
             streamer_ctas);
    out("dram_loaded_cycles", (double)hr[0] / 4096, "cycles", det);
    out("dram_loaded_ns", (double)hr[1] / 4096, "ns", det);
    CK(cudaFree(d)); CK(cudaFree(res)); CK(cudaFree(big)); CK(cudaFree(sink)); CK(cudaFree(stop));
}

// ---- streaming bandwidth: a grid-stride copy and a read-only sum ------------------------------
__global__ void copy4(const float4 *a, float4 *b, size_t n)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        b[i] = a[i];
}

__global__ void read4(const float4 *a, size_t n, float *sink)
{
    float acc = 0.f;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        float4 v = a[i];
        acc += v.x + v.y + v.z + v.w;
    }
    if (acc == 12345.f) *sink = acc;
}

static void bandwidth(int sms)
{
    size_t n = (size_t)1 << 26;   // 1 GiB per buffer
    float4 *a, *b;
    float *sink;
    CK(cudaMalloc(&a, n * sizeof(float4)));
    CK(cudaMalloc(&b, n * sizeof(float4)));
    CK(cudaMalloc(&sink, 4));
    CK(cudaMemset(a, 0, n * sizeof(float4)));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    // ms of the last of `reps` passes of launch() (the first passes warm up)
    auto timed = [&](int reps, auto launch) {
        float ms = 0;
        for (int rep = 0; rep < reps; rep++) {
            CK(cudaEventRecord(e0));
            launch();
            CK(cudaEventRecord(e1));
            CK(cudaEventSynchronize(e1));
        }
        CK(cudaEventElapsedTime(&ms, e0, e1));
        return ms;
    };
    float ms = timed(2, [&] { copy4<<<sms * 8, 256>>>(a, b, n); });
    out("dram_copy_bw", 2.0 * n * sizeof(float4) / (ms * 1e-3) / 1e9, "GB/s", "copy 1 GiB -> 1 GiB, bytes read + written");
    ms = timed(2, [&] { read4<<<sms * 8, 256>>>(a, n, sink); });
    out("dram_read_bw", 1.0 * n * sizeof(float4) / (ms * 1e-3) / 1e9, "GB/s", "read 1 GiB");
    size_t nl2 = (size_t)1 << 20;   // 16 MiB: L2-resident on V100 (6 MiB: no), A100 (40), H100 (50)
    ms = timed(3, [&] { for (int k = 0; k < 10; k++) read4<<<sms * 8, 256>>>(a, nl2, sink); });
    out("l2_read_bw", 10.0 * nl2 * sizeof(float4) / (ms * 1e-3) / 1e9, "GB/s", "read 16 MiB 10x (L2-resident where the L2 holds it)");
    CK(cudaFree(a)); CK(cudaFree(b)); CK(cudaFree(sink));
}

// ---- instruction latency: a dependent chain of 256 operations in one thread --------------------
#define CHAIN(NAME, T, OP)                                                                             \
    __global__ void lat_##NAME(T *io, uint64_t *res)                                                  \
    {                                                                                                  \
        T x = io[0], y = io[1];                                                                        \
        (void)y;                                                                                       \
        uint64_t t0 = clock64();                                                                       \
        _Pragma("unroll") for (int i = 0; i < 256; i++) { OP; }                                        \
        uint64_t t1 = clock64();                                                                       \
        io[2] = x;                                                                                     \
        res[0] = t1 - t0;                                                                              \
    }
CHAIN(fadd, float, x = x + y)
CHAIN(ffma, float, x = fmaf(x, y, 0.5f))
CHAIN(imad, uint32_t, x = x * y + 7u)
CHAIN(fdiv_rn, float, x = __fdiv_rn(y, x) + 1.0f)
CHAIN(fsqrt_rn, float, x = __fsqrt_rn(x) + 1.0f)
CHAIN(frcp_rn, float, x = __frcp_rn(x) + 1.0f)
CHAIN(ex2_approx, float, x = exp2f(x * 0.001f))
CHAIN(rsqrt_approx, float, x = rsqrtf(x) + 1.0f)
CHAIN(dfma, double, x = fma(x, y, 0.5))
CHAIN(ddiv_rn, double, x = __ddiv_rn(y, x) + 1.0)
CHAIN(dsqrt_rn, double, x = __dsqrt_rn(x) + 1.0)
CHAIN(udiv, uint32_t, x = (x + 1000003u) / (y | 1u))
CHAIN(sdiv, int32_t, x = (x + 1000003) / (y | 1))
CHAIN(mul64, uint64_t, x = x * y + 1ull)

template <typename T>
static void lat(const char *name, void (*k)(T *, uint64_t *), T a, T b, const char *detail)
{
    T *io;
    uint64_t *res, c;
    CK(cudaMalloc(&io, 3 * sizeof(T)));
    CK(cudaMalloc(&res, sizeof(uint64_t)));
    T h[3] = {a, b, a};
    CK(cudaMemcpy(io, h, sizeof h, cudaMemcpyHostToDevice));
    k<<<1, 1>>>(io, res);   // warm the instruction cache
    k<<<1, 1>>>(io, res);
    CK(cudaMemcpy(&c, res, sizeof c, cudaMemcpyDeviceToHost));
    char n2[96];
    snprintf(n2, sizeof n2, "lat_%s", name);
    out(n2, (double)c / 256, "cycles", detail);
    CK(cudaFree(io));
    CK(cudaFree(res));
}

// ---- launch costs ----------------------------------------------------------------------------------
// Each CTA records %globaltimer at its start (thread 0) and end; the host times the launch with
// events. A grid of X empty-ish CTAs: event time = a + X b (a: launch start + drain, b: per CTA
// beyond what fits at once); first-CTA start after the previous kernel's end, and the spread of
// CTA start times within one wave (the dispatch rate).
__global__ void stamp(uint64_t *t)
{
    if (threadIdx.x == 0) t[2 * blockIdx.x] = gtimer();
    __syncthreads();
    if (threadIdx.x == 0) t[2 * blockIdx.x + 1] = gtimer();
}

__global__ void marker(uint64_t *t) { if (threadIdx.x == 0) *t = gtimer(); }

static void launch_costs(int sms)
{
    const int maxx = sms * 64;
    uint64_t *t, *m;
    CK(cudaMalloc(&t, 2 * (size_t)maxx * sizeof(uint64_t)));
    CK(cudaMalloc(&m, sizeof(uint64_t)));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    std::vector<uint64_t> h(2 * (size_t)maxx);
    const int xs[] = {1, sms, 2 * sms, 8 * sms, 32 * sms, 64 * sms};
    for (int x : xs) {
        float best = 1e30f;
        for (int rep = 0; rep < 20; rep++) {
            CK(cudaEventRecord(e0));
            stamp<<<x, 128>>>(t);
            CK(cudaEventRecord(e1));
            CK(cudaEventSynchronize(e1));
            float ms;
            CK(cudaEventElapsedTime(&ms, e0, e1));
            best = std::min(best, ms);
        }
        char det[128];
        snprintf(det, sizeof det, "%d CTAs x 128 threads, one __syncthreads each, min of 20 event-timed launches", x);
        char n2[64];
        snprintf(n2, sizeof n2, "launch_event_us_%d", x);
        out(n2, best * 1e3, "us", det);
        // gap between a marker kernel's end and this grid's first CTA, and the CTA start spread
        marker<<<1, 32>>>(m);
        stamp<<<x, 128>>>(t);
        CK(cudaDeviceSynchronize());
        uint64_t hm;
        CK(cudaMemcpy(&hm, m, sizeof hm, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(h.data(), t, 2 * (size_t)x * sizeof(uint64_t), cudaMemcpyDeviceToHost));
        uint64_t first = UINT64_MAX, last_start = 0, last_end = 0;
        for (int i = 0; i < x; i++) {
            first = std::min(first, h[2 * i]);
            last_start = std::max(last_start, h[2 * i]);
            last_end = std::max(last_end, h[2 * i + 1]);
        }
        snprintf(n2, sizeof n2, "launch_gap_ns_%d", x);
        out(n2, (double)(first - hm), "ns", "previous kernel's last instruction to this grid's first CTA start (stream order)");
        snprintf(n2, sizeof n2, "cta_start_spread_ns_%d", x);
        out(n2, (double)(last_start - first), "ns", "first to last CTA start");
        snprintf(n2, sizeof n2, "cta_span_ns_%d", x);
        out(n2, (double)(last_end - first), "ns", "first CTA start to last CTA end");
    }
    CK(cudaFree(t));
    CK(cudaFree(m));
}

int main()
{
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    int clk_khz = 0;
    cudaDeviceGetAttribute(&clk_khz, cudaDevAttrClockRate, 0);
    char det[256];
    snprintf(det, sizeof det, "%s, sm_%d%d, %d SMs, L2 %d B", p.name, p.major, p.minor, p.multiProcessorCount, p.l2CacheSize);
    out("device_max_clock_mhz", clk_khz / 1000.0, "MHz", det);
    const int sms = p.multiProcessorCount;
    chase_at("l1_hit", 16 << 10, 128, 0, 4096);
    chase_at("l2_hit", (size_t)4 << 20, 128, 1, 4096);
    chase_at("dram", (size_t)1 << 30, 4096, 1, 4096);
    chase_at("dram_tlb_near", (size_t)256 << 20, 128, 1, 4096);
    chase_under_load((size_t)1 << 30, sms * 4);
    {
        uint64_t *res, hr[3];
        CK(cudaMalloc(&res, 3 * sizeof(uint64_t)));
        chase_shared<<<1, 256>>>(4096, 33, res);
        CK(cudaMemcpy(hr, res, sizeof hr, cudaMemcpyDeviceToHost));
        out("smem_cycles", (double)hr[0] / 4096, "cycles", "ld.shared chase, one thread");
        CK(cudaFree(res));
    }
    bandwidth(sms);
    lat<float>("fadd", lat_fadd, 1.0f, 1e-7f, "x = x + y");
    lat<float>("ffma", lat_ffma, 1.0f, 0.5f, "x = fma(x, y, 0.5)");
    lat<uint32_t>("imad", lat_imad, 3u, 5u, "x = x * y + 7");
    lat<float>("fdiv_rn", lat_fdiv_rn, 1.5f, 3.0f, "x = y / x + 1 (div.rn.f32 + fadd)");
    lat<float>("fsqrt_rn", lat_fsqrt_rn, 2.0f, 0.f, "x = sqrt(x) + 1 (sqrt.rn.f32 + fadd)");
    lat<float>("frcp_rn", lat_frcp_rn, 2.0f, 0.f, "x = 1/x + 1 (rcp.rn.f32 + fadd)");
    lat<float>("ex2_approx", lat_ex2_approx, 1.0f, 0.f, "x = exp2(x * 0.001) (fmul + ex2.approx)");
    lat<float>("rsqrt_approx", lat_rsqrt_approx, 2.0f, 0.f, "x = rsqrt(x) + 1 (rsqrt.approx + fadd)");
    lat<double>("dfma", lat_dfma, 1.0, 0.5, "x = fma(x, y, 0.5) f64");
    lat<double>("ddiv_rn", lat_ddiv_rn, 1.5, 3.0, "x = y / x + 1 (div.rn.f64 + dadd)");
    lat<double>("dsqrt_rn", lat_dsqrt_rn, 2.0, 0.0, "x = sqrt(x) + 1 (sqrt.rn.f64 + dadd)");
    lat<uint32_t>("udiv", lat_udiv, 3u, 7u, "x = (x + c) / (y | 1) (div.u32 + iadd)");
    lat<int32_t>("sdiv", lat_sdiv, 3, 7, "x = (x + c) / (y | 1) (div.s32 + iadd)");
    lat<uint64_t>("mul64", lat_mul64, 3ull, 5ull, "x = x * y + 1 (mul.lo.u64 + add.u64)");
    launch_costs(sms);
    return 0;
}
