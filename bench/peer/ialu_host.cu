// Host driver for ialu.cu under GPGPU-Sim: same grid, block and data as ialu.yaml.
#include "common.h"
#include "ialu.cu"
int main() {
  const int grid = 2, block = 64, iters = 1500, n = grid * block;
  std::vector<unsigned> want(n);
  for (int t = 0; t < n; t++) {           // the kernel's loop, sequentially
    unsigned x = t * 2654435761u;
    for (int i = 0; i < iters; i++) { x = x * 1664525u + 1013904223u; x ^= x >> 15; x += (unsigned)i; }
    want[t] = x;
  }
  unsigned *d_out = to_dev(std::vector<unsigned>(n, 0));
  printf("launch ialu grid=%d block=%d iters=%d\n", grid, block, iters);
  ialu<<<grid, block>>>(d_out, iters);
  CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
  return report("ialu", count_bad(from_dev(d_out, n), want));
}
