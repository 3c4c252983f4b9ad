// Host driver for divergent.cu under GPGPU-Sim: same grid, block and data as divergent.yaml.
#include "common.h"
#include "divergent.cu"
int main() {
  const int grid = 1, block = 128, rounds = 300, n = grid * block;
  std::vector<unsigned> want(n);
  for (int t = 0; t < n; t++) {           // the kernel's loop, sequentially
    unsigned h = t * 0x9E3779B9u + 1u, acc = 0;
    for (int r = 0; r < rounds; r++) {
      h ^= h << 13; h ^= h >> 17; h ^= h << 5;
      switch (h & 3) {
      case 0: acc += h >> 3; break;
      case 1: for (int j = 0; j < 2; j++) acc = acc * 3u + j; break;
      case 2: for (int j = 0; j < 3; j++) acc ^= (acc << 1) + h; break;
      default: for (int j = 0; j < 4; j++) acc += (h >> j) & 0xffu;
      }
    }
    want[t] = acc;
  }
  unsigned *d_out = to_dev(std::vector<unsigned>(n, 0));
  printf("launch divergent grid=%d block=%d rounds=%d\n", grid, block, rounds);
  divergent<<<grid, block>>>(d_out, rounds);
  CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
  return report("divergent", count_bad(from_dev(d_out, n), want));
}
