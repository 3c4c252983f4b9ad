#include "common.h"
#include "fmul.cu"
int main() {
  const int grid = 2, block = 64, iters = 1000, n = grid * block;
  float *d_out = to_dev(std::vector<float>(n, 0));
  fmul<<<grid, block>>>(d_out, iters);
  CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
  std::vector<float> h = from_dev(d_out, n);
  printf("fmul out[5]=%g\n", (double)h[5]);
  return 0;
}
