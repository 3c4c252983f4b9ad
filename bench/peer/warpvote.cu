// warpvote: warp-level shuffle and vote. Each round every lane hashes its
// value, the warp votes on the low bit (__ballot_sync, popcount), checks
// __any_sync / __all_sync on a threshold and rotates values one lane with an
// indexed shfl.sync; lane sums are combined with a butterfly shfl.sync
// at the end, and lane 0 stores the warp's result.
//
// The shuffles are inline PTX without the optional predicate destination:
// nvcc's __shfl_*_sync emit `shfl.sync.MODE.b32 %r|%p, ...`, which GPGPU-Sim
// 4.2 (instructions.cc, shfl_impl) executes wrongly, so its host check failed;
// the plain `shfl.sync.MODE.b32 %r, ...` form (PTX ISA, shfl.sync) is the same
// data movement and both simulators run it right.
__device__ __forceinline__ unsigned shfl_idx(unsigned v, unsigned src)
{
    unsigned r;
    asm volatile("shfl.sync.idx.b32 %0, %1, %2, 31, -1;" : "=r"(r) : "r"(v), "r"(src));
    return r;
}
__device__ __forceinline__ unsigned shfl_bfly(unsigned v, unsigned m)
{
    unsigned r;
    asm volatile("shfl.sync.bfly.b32 %0, %1, %2, 31, -1;" : "=r"(r) : "r"(v), "r"(m));
    return r;
}
__global__ void warpvote(unsigned *out, int rounds)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x & 31;
    unsigned v = t * 0x9E3779B9u + 7u, acc = 0;
#pragma unroll 1
    for (int r = 0; r < rounds; r++) {
        v ^= v << 13; v ^= v >> 17; v ^= v << 5;         // xorshift32
        unsigned ones = __popc(__ballot_sync(0xffffffffu, v & 1u));
        acc += ones;
        if (__any_sync(0xffffffffu, v < 0x1000000u)) acc += 1u;
        if (__all_sync(0xffffffffu, v > 0x100000u)) acc += 2u;
        v = shfl_idx(v, (lane + 1) & 31);
    }
#pragma unroll
    for (int m = 16; m > 0; m >>= 1)
        acc += shfl_bfly(acc, m);
    if (lane == 0)
        out[t >> 5] = acc;
}
