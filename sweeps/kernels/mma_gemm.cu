// nvcc-flags: -arch=sm_80
// Tensor-core GEMM tile loop (issue 15): C[64x64] (f32) = A[64x32] * B[32x64] (f16, row-major).
// A CTA of 4 warps computes a 32x32 tile of C, each warp a 16x16 sub-tile as two
// mma.sync.m16n8k16; per K step of 16 the CTA stages A and B tiles in shared memory and each
// warp loads its fragments with ldmatrix.x4 (A) and ldmatrix.x4.trans (B: row-major [k][n]
// gives the .col fragment). Expected C: expected.py (m_mma_gemm), the plain matrix product.
#include <cuda_fp16.h>
#define M 64
#define N 64
#define K 32

__device__ __forceinline__ unsigned smem_addr(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

extern "C" __global__ void mma_gemm(const __half *A, const __half *B, float *C)
{
    __shared__ __align__(16) __half As[32][16];
    __shared__ __align__(16) __half Bs[16][32];
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int wm = warp >> 1, wn = warp & 1;          // the warp's 16x16 sub-tile
    const int row0 = blockIdx.y * 32, col0 = blockIdx.x * 32;
    float acc[2][4] = {{0, 0, 0, 0}, {0, 0, 0, 0}};
    // ldmatrix.x4 row addresses: lanes 0-7 matrix 0 (rows 0-7, cols 0-7), 8-15 matrix 1
    // (rows 8-15), 16-23 matrix 2 (rows 0-7, cols 8-15), 24-31 matrix 3 (rows 8-15, cols 8-15)
    const int lr = (lane & 7) + 8 * ((lane >> 3) & 1), lc = 8 * (lane >> 4);
    for (int k0 = 0; k0 < K; k0 += 16) {
        for (int i = tid; i < 32 * 16; i += 128) As[i / 16][i % 16] = A[(row0 + i / 16) * K + k0 + i % 16];
        for (int i = tid; i < 16 * 32; i += 128) Bs[i / 32][i % 32] = B[(k0 + i / 32) * N + col0 + i % 32];
        __syncthreads();
        unsigned a[4], b[4];
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                     : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3]) : "r"(smem_addr(&As[wm * 16 + lr][lc])));
        // B: matrices (k 0-7, n 0-7), (k 8-15, n 0-7), (k 0-7, n 8-15), (k 8-15, n 8-15)
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
                     : "=r"(b[0]), "=r"(b[1]), "=r"(b[2]), "=r"(b[3]) : "r"(smem_addr(&Bs[lr][wn * 16 + lc])));
        for (int j = 0; j < 2; j++)
            asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                         : "+f"(acc[j][0]), "+f"(acc[j][1]), "+f"(acc[j][2]), "+f"(acc[j][3])
                         : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[2 * j]), "r"(b[2 * j + 1]));
        __syncthreads();
    }
    const int g = lane >> 2, t = lane & 3;
    for (int j = 0; j < 2; j++)
        for (int i = 0; i < 4; i++)
            C[(row0 + wm * 16 + g + 8 * (i >= 2)) * N + col0 + wn * 16 + j * 8 + 2 * t + (i & 1)] = acc[j][i];
}
