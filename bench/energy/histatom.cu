// histatom: 64 Ki values into 64 bins with global atomicAdd (the atomics execute in the L2)
__global__ void histatom(const unsigned *in, unsigned *bins, int n)
{
    unsigned stride = gridDim.x * blockDim.x;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < (unsigned)n; i += stride)
        atomicAdd(&bins[(in[i] * 2654435761u) >> 26], 1u);
}
