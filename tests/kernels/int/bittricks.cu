// nvcc-flags: -arch=sm_80 -O3
// Bit tricks: popc, clz, brev, byte_perm, funnel shifts, ffs, bit-field extract/insert
// (compiler-generated from shifts/masks and explicit bfe/bfi inline asm with runtime pos/len).
__device__ __forceinline__ unsigned bfe_u32(unsigned x, unsigned pos, unsigned len)
{
    unsigned r;
    asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(pos), "r"(len));
    return r;
}
__device__ __forceinline__ int bfe_s32(int x, unsigned pos, unsigned len)
{
    int r;
    asm("bfe.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(pos), "r"(len));
    return r;
}
__device__ __forceinline__ unsigned bfi_b32(unsigned f, unsigned b, unsigned pos, unsigned len)
{
    unsigned r;
    asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(f), "r"(b), "r"(pos), "r"(len));
    return r;
}

__global__ void bittricks(const unsigned *in, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned x = in[i], y = in[(i + 1) % n];
    unsigned long long xy = ((unsigned long long)x << 32) | y;
    unsigned *o = out + 16 * i;
    o[0] = __popc(x);
    o[1] = __clz(x);
    o[2] = __brev(x);
    o[3] = __byte_perm(x, y, 0x5140u + (unsigned)(i & 3) * 0x1111u);
    o[4] = __funnelshift_l(x, y, i);
    o[5] = __funnelshift_rc(x, y, i);
    o[6] = __ffs(x) + 64 * __ffsll((long long)xy);
    o[7] = (x >> 5) & 0x7f;
    o[8] = (x & ~(0xffu << 8)) | ((y & 0xffu) << 8);
    o[9] = __popcll(xy) + 256 * __clzll(xy >> (i & 63));
    o[10] = (unsigned)(__brevll(xy) >> 16);
    o[11] = (unsigned)(((int)x << 7) >> 20);
    o[12] = bfe_u32(x, i & 63, (i * 7) & 63);
    o[13] = (unsigned)bfe_s32((int)y, (i * 3) & 31, (i & 15) + 1);
    o[14] = bfi_b32(x, y, i & 31, (i * 5) & 31);
    o[15] = __byte_perm(x, y, y) ^ __funnelshift_r(y, x, x) ^ __funnelshift_lc(y, x, x & 63);
}
