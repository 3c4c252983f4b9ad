// dfma: double FMA loop, four independent chains per thread
__global__ void dfma(double *out, int iters)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    double a = (double)(t & 7), b = (double)((t >> 3) & 7);
    double c0 = 0, c1 = 0, c2 = 0, c3 = 0;
#pragma unroll 1
    for (int i = 0; i < iters; i++) {
        c0 = fma(a, b, c0); c1 = fma(a + 1.0, b, c1);
        c2 = fma(a, b + 1.0, c2); c3 = fma(a + 1.0, b + 1.0, c3);
    }
    out[t] = c0 + c1 + c2 + c3;
}
