// idivu32: unsigned 32-bit division and remainder by a runtime divisor (div.u32, rem.u32)
extern "C" __global__ void lw_idivu32(const unsigned *a, unsigned *out, unsigned d, int n)
{
    unsigned t = threadIdx.x;
    unsigned x = a[t] * 7919u + 12345u, acc = 0;
#pragma unroll 1
    for (int i = 0; i < n; i++) {
        unsigned q = x / d, r = x % (d + 3u);
        acc += q ^ r;
        x = x * 1664525u + 1013904223u;
    }
    out[t] = acc;
}
