// fastmath: the fast intrinsics __fdividef, __expf, __sinf, __cosf, __logf (div.approx, ex2/sin/cos/lg2.approx)
extern "C" __global__ void lw_fastmath(const float *a, float *out, int n)
{
    unsigned t = threadIdx.x;
    float x = a[t] + 1.0f, acc = 0.0f;
#pragma unroll 1
    for (int i = 0; i < n; i++) {
        float e = __expf(x * 0.125f);
        float s = __sinf(x) + __cosf(x);
        float l = __logf(e + 1.0f);
        acc += __fdividef(s, l + 1.0f);
        x = x * 0.5f + 1.0f;
    }
    out[t] = acc;
}
