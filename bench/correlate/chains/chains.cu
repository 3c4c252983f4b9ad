// Dependent chains for bench/correlate: each kernel runs 200 rounds of K (8 or 16) dependent
// add.s32 / xor.b32 / mad.lo.s32 on one warp, so (cycles at K=16 - cycles at K=8) / 1600 is
// the dependent-issue distance of the opcode. Built with nvcc -arch=sm_75 -O3 --cudart shared
// --no-compress (host and kernels in this file); chains.ptx: nvcc -arch=sm_75 -O3 -ptx.
#include <cstdio>
#define CHAIN(OP, K) \
__global__ void k_##OP##K(unsigned *out, int iters, unsigned s) { \
  unsigned x = threadIdx.x + s; \
  for (int i = 0; i < iters; i++) { \
    _Pragma("unroll") for (int k = 0; k < K; k++) asm volatile(OP_##OP : "+r"(x) : "r"(s)); \
  } \
  out[threadIdx.x] = x; }
#define OP_add "add.s32 %0, %0, %1;"
#define OP_xor "xor.b32 %0, %0, %1;"
#define OP_mad "mad.lo.s32 %0, %0, %1, %1;"
CHAIN(add, 8) CHAIN(add, 16) CHAIN(xor, 8) CHAIN(xor, 16) CHAIN(mad, 8) CHAIN(mad, 16)
int main() {
  unsigned *d; cudaMalloc(&d, 32 * 4);
  k_add8<<<1, 32>>>(d, 200, 3); cudaDeviceSynchronize();
  k_add16<<<1, 32>>>(d, 200, 3); cudaDeviceSynchronize();
  k_xor8<<<1, 32>>>(d, 200, 3); cudaDeviceSynchronize();
  k_xor16<<<1, 32>>>(d, 200, 3); cudaDeviceSynchronize();
  k_mad8<<<1, 32>>>(d, 200, 3); cudaDeviceSynchronize();
  k_mad16<<<1, 32>>>(d, 200, 3); cudaDeviceSynchronize();
  printf("done\n"); return 0;
}
