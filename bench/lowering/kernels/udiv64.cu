// udiv64: 64-bit unsigned division and remainder (div.u64/rem.u64); operands below 2^32, so
// ptxas's 32-bit fast path runs (the 64-bit case is a CALL to a subroutine)
extern "C" __global__ void lw_udiv64(const unsigned long long *a, unsigned long long *out,
                                  unsigned long long d, int n)
{
    unsigned t = threadIdx.x;
    unsigned long long x = a[t] + 1000, acc = 0;
#pragma unroll 1
    for (int i = 0; i < n; i++) {
        unsigned long long q = x / d;
        acc += q;
        x = (x + q * 5 + i) & 0xffffffull;
    }
    out[t] = acc;
}
