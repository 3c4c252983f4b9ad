#include "common.h"
#include "dfma.cu"
int main() {
  const int grid = 2, block = 64, iters = 1000, n = grid * block;
  double *d_out = to_dev(std::vector<double>(n, 0));
  dfma<<<grid, block>>>(d_out, iters);
  CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
  std::vector<double> h = from_dev(d_out, n);
  printf("dfma out[5]=%g\n", (double)h[5]);
  return 0;
}
