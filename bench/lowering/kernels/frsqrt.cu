// frsqrt: rsqrtf (rsqrt.approx.f32) normalising a 3-vector each iteration
extern "C" __global__ void lw_frsqrt(const float *a, float *out, int n)
{
    unsigned t = threadIdx.x;
    float x = a[t] + 1.0f, y = 2.0f, z = 0.5f;
#pragma unroll 1
    for (int i = 0; i < n; i++) {
        float r = rsqrtf(x * x + y * y + z * z);
        x = x * r + 0.5f; y = y * r + 0.25f; z = z * r + 1.0f;
    }
    out[t] = x + y + z;
}
