// selminmax: select/min/max/abs mix (selp, min/max.s32/f32, abs.s32/f32), a clamp and a sort-2
extern "C" __global__ void lw_selminmax(const int *a, const float *b, int *out, float *fout, int n)
{
    unsigned t = threadIdx.x;
    int x = a[t] - 16, y = 7;
    float f = b[t] - 0.5f, g = 0.0f;
#pragma unroll 1
    for (int i = 0; i < n; i++) {
        int lo = min(x, y), hi = max(x, y);
        x = abs(lo - 9) + (hi > 20 ? 1 : -3);
        y = min(max(hi * 3 - i, -50), 50);
        g += fminf(fabsf(f), 2.0f) + fmaxf(f, -1.0f);
        f = (g > 4.0f) ? f * -0.5f : f + 0.75f;
    }
    out[t] = x + y;
    fout[t] = g;
}
