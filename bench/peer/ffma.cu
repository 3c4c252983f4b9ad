// ffma: float FMA loop. Four independent accumulators per thread (so a warp
// has some instruction-level parallelism), each `acc = fmaf(a, b, acc)` with
// small integer a, b: every partial sum is an integer below 2^24, so the
// result is exact in f32 whatever the rounding or contraction.
__global__ void ffma(float *out, int iters)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    float a = (float)(t & 7), b = (float)((t >> 3) & 7);
    float c0 = 0.0f, c1 = 0.0f, c2 = 0.0f, c3 = 0.0f;
#pragma unroll 1
    for (int i = 0; i < iters; i++) {
        c0 = fmaf(a, b, c0);
        c1 = fmaf(a + 1.0f, b, c1);
        c2 = fmaf(a, b + 1.0f, c2);
        c3 = fmaf(a + 1.0f, b + 1.0f, c3);
        a = a + 1.0f;
        if (a > 8.0f) a = 0.0f;
    }
    out[t] = c0 + c1 + c2 + c3;
}
