// idivs32: signed 32-bit division and remainder by a runtime divisor (div.s32, rem.s32)
extern "C" __global__ void lw_idivs32(const int *a, int *out, int d, int n)
{
    int t = threadIdx.x;
    int x = a[t] * 31 - 500, acc = 0;
#pragma unroll 1
    for (int i = 0; i < n; i++) {
        int q = x / d, r = x % (d - 7);
        acc += q - r;
        x = x * 17 - 1000 + i;
    }
    out[t] = acc;
}
