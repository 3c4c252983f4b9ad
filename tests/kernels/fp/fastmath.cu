// nvcc-flags: --use_fast_math
// Fast-math intrinsics: ex2/lg2/sin/cos/rsqrt/sqrt .approx.ftz, div.full,
// tanh.approx, __fdividef, __saturatef.
__global__ void fastmath(const float *a, const float *b, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = a[i], y = b[i];
    float *o = out + 12 * i;
    o[0] = __expf(x);
    o[1] = __logf(fabsf(x) + 0.5f);
    o[2] = __sinf(x);
    o[3] = __cosf(x);
    o[4] = __powf(fabsf(x) + 0.25f, y);
    o[5] = tanhf(x);
    o[6] = rsqrtf(fabsf(x) + 1.0f);
    o[7] = sqrtf(fabsf(x));
    o[8] = x / y;
    o[9] = __fdividef(x, y);
    o[10] = __saturatef(x * 0.25f);
    o[11] = exp10f(x * 0.25f) + log10f(fabsf(y) + 1.0f);
}
