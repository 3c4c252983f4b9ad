// fsqrt: f32 IEEE square root (sqrt.rn.f32), a loop-carried chain of two roots per iteration
extern "C" __global__ void lw_fsqrt(const float *a, float *out, int n)
{
    unsigned t = threadIdx.x;
    float x = a[t] + 2.0f, y = a[t] + 5.0f;
#pragma unroll 1
    for (int i = 0; i < n; i++) {
        x = sqrtf(x) + 1.5f;
        y = sqrtf(x * y) + 0.25f;
    }
    out[t] = x + y;
}
