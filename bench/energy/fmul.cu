// fmul: f32 multiply chains (__fmul_rn: never contracted into an FMA), four per iteration
__global__ void fmul(float *out, int iters)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    float a = 1.0f + (t & 7) * 1e-7f, c0 = 1.0f, c1 = 1.0f, c2 = 1.0f, c3 = 1.0f;
#pragma unroll 1
    for (int i = 0; i < iters; i++) {
        c0 = __fmul_rn(c0, a); c1 = __fmul_rn(c1, a); c2 = __fmul_rn(c2, a); c3 = __fmul_rn(c3, a);
    }
    out[t] = c0 + c1 + c2 + c3;
}
