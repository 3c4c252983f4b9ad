// nvcc-flags: -arch=sm_80 -O3
// Half precision (issue 15): f16/bf16 scalar and packed arithmetic, comparisons,
// conversions with every rounding, approximations and atomics, on edge inputs
// (subnormals, rounding ties, NaN, infinities, the largest finite values).
// Outputs are raw bits (one u32 per operation) so the check is bit-exact
// (tests/kernels/half/expected.py).
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#define K 32
__device__ unsigned u2(__half2 v) { return *(unsigned *)&v; }
__device__ unsigned ub2(__nv_bfloat162 v) { return *(unsigned *)&v; }
extern "C" __global__ void harith(const unsigned short *a, const unsigned short *b, const unsigned short *c,
                                  const unsigned *f, const int *n, unsigned *out, __half *hacc, __half2 *h2acc,
                                  __nv_bfloat16 *bacc, int count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    __half x = __ushort_as_half(a[i]), y = __ushort_as_half(b[i]), z = __ushort_as_half(c[i]);
    __nv_bfloat16 bx = __ushort_as_bfloat16(a[i]), by = __ushort_as_bfloat16(b[i]), bz = __ushort_as_bfloat16(c[i]);
    float g = __uint_as_float(f[i]);
    unsigned *o = out + K * i;
    o[0] = __half_as_ushort(__hadd(x, y));
    o[1] = __half_as_ushort(__hsub(x, y));
    o[2] = __half_as_ushort(__hmul(x, y));
    o[3] = __half_as_ushort(__hfma(x, y, z));
    o[4] = __half_as_ushort(__hfma_sat(x, y, z));
    o[5] = __half_as_ushort(__hfma_relu(x, y, z));
    o[6] = __half_as_ushort(__hmin(x, y));
    o[7] = __half_as_ushort(__hmax(x, y));
    o[8] = __half_as_ushort(__hmin_nan(x, y));
    o[9] = __half_as_ushort(__hneg(x));
    o[10] = __half_as_ushort(__habs(x));
    o[11] = __hlt(x, y);
    o[12] = __hgtu(x, y);
    o[13] = __half_as_ushort(__float2half_rn(g));
    o[14] = __half_as_ushort(__float2half_rz(g));
    o[15] = __half_as_ushort(__float2half_rd(g));
    o[16] = __half_as_ushort(__float2half_ru(g));
    o[17] = __bfloat16_as_ushort(__float2bfloat16_rn(g));
    o[18] = __bfloat16_as_ushort(__hfma(bx, by, bz));
    o[19] = __bfloat16_as_ushort(__hmul(bx, by));
    __half2 p = __halves2half2(x, y), q = __halves2half2(z, x);
    o[20] = u2(__hfma2(p, q, p));
    o[21] = (unsigned)__half2int_rn(x);
    o[22] = __half_as_ushort(__int2half_rn(n[i]));
    o[23] = __float_as_uint(__half2float(x));
    __nv_bfloat162 bp = __halves2bfloat162(bx, by), bq = __halves2bfloat162(bz, bx);
    o[24] = ub2(__hmul2(bp, bq));
    o[25] = __half_as_ushort(hexp2(x));
    o[26] = __half_as_ushort(htanh_approx(x));
    o[27] = u2(__hlt2(p, q));
    o[28] = __hbgt2(p, q);
    o[29] = u2(__floats2half2_rn(g, __half2float(z)));
    o[30] = __float_as_uint(__bfloat162float(bx));
    o[31] = __half_as_ushort(__hmax_nan(x, y));
    atomicAdd(hacc, __float2half(1.0f));
    atomicAdd(h2acc, __floats2half2_rn(1.0f, 0.5f));
    atomicAdd(bacc, __float2bfloat16(2.0f));
}
