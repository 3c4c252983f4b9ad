// nvcc-flags: -arch=sm_75 -O3 -ptx
// Two kernels over two buffers: dbl writes b = 2 a, inc1 writes a = b + 1.
// One (dbl; inc1) round maps a to 2 a + 1.
extern "C" __global__ void dbl(const unsigned *a, unsigned *b, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) b[i] = 2 * a[i];
}
extern "C" __global__ void inc1(const unsigned *b, unsigned *a, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = b[i] + 1;
}
