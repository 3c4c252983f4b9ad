// frcp: f32 IEEE reciprocal 1.0f/x (rcp.rn.f32) in a chain, with a harmonic-mean style update
extern "C" __global__ void lw_frcp(const float *a, float *out, int n)
{
    unsigned t = threadIdx.x;
    float x = a[t] + 1.0f, s = 0.0f;
#pragma unroll 1
    for (int i = 0; i < n; i++) {
        float r = 1.0f / x;
        s = s + r;
        x = x * 1.5f + r;
    }
    out[t] = s;
}
