// saxpy: y[i] = a*x[i] + y[i] over n*32 elements, one element per thread per iteration
extern "C" __global__ void lw_saxpy(const float *x, float *y, float a, int n)
{
    int total = n * 32;
#pragma unroll 1
    for (int i = threadIdx.x; i < total; i += 32)
        y[i] = a * x[i] + y[i];
}
