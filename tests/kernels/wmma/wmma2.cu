// nvcc -arch=sm_80 -O3 -ptx wmma2.cu  (nvcc 13); ptxas -v register counts in README.md
// The wmma element types beyond .f16 (CUDA C++ Programming Guide, "Warp Matrix Functions":
// __nv_bfloat16, precision::tf32, signed/unsigned char, double), one warp and one tile each;
// nvcc lowers them to wmma.load / wmma.mma / wmma.store with .bf16, .tf32, .s8/.u8, .f64.
#include <mma.h>
#include <cuda_bf16.h>
using namespace nvcuda;

// m16n16k16 bf16 -> f32: A row-major, B col-major, C row-major, D col-major
extern "C" __global__ void wmma_bf16(const __nv_bfloat16 *A, const __nv_bfloat16 *B, const float *C, float *D)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
    wmma::load_matrix_sync(a, A, 16);
    wmma::load_matrix_sync(b, B, 16);
    wmma::load_matrix_sync(c, C, 16, wmma::mem_row_major);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(D, c, 16, wmma::mem_col_major);
}

// m32n8k16 bf16 -> f32 through shared memory: A col-major, B row-major, C col-major, D row-major
extern "C" __global__ void wmma_bf16_m32n8(const __nv_bfloat16 *A, const __nv_bfloat16 *B, const float *C, float *D)
{
    __shared__ __nv_bfloat16 sa[512], sb[128];
    for (int i = threadIdx.x; i < 512; i += 32) sa[i] = A[i];
    for (int i = threadIdx.x; i < 128; i += 32) sb[i] = B[i];
    __syncwarp();
    wmma::fragment<wmma::matrix_a, 32, 8, 16, __nv_bfloat16, wmma::col_major> a;
    wmma::fragment<wmma::matrix_b, 32, 8, 16, __nv_bfloat16, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 32, 8, 16, float> c;
    wmma::load_matrix_sync(a, sa, 32);
    wmma::load_matrix_sync(b, sb, 8);
    wmma::load_matrix_sync(c, C, 32, wmma::mem_col_major);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(D, c, 8, wmma::mem_row_major);
}

// m8n32k16 bf16 -> f32: A row-major, B col-major (ldb 24: padding), C row-major, D col-major
extern "C" __global__ void wmma_bf16_m8n32(const __nv_bfloat16 *A, const __nv_bfloat16 *B, const float *C, float *D)
{
    wmma::fragment<wmma::matrix_a, 8, 32, 16, __nv_bfloat16, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 8, 32, 16, __nv_bfloat16, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 8, 32, 16, float> c;
    wmma::load_matrix_sync(a, A, 16);
    wmma::load_matrix_sync(b, B, 24);
    wmma::load_matrix_sync(c, C, 32, wmma::mem_row_major);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(D, c, 8, wmma::mem_col_major);
}

// m16n16k8 tf32 -> f32: the f32 inputs rounded to tf32 in the fragments (__float_to_tf32,
// cvt.rna.tf32.f32); A row-major, B col-major, C row-major, D row-major
extern "C" __global__ void wmma_tf32(const float *A, const float *B, const float *C, float *D)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> c;
    wmma::load_matrix_sync(a, A, 8);
    wmma::load_matrix_sync(b, B, 8);
    for (int i = 0; i < a.num_elements; i++) a.x[i] = wmma::__float_to_tf32(a.x[i]);
    for (int i = 0; i < b.num_elements; i++) b.x[i] = wmma::__float_to_tf32(b.x[i]);
    wmma::load_matrix_sync(c, C, 16, wmma::mem_row_major);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(D, c, 16, wmma::mem_row_major);
}

// m16n16k16 s8 -> s32 with saturation (satf: .satfinite): A row-major, B col-major, C row-major, D row-major
extern "C" __global__ void wmma_s8(const signed char *A, const signed char *B, const int *C, int *D)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> c;
    wmma::load_matrix_sync(a, A, 16);
    wmma::load_matrix_sync(b, B, 16);
    wmma::load_matrix_sync(c, C, 16, wmma::mem_row_major);
    wmma::mma_sync(c, a, b, c, true);
    wmma::store_matrix_sync(D, c, 16, wmma::mem_row_major);
}

// m32n8k16 u8 -> s32: A row-major, B row-major, C col-major, D col-major
extern "C" __global__ void wmma_u8_m32n8(const unsigned char *A, const unsigned char *B, const int *C, int *D)
{
    wmma::fragment<wmma::matrix_a, 32, 8, 16, unsigned char, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 32, 8, 16, unsigned char, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 32, 8, 16, int> c;
    wmma::load_matrix_sync(a, A, 16);
    wmma::load_matrix_sync(b, B, 8);
    wmma::load_matrix_sync(c, C, 32, wmma::mem_col_major);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(D, c, 32, wmma::mem_col_major);
}

// m8n32k16 s8 -> s32: A col-major, B col-major, C row-major, D row-major
extern "C" __global__ void wmma_s8_m8n32(const signed char *A, const signed char *B, const int *C, int *D)
{
    wmma::fragment<wmma::matrix_a, 8, 32, 16, signed char, wmma::col_major> a;
    wmma::fragment<wmma::matrix_b, 8, 32, 16, signed char, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 8, 32, 16, int> c;
    wmma::load_matrix_sync(a, A, 8);
    wmma::load_matrix_sync(b, B, 16);
    wmma::load_matrix_sync(c, C, 32, wmma::mem_row_major);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(D, c, 32, wmma::mem_row_major);
}

// m8n8k4 f64: A row-major, B col-major, C row-major, D col-major
extern "C" __global__ void wmma_f64(const double *A, const double *B, const double *C, double *D)
{
    wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 8, 8, 4, double> c;
    wmma::load_matrix_sync(a, A, 4);
    wmma::load_matrix_sync(b, B, 4);
    wmma::load_matrix_sync(c, C, 8, wmma::mem_row_major);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(D, c, 8, wmma::mem_col_major);
}
