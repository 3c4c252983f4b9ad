// sinf: the precise sinf/cosf (sincosf) with small arguments (|x| < 48039: no Payne-Hanek slow path)
extern "C" __global__ void lw_sinf(const float *a, float *out, int n)
{
    unsigned t = threadIdx.x;
    float x = a[t] * 0.1f, acc = 0.0f;
#pragma unroll 1
    for (int i = 0; i < n; i++) {
        float s, c;
        sincosf(x, &s, &c);
        acc += s * c;
        x = x * 0.5f + 0.3f;
    }
    out[t] = acc;
}
