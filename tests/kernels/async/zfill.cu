// nvcc-flags: -arch=sm_80 -O3
// cp.async operand forms (issue 40): a src-size in a register (every size 0..16, as
// cuda::memcpy_async-style zero-padding pipelines pass it), the ignore-src predicate, and
// .L2::cache_hint with a cache policy after either. Each destination is first filled with
// 0xdeadbeef, so a byte that is not zero-filled shows. Expected values: expected.py (PTX ISA
// 9.7.9.25: src-size bytes copied, the rest of cp-size zero; ignore-src true: all zero).
#include <cstdint>
__device__ __forceinline__ unsigned sptr(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }
extern "C" __global__ void zfill(const unsigned *in, const int *sz, unsigned *out)
{
    __shared__ __align__(16) unsigned s[4][128];
    int t = threadIdx.x;
    for (int i = t; i < 4 * 128; i += 32) (&s[0][0])[i] = 0xdeadbeef;
    __syncthreads();
    int n = sz[t];
    uint64_t pol;
    asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(pol));
    // A: 16 bytes, src-size n (0..16) in a register
    asm volatile("cp.async.ca.shared.global [%0], [%1], 16, %2;" ::"r"(sptr(&s[0][4 * t])), "l"(&in[4 * t]), "r"(n) : "memory");
    // B: 16 bytes (.cg), ignore-src = (n % 3 == 0)
    asm volatile("{\n .reg .pred p;\n setp.eq.s32 p, %2, 0;\n cp.async.cg.shared.global [%0], [%1], 16, p;\n}"
                 ::"r"(sptr(&s[1][4 * t])), "l"(&in[128 + 4 * t]), "r"(n % 3) : "memory");
    // C: 8 bytes with a cache hint, src-size n % 9
    asm volatile("cp.async.ca.shared.global.L2::cache_hint [%0], [%1], 8, %2, %3;"
                 ::"r"(sptr(&s[2][2 * t])), "l"(&in[256 + 2 * t]), "r"(n % 9), "l"(pol) : "memory");
    // D: 16 bytes (.cg) with a cache hint and a prefetch size, ignore-src = (n odd)
    asm volatile("{\n .reg .pred p;\n setp.ne.s32 p, %2, 0;\n"
                 " cp.async.cg.shared.global.L2::cache_hint.L2::128B [%0], [%1], 16, p, %3;\n}"
                 ::"r"(sptr(&s[3][4 * t])), "l"(&in[384 + 4 * t]), "r"(n & 1), "l"(pol) : "memory");
    asm volatile("cp.async.commit_group;\ncp.async.wait_group 0;" ::: "memory");
    __syncthreads();
    for (int k = 0; k < 4; k++) out[4 * t + k] = s[0][4 * t + k];
    for (int k = 0; k < 4; k++) out[128 + 4 * t + k] = s[1][4 * t + k];
    for (int k = 0; k < 2; k++) out[256 + 2 * t + k] = s[2][2 * t + k];
    for (int k = 0; k < 4; k++) out[320 + 4 * t + k] = s[3][4 * t + k];
}
