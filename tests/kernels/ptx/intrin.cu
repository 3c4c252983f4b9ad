// nvcc-flags: -arch=sm_75 -O3
// CUDA intrinsics whose PTX warpsweep once refused: __dp4a/__dp2a (int8 inference), __fns,
// __vabsdiffu4/__vsadu4 (video vabsdiff4), __vcmpeq4 (lop3 in the CUDA headers), warpSize
// (WARP_SZ), and bmsk/szext/cvt.pack.sat through inline asm. Row k of out holds result k of
// every thread; the last row is 1 when warpSize agrees with %laneid and a shfl reduction.
#define NR 14
__global__ void intrin(const unsigned *a, const unsigned *b, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned x = a[i % n], y = b[i % n], c = (unsigned)i * 2654435761u;
    unsigned r[NR];
    r[0] = __dp4a(x, y, c);
    r[1] = (unsigned)__dp4a((int)x, (int)y, (int)c);
    r[2] = __dp2a_lo(x, y, c);
    r[3] = (unsigned)__dp2a_hi((int)x, (int)y, (int)c);
    r[4] = __fns(x, i & 31, (int)(y & 7) - 4);
    r[5] = __vabsdiffu4(x, y);
    r[6] = __vsadu4(x, y);
    r[7] = __vcmpeq4(x, (x & 0x00ff00ff) | (y & 0xff00ff00));
    asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(r[8]) : "r"(x & 63), "r"(y & 63));
    asm("bmsk.wrap.b32 %0, %1, %2;" : "=r"(r[9]) : "r"(x & 63), "r"(y & 63));
    asm("szext.clamp.s32 %0, %1, %2;" : "=r"(r[10]) : "r"(x), "r"(y & 63));
    asm("szext.wrap.u32 %0, %1, %2;" : "=r"(r[11]) : "r"(x), "r"(y & 63));
    asm("cvt.pack.sat.s8.s32.b32 %0, %1, %2, %3;" : "=r"(r[12]) : "r"((int)x >> 22), "r"((int)y >> 23), "r"(c));
    unsigned lane;
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    unsigned s = lane;
    for (int o = warpSize / 2; o > 0; o /= 2) s += __shfl_xor_sync(0xffffffffu, s, o);
    r[13] = (threadIdx.x % warpSize == lane) && s == warpSize * (warpSize - 1) / 2;
    for (int k = 0; k < NR; k++) out[k * gridDim.x * blockDim.x + i] = r[k];
}
