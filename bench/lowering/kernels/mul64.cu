// mul64: 64-bit integer multiply (mul.lo.u64) in a 64-bit LCG / hash mix
extern "C" __global__ void lw_mul64(const unsigned long long *a, unsigned long long *out, int n)
{
    unsigned t = threadIdx.x;
    unsigned long long x = a[t] + 1, h = 0xcbf29ce484222325ull;
#pragma unroll 1
    for (int i = 0; i < n; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        h = (h ^ (x >> 29)) * 0x100000001b3ull;
    }
    out[t] = x + h;
}
