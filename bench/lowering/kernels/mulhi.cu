// mulhi: __umulhi, __mulhi and __umul64hi (mul.hi.u32/s32/u64) and mul.wide, a multiply-shift hash
extern "C" __global__ void lw_mulhi(const unsigned *a, unsigned long long *out, int n)
{
    unsigned t = threadIdx.x;
    unsigned x = a[t] + 17, y = 0x9e3779b9u;
    unsigned long long w = 0;
#pragma unroll 1
    for (int i = 0; i < n; i++) {
        unsigned h = __umulhi(x, 0x85ebca6bu) + (unsigned)__mulhi((int)y, -7);
        w += (unsigned long long)x * y;         // mul.wide.u32
        w ^= __umul64hi(w, 0xff51afd7ed558ccdull);
        x = h ^ (x << 5);
        y += h;
    }
    out[t] = w + x;
}
