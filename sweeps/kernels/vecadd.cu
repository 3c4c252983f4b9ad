// vecadd: c[i] = a[i] + b[i] for i < n (grid-stride-free, one element per thread).
// Launched with more threads (8 x 128 = 1024) than elements (n = 1000), so the
// bounds check (a divergent early exit in the last warp) matters.
__global__ void vecadd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}
