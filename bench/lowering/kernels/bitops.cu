// bitops: __popc, __brev, __clz, __ffs, rotations and a bit-field extract by shifts and masks
extern "C" __global__ void lw_bitops(const unsigned *a, unsigned *out, int n)
{
    unsigned t = threadIdx.x;
    unsigned x = a[t] * 2654435761u + 1u, acc = 0;
#pragma unroll 1
    for (int i = 0; i < n; i++) {
        unsigned f = (x >> 7) & 0x3ffu;           // bfe
        acc += __popc(x) + __clz(x | 1u) + __ffs(x) + f;
        x = __brev(x) ^ ((x << 13) | (x >> 19)) ^ (unsigned)i;
    }
    out[t] = acc;
}
