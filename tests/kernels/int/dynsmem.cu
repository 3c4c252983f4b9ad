// nvcc-flags: -arch=sm_75 -O3
// Dynamic shared memory (extern __shared__): a reversal plus shared-memory atomics.
// Layout: [0, blockDim) data, [blockDim, blockDim+16) histogram, then 2 u32 for min/max,
// then (8-aligned) one u64 sum.
extern __shared__ unsigned smem[];

__global__ void dynsmem(const unsigned *in, unsigned *out, unsigned *hist, unsigned long long *sums)
{
    unsigned t = threadIdx.x, nb = blockDim.x;
    unsigned g = blockIdx.x * nb + t;
    unsigned *data = smem, *h = smem + nb, *mm = h + 16;
    unsigned long long *sum = (unsigned long long *)(smem + ((nb + 18 + 1) & ~1u));
    if (t < 16)
        h[t] = 0;
    if (t == 0) {
        mm[0] = 0xffffffffu;
        mm[1] = 0;
        *sum = 0;
    }
    unsigned v = in[g];
    data[t] = v;
    __syncthreads();
    atomicAdd(&h[v & 15], 1u);
    atomicMin(&mm[0], v);
    atomicMax(&mm[1], v);
    atomicAdd(sum, (unsigned long long)v * v);
    unsigned old = atomicExch(&data[t], v + 1);   // own slot: old == v
    atomicCAS(&data[t], v + 1, old * 2);
    __syncthreads();
    out[g] = data[nb - 1 - t];
    if (t < 16)
        hist[blockIdx.x * 18 + t] = h[t];
    if (t == 16)
        hist[blockIdx.x * 18 + 16] = mm[0];
    if (t == 17)
        hist[blockIdx.x * 18 + 17] = mm[1];
    if (t == 18)
        sums[blockIdx.x] = *sum;
}
