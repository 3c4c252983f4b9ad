// nvcc-flags: -arch=sm_75 -O3
// 64-bit integer math: mul.hi, division/modulo by runtime values, signed/unsigned mixes.
__global__ void int64math(const unsigned long long *a, const unsigned long long *b, const long long *s,
                          unsigned long long *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned long long x = a[i], y = b[i];
    long long sx = s[i];
    unsigned long long d = y | 1;
    long long sd = (long long)(y % 97) - 48;
    if (sd == 0)
        sd = 7;
    unsigned int u32 = (unsigned int)x;
    int s32 = (int)sx;
    int sd32 = (int)sd;
    unsigned long long *o = out + 12 * i;
    o[0] = __umul64hi(x, y);
    o[1] = (unsigned long long)__mul64hi((long long)x, sx);
    o[2] = x / d;
    o[3] = x % d;
    o[4] = (unsigned long long)(sx / sd);
    o[5] = (unsigned long long)(sx % sd);
    o[6] = (unsigned long long)((long long)s32 * u32);      // sign-extended times zero-extended
    o[7] = (unsigned long long)((sx >> (i & 63)) + (long long)(x >> (63 - (i & 63))));
    o[8] = (unsigned long long)(long long)(s32 / sd32) ^ ((unsigned long long)(u32 % (unsigned)(sd32 & 0xff | 1)) << 40);
    o[9] = x / 1000003ull + (unsigned long long)(sx / -12345);  // division by constants (magic multiply)
    o[10] = (unsigned long long)((long long)s32 * (long long)sd32 + (long long)u32 * (long long)(unsigned)y);
    o[11] = (unsigned long long)(sx < (long long)y) + 2 * (x < (unsigned long long)sx) + 4 * (s32 < (int)u32) +
            8 * (u32 < (unsigned)s32);
}
