#include "common.h"
#include "l1hit.cu"
int main() {
  const int grid = 2, block = 64, iters = 1000, n = grid * block;
  std::vector<unsigned> tab(1024); for (int i = 0; i < 1024; i++) tab[i] = i * 3u;
  unsigned *d_tab = to_dev(tab), *d_out = to_dev(std::vector<unsigned>(n, 0));
  l1hit<<<grid, block>>>(d_tab, d_out, iters);
  CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
  std::vector<unsigned> h = from_dev(d_out, n);
  printf("l1hit out[5]=%u\n", h[5]);
  return 0;
}
