// stream: memory-streaming kernel. A grid-stride loop over n u32 elements,
// y[i] = 3 * x[i] + y[i]: two loads and one store per element, coalesced,
// each element touched once (no reuse, so it streams through L1 and L2).
__global__ void stream(const unsigned *x, unsigned *y, int n)
{
    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        y[i] = 3u * x[i] + y[i];
}
