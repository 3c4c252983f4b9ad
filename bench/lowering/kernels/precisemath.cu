// precisemath: the precise expf, logf and tanhf (libdevice sequences inlined in the PTX)
extern "C" __global__ void lw_precisemath(const float *a, float *out, int n)
{
    unsigned t = threadIdx.x;
    float x = a[t] * 0.5f + 1.0f, acc = 0.0f;
#pragma unroll 1
    for (int i = 0; i < n; i++) {
        float e = expf(x * 0.25f);
        float l = logf(e + x);
        acc += tanhf(l * 0.5f);
        x = x * 0.75f + 0.5f;
    }
    out[t] = acc;
}
