// tensor: each warp runs a chain of m16n16k16 wmma.mma (f16 in, f32 accumulate) on fragments
// loaded once from global memory: the tensor unit's energy per mma
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;
__global__ void tensor(const half *A, const half *B, float *D, int iters)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
    wmma::load_matrix_sync(a, A, 16);
    wmma::load_matrix_sync(b, B, 16);
    wmma::fill_fragment(c, 0.0f);
#pragma unroll 1
    for (int i = 0; i < iters; i++) wmma::mma_sync(c, a, b, c);
    unsigned w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    wmma::store_matrix_sync(D + w * 256, c, 16, wmma::mem_row_major);
}
