// reduce: classic shared-memory tree reduction; each CTA writes its partial sum.
// blockDim.x must be a power of two <= 128.
__global__ void reduce(const float *in, float *partial)
{
    __shared__ float s[128];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[tid] = in[i];
    __syncthreads();
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        partial[blockIdx.x] = s[0];
}
