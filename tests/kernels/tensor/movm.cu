// nvcc-flags: -arch=sm_75 -O3
// movmatrix (issue 40): each warp transposes two 8x8 b16 matrices with
// movmatrix.sync.aligned.m8n8.trans.b16, once into a new register and once in place (d = a),
// the second after a shuffle so that it depends on the first. Lane l of warp w gives
// in[64 w + 2 l] and in[64 w + 2 l + 1] as the low and high halves of its register; the
// results go out in the same order. Expected values: expected.py (an independent model of the
// fragment layout of PTX ISA "movmatrix": row l / 4, columns 2 (l % 4), 2 (l % 4) + 1).
#include <cstdint>
extern "C" __global__ void movm(const unsigned short *in, unsigned short *out)
{
    int t = threadIdx.x, l = t & 31, w = t >> 5;
    const unsigned short *src = in + 64 * w;
    unsigned a = src[2 * l] | (unsigned)src[2 * l + 1] << 16, d;
    asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(d) : "r"(a));
    out[128 * w + 2 * l] = (unsigned short)d;
    out[128 * w + 2 * l + 1] = (unsigned short)(d >> 16);
    unsigned b = __shfl_xor_sync(0xffffffffu, d, 1) ^ 0x00010001u;
    asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %0;" : "+r"(b));
    out[128 * w + 64 + 2 * l] = (unsigned short)b;
    out[128 * w + 64 + 2 * l + 1] = (unsigned short)(b >> 16);
}
