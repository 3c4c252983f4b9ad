// nvcc-flags: -arch=sm_90 -O3
// Float -> integer conversions at their edges (NaN, +-inf, +-0, ties, range ends) through
// the CUDA Math API intrinsics: half, bfloat16, float and double into every integer width.
// NaN gives 0, or 1 << (bits - 1) from a double or into 64 bits (PTX ISA, cvt, Integer Notes;
// cuda_fp16.h: __half2ll_rz(NaN) returns 0x8000000000000000).
#include <cuda_fp16.h>
#include <cuda_bf16.h>

#define K 23

__global__ void f2int(const unsigned short *h, const unsigned short *b, const float *f,
                      const double *d, unsigned long long *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __half x = __ushort_as_half(h[i]);
    __nv_bfloat16 y = __ushort_as_bfloat16(b[i]);
    unsigned long long *o = out + (size_t)i * K;
    o[0] = (unsigned long long)__half2ll_rz(x);
    o[1] = (unsigned long long)__half2ll_rn(x);
    o[2] = (unsigned long long)__half2ll_rd(x);
    o[3] = (unsigned long long)__half2ll_ru(x);
    o[4] = __half2ull_rz(x);
    o[5] = __half2ull_rn(x);
    o[6] = (unsigned)__half2int_rz(x);
    o[7] = __half2uint_ru(x);
    o[8] = (unsigned short)__half2short_rn(x);
    o[9] = __half2ushort_rd(x);
    o[10] = (unsigned char)__half2char_rz(x);
    o[11] = __half2uchar_rz(x);
    o[12] = (unsigned long long)__bfloat162ll_rz(y);
    o[13] = __bfloat162ull_rz(y);
    o[14] = (unsigned)__bfloat162int_rn(y);
    o[15] = (unsigned long long)__float2ll_rz(f[i]);
    o[16] = __float2ull_rn(f[i]);
    o[17] = (unsigned)__float2int_rd(f[i]);
    o[18] = (unsigned long long)__double2ll_ru(d[i]);
    o[19] = __double2ull_rz(d[i]);
    o[20] = (unsigned)__double2int_rz(d[i]);
    o[21] = __double2uint_rn(d[i]);
    unsigned short s16;
    asm("cvt.rmi.s16.f64 %0, %1;" : "=h"(s16) : "d"(d[i]));
    o[22] = s16;
}
