#include <cuda_fp16.h>
#include "common.h"
#include "tensor.cu"
int main() {
  const int grid = 2, block = 128, iters = 500, warps = grid * block / 32;
  std::vector<half> a(256), b(256);
  for (int i = 0; i < 256; i++) { a[i] = __float2half((float)(i % 3)); b[i] = __float2half((float)(i % 5) * 0.25f); }
  half *d_a = to_dev(a), *d_b = to_dev(b);
  float *d_d = to_dev(std::vector<float>(warps * 256, 0.0f));
  tensor<<<grid, block>>>(d_a, d_b, d_d, iters);
  CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
  std::vector<float> h = from_dev(d_d, warps * 256);
  printf("tensor D[1]=%g\n", h[1]);
  return 0;
}
