// convert: conversions int<->float, float<->double, u64->float, float->u64
extern "C" __global__ void lw_convert(const int *a, float *out, double *dout, int n)
{
    unsigned t = threadIdx.x;
    int k = a[t] + 3;
    float f = 0.0f;
    double d = 0.5;
    unsigned long long u = 12345ull * (t + 1);
#pragma unroll 1
    for (int i = 0; i < n; i++) {
        float x = (float)k * 0.5f;              // cvt.rn.f32.s32
        d += (double)x;                         // cvt.f64.f32
        f += (float)d + (float)u;               // cvt.rn.f32.f64, cvt.rn.f32.u64
        k = (int)(x * 1.5f) + i;                // cvt.rzi.s32.f32
        u += (unsigned long long)(f * 4.0f);    // cvt.rzi.u64.f32
    }
    out[t] = f + (float)k;
    dout[t] = d + (double)u;
}
