// nvcc -arch=sm_80 -O3 -ptx wmma.cu  (nvcc 13); ptxas -v register counts in README.md
// One warp, one 16x16x16 tile of the CUDA nvcuda::wmma API (CUDA C++ Programming Guide,
// "Warp Matrix Functions"), which nvcc lowers to wmma.load / wmma.mma / wmma.store.
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;

// D = 2 * (A * B + C): A row-major with a padded leading dimension lda, B column-major
// (ldb 16), C row-major, f32 accumulators, D stored column-major. The scaling runs on the
// fragment elements, which is layout-independent.
extern "C" __global__ void wmma_f32(const half *A, int lda, const half *B, const float *C, float *D)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
    wmma::load_matrix_sync(a, A, lda);
    wmma::load_matrix_sync(b, B, 16);
    wmma::load_matrix_sync(c, C, 16, wmma::mem_row_major);
    wmma::mma_sync(c, a, b, c);
    for (int i = 0; i < c.num_elements; i++) c.x[i] = 2.0f * c.x[i];
    wmma::store_matrix_sync(D, c, 16, wmma::mem_col_major);
}

// D = A * B + C through shared memory: A column-major, B row-major, f16 accumulators
// (C column-major), D stored row-major.
extern "C" __global__ void wmma_f16(const half *A, const half *B, const half *C, half *D)
{
    __shared__ half sa[256], sb[256], sc[256];
    for (int i = threadIdx.x; i < 256; i += 32) { sa[i] = A[i]; sb[i] = B[i]; sc[i] = C[i]; }
    __syncwarp();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::col_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, half> c;
    wmma::load_matrix_sync(a, sa, 16);
    wmma::load_matrix_sync(b, sb, 16);
    wmma::load_matrix_sync(c, sc, 16, wmma::mem_col_major);
    wmma::mma_sync(c, a, b, c);
    __syncwarp();
    wmma::store_matrix_sync(sc, c, 16, wmma::mem_row_major);
    __syncwarp();
    for (int i = threadIdx.x; i < 256; i += 32) D[i] = sc[i];
}

// m32n8k16, f32 accumulators: D = A * B + C; A row-major (lda 16), B column-major (ldb 16),
// C row-major (8), D column-major (ldd 32).
extern "C" __global__ void wmma_m32n8(const half *A, const half *B, const float *C, float *D)
{
    wmma::fragment<wmma::matrix_a, 32, 8, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 32, 8, 16, half, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 32, 8, 16, float> c;
    wmma::load_matrix_sync(a, A, 16);
    wmma::load_matrix_sync(b, B, 16);
    wmma::load_matrix_sync(c, C, 8, wmma::mem_row_major);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(D, c, 32, wmma::mem_col_major);
}

// m8n32k16, f16 accumulators: D = A * B + C; A column-major (lda 8), B row-major (ldb 32),
// C column-major (8), D row-major (ldd 32).
extern "C" __global__ void wmma_m8n32(const half *A, const half *B, const half *C, half *D)
{
    wmma::fragment<wmma::matrix_a, 8, 32, 16, half, wmma::col_major> a;
    wmma::fragment<wmma::matrix_b, 8, 32, 16, half, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 8, 32, 16, half> c;
    wmma::load_matrix_sync(a, A, 8);
    wmma::load_matrix_sync(b, B, 32);
    wmma::load_matrix_sync(c, C, 8, wmma::mem_col_major);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(D, c, 32, wmma::mem_row_major);
}
