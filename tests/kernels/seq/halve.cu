// nvcc-flags: -arch=sm_75 -O3 -ptx
// a[i] >>= 1; any = 1 if some element is still nonzero; iters counts the
// launches (thread 0). Looped until any == 0 (the host clears any first),
// it runs bit_length(max a) times.
extern "C" __global__ void halve(unsigned *a, unsigned *any, unsigned *iters, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) iters[0] += 1;
    if (i < n) {
        unsigned v = a[i] >> 1;
        a[i] = v;
        if (v) any[0] = 1;
    }
}
