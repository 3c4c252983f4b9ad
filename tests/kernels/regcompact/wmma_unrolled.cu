// A WMMA GEMM with the K loop fully unrolled, as in NVIDIA's cudaTensorCoreGemm
// sample: one warp computes a 32x64 tile of D = A * B (A 32xK row-major, B Kx64
// column-major, f16; D f32 row-major) from 2x4 accumulator fragments. nvcc gives
// every fragment of every unrolled step fresh virtual registers, so the PTX
// declares thousands of registers while few are live at once (register
// compaction, src/ptx/regcompact.c).
//   nvcc -arch=sm_75 -O3 -ptx wmma_unrolled.cu -o wmma_unrolled.ptx
#include <mma.h>
using namespace nvcuda;

#define TM 2
#define TN 4
#define KDIM 512

extern "C" __global__ void wmma_unrolled(const half *A, const half *B, float *D)
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
        for (int i = 0; i < TM; i++) wmma::load_matrix_sync(a[i], A + (16 * i) * KDIM + k, KDIM);
#pragma unroll
        for (int j = 0; j < TN; j++) wmma::load_matrix_sync(b[j], B + (16 * j) * KDIM + k, KDIM);
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
