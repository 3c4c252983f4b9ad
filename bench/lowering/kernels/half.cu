#include <cuda_fp16.h>
// half: float -> half -> float round trips (cvt.rn.f16.f32, cvt.f32.f16) and a half2 add
extern "C" __global__ void lw_half(const float *a, __half *out, int n)
{
    unsigned t = threadIdx.x;
    float x = a[t] + 0.25f;
    __half2 acc = __floats2half2_rn(0.0f, 0.0f);
#pragma unroll 1
    for (int i = 0; i < n; i++) {
        __half h = __float2half(x);
        x = __half2float(h) * 1.5f + 0.125f;
        acc = __hadd2(acc, __floats2half2_rn(x, -x));
    }
    out[t] = __low2half(acc);
    out[t + 32] = __high2half(acc);
}
