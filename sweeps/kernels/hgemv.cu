// f16 GEMV (issue 15): y[r] = sum_k A[r][k] * x[k] with packed half2 FMAs (HFMA2).
// A[r][k] = (r * 5 + k * 3) % 7 - 3 is generated in the kernel (cvt.rn.f16.s32);
// x is 32 halves (raw bits, read as 16 __half2). Each thread accumulates one row
// in a __half2 (even k in the low half, odd k in the high half) and adds the
// halves in f32. Every partial sum is an integer below 2^11: exact in f16.
#include <cuda_fp16.h>
extern "C" __global__ void hgemv(const __half2 *x2, float *y, int rows, int k2n)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    __half2 acc = __float2half2_rn(0.0f);
    for (int j = 0; j < k2n; j++) {
        int k = 2 * j;
        __half lo = __int2half_rn((r * 5 + k * 3) % 7 - 3);
        __half hi = __int2half_rn((r * 5 + (k + 1) * 3) % 7 - 3);
        acc = __hfma2(__halves2half2(lo, hi), x2[j], acc);
    }
    y[r] = __low2float(acc) + __high2float(acc);
}
