// fdiv: f32 IEEE division a/b (div.rn.f32) in a loop-carried chain, plus a second quotient
extern "C" __global__ void lw_fdiv(const float *a, const float *b, float *out, int n)
{
    unsigned t = threadIdx.x;
    float x = a[t], y = b[t], acc = 0.0f;
#pragma unroll 1
    for (int i = 0; i < n; i++) {
        float q = x / y;             // div.rn.f32: MUFU.RCP + FFMA refinement + FCHK slow-path guard
        acc += q;
        x = q + 1.25f;
        y = y * 0.75f + 0.5f;
    }
    out[t] = acc + x / (y + 3.0f);
}
