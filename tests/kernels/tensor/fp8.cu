// nvcc -arch=sm_89 -O3 -ptx fp8.cu   (FP8 conversions and mma; issue 24 item 7)
// The conversions through cuda_fp8.h's __nv_cvt_* intrinsics (cvt.rn.satfinite.e4m3x2.f32 etc.),
// one input element (pair) per thread; the mma with raw fragment words per lane (as imma.cu),
// the m16n8k32 8-bit layout of the PTX ISA (9.7.14.5.10) only in the Python model (fp8_check.py).
#include <cuda_fp8.h>

extern "C" __global__ void fp8_from_f32(const float2 *x, unsigned short *e4, unsigned short *e5, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    e4[i] = __nv_cvt_float2_to_fp8x2(x[i], __NV_SATFINITE, __NV_E4M3);
    e5[i] = __nv_cvt_float2_to_fp8x2(x[i], __NV_SATFINITE, __NV_E5M2);
}

extern "C" __global__ void fp8_from_f16x2(const __half2_raw *x, unsigned short *e4, unsigned short *e5, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    e4[i] = __nv_cvt_halfraw2_to_fp8x2(x[i], __NV_SATFINITE, __NV_E4M3);
    e5[i] = __nv_cvt_halfraw2_to_fp8x2(x[i], __NV_SATFINITE, __NV_E5M2);
}

extern "C" __global__ void fp8_to_f16x2(const unsigned short *x, __half2_raw *h4, __half2_raw *h5, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    h4[i] = __nv_cvt_fp8x2_to_halfraw2(x[i], __NV_E4M3);
    h5[i] = __nv_cvt_fp8x2_to_halfraw2(x[i], __NV_E5M2);
}

/* the .relu forms have no intrinsic: inline PTX */
extern "C" __global__ void fp8_relu(const float2 *x, const unsigned *h, unsigned short *e4, unsigned short *e5,
                                    unsigned *d4, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned short a, b;
    unsigned c;
    asm("cvt.rn.satfinite.relu.e4m3x2.f32 %0, %1, %2;" : "=h"(a) : "f"(x[i].y), "f"(x[i].x));
    asm("cvt.rn.satfinite.relu.e5m2x2.f16x2 %0, %1;" : "=h"(b) : "r"(h[i]));
    asm("cvt.rn.relu.f16x2.e4m3x2 %0, %1;" : "=r"(c) : "h"((unsigned short)h[i]));
    e4[i] = a;
    e5[i] = b;
    d4[i] = c;
}

#define QMMA(NAME, TYPES)                                                                             \
    extern "C" __global__ void NAME(const unsigned *A, const unsigned *B, const float *C, float *D)   \
    {                                                                                                 \
        unsigned l = threadIdx.x;                                                                     \
        float d0, d1, d2, d3;                                                                         \
        asm volatile("mma.sync.aligned.m16n8k32.row.col.f32." TYPES ".f32 {%0,%1,%2,%3}, "            \
                     "{%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"                                     \
                     : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)                                         \
                     : "r"(A[4 * l]), "r"(A[4 * l + 1]), "r"(A[4 * l + 2]), "r"(A[4 * l + 3]),        \
                       "r"(B[2 * l]), "r"(B[2 * l + 1]), "f"(C[4 * l]), "f"(C[4 * l + 1]),            \
                       "f"(C[4 * l + 2]), "f"(C[4 * l + 3]));                                         \
        D[4 * l] = d0;                                                                                \
        D[4 * l + 1] = d1;                                                                            \
        D[4 * l + 2] = d2;                                                                            \
        D[4 * l + 3] = d3;                                                                            \
    }
QMMA(qmma_e4m3, "e4m3.e4m3")
QMMA(qmma_e5m2, "e5m2.e5m2")
QMMA(qmma_e4m3_e5m2, "e4m3.e5m2")

/* .f16 accumulators (.f16.f16 only: ptxas refuses a mix): m16n8k32 and m16n8k16 (PTX ISA 8.7) */
extern "C" __global__ void qmma_f16acc(const unsigned *A, const unsigned *B, const unsigned *C, unsigned *D)
{
    unsigned l = threadIdx.x, d0, d1;
    asm volatile("mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e4m3.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};"
                 : "=r"(d0), "=r"(d1)
                 : "r"(A[4 * l]), "r"(A[4 * l + 1]), "r"(A[4 * l + 2]), "r"(A[4 * l + 3]), "r"(B[2 * l]),
                   "r"(B[2 * l + 1]), "r"(C[2 * l]), "r"(C[2 * l + 1]));
    D[2 * l] = d0;
    D[2 * l + 1] = d1;
}
extern "C" __global__ void qmma_k16_f16acc(const unsigned *A, const unsigned *B, const unsigned *C, unsigned *D)
{
    unsigned l = threadIdx.x, d0, d1;
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.e5m2.e4m3.f16 {%0,%1}, {%2,%3}, {%4}, {%5,%6};"
                 : "=r"(d0), "=r"(d1)
                 : "r"(A[2 * l]), "r"(A[2 * l + 1]), "r"(B[l]), "r"(C[2 * l]), "r"(C[2 * l + 1]));
    D[2 * l] = d0;
    D[2 * l + 1] = d1;
}
