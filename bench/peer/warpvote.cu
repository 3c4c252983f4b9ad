// warpvote: warp-level shuffle and vote. Each round every lane hashes its
// value, the warp votes on the low bit (__ballot_sync, popcount), checks
// __any_sync / __all_sync on a threshold and rotates values one lane with an
// indexed __shfl_sync; lane sums are combined with a butterfly __shfl_xor_sync
// at the end, and lane 0 stores the warp's result.
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
        v = __shfl_sync(0xffffffffu, v, (lane + 1) & 31);
    }
#pragma unroll
    for (int m = 16; m > 0; m >>= 1)
        acc += __shfl_xor_sync(0xffffffffu, acc, m);
    if (lane == 0)
        out[t >> 5] = acc;
}
