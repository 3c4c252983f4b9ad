// nvcc-flags: -arch=sm_75 -O3 -ptx
// a[i] += 1 for i < n: a repeat: N loop of it leaves a[i] = init + N.
extern "C" __global__ void inc(unsigned *a, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] += 1;
}
