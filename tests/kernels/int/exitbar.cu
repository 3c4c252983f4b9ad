// nvcc-flags: -arch=sm_75 -O3
// Threads past n return before the CTA barriers (exited threads no longer count), 100-thread
// CTAs (a partial warp), a shared-memory rotation and a tree sum among the remaining threads.
__global__ void exitbar(const int *in, int *out, int *sums, int n)
{
    __shared__ int s[128];
    __shared__ int tot;
    int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
    if (g >= n)
        return;
    int active = min((int)blockDim.x, n - (int)(blockIdx.x * blockDim.x));
    if (t == 0)
        tot = 0;
    s[t] = in[g];
    __syncthreads();
    int r = s[(t + 1) % active] - s[t];
    atomicAdd(&tot, s[t]);
    __syncthreads();
    out[g] = r * 1000 + (t == active - 1 ? tot % 1000 : 0);
    if (t == 0)
        sums[blockIdx.x] = tot;
}
