// smemreduce: shared-memory tree reduction with __syncthreads. Each CTA of
// 256 threads reduces `tiles` consecutive tiles of 256 u32 from global memory,
// one tile at a time (load, 8 halving steps each ending in a barrier), and
// thread 0 accumulates the tile sums; out[blockIdx.x] is the CTA's total.
__global__ void smemreduce(const unsigned *in, unsigned *out, int tiles)
{
    __shared__ unsigned s[256];
    unsigned tid = threadIdx.x;
    unsigned total = 0;
    const unsigned *base = in + (size_t)blockIdx.x * tiles * 256;
    for (int k = 0; k < tiles; k++) {
        s[tid] = base[k * 256 + tid];
        __syncthreads();
        for (unsigned stride = 128; stride > 0; stride >>= 1) {
            if (tid < stride)
                s[tid] += s[tid + stride];
            __syncthreads();
        }
        if (tid == 0)
            total += s[0];
        __syncthreads();   // s[0] is read before the next tile overwrites s
    }
    if (tid == 0)
        out[blockIdx.x] = total;
}
