// wmma_unrolled.cu's GEMM ten times deeper, at the scale of NVIDIA's cudaTensorCoreGemm
// sample (whose nvcc PTX declares about 35,000 registers per thread, ptxas using ~200): the K
// loop runs 5120 steps of 16, fully unrolled, reading the same 32x512 A and 512x64 B slices
// ten times over (k % 512, a compile-time offset per unrolled step), so D = 10 * A * B.
// nvcc gives every fragment of every unrolled step fresh virtual registers.
//   nvcc -arch=sm_75 -O3 -ptx wmma_deep.cu -o wmma_deep.ptx
#include <mma.h>
using namespace nvcuda;

#define TM 2
#define TN 4
#define KDIM 5120
#define LD 512

extern "C" __global__ void wmma_deep(const half *A, const half *B, float *D)
{
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++) wmma::fill_fragment(acc[i][j], 0.0f);
#pragma unroll
    for (int k = 0; k < KDIM; k += 16) {
        wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a[TM];
        wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b[TN];
#pragma unroll
        for (int i = 0; i < TM; i++) wmma::load_matrix_sync(a[i], A + (16 * i) * LD + k % LD, LD);
#pragma unroll
        for (int j = 0; j < TN; j++) wmma::load_matrix_sync(b[j], B + (16 * j) * LD + k % LD, LD);
#pragma unroll
        for (int i = 0; i < TM; i++)
#pragma unroll
            for (int j = 0; j < TN; j++) wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
    }
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++)
            wmma::store_matrix_sync(D + (16 * i) * (16 * TN) + 16 * j, acc[i][j], 16 * TN, wmma::mem_row_major);
}
