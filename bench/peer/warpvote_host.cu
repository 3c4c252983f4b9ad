// Host driver for warpvote.cu under GPGPU-Sim: same grid, block and data as warpvote.yaml.
#include "common.h"
#include "warpvote.cu"
int main() {
  const int grid = 1, block = 128, rounds = 800, n = grid * block, warps = n / 32;
  std::vector<unsigned> want(warps);
  for (int w = 0; w < warps; w++) {       // the warp, 32 lanes in lock-step
    unsigned v[32], acc[32] = {0};
    for (int l = 0; l < 32; l++) v[l] = (32u * w + l) * 0x9E3779B9u + 7u;
    for (int r = 0; r < rounds; r++) {
      unsigned ones = 0, any = 0, all = 1, nv[32];
      for (int l = 0; l < 32; l++) {
        v[l] ^= v[l] << 13; v[l] ^= v[l] >> 17; v[l] ^= v[l] << 5;
        ones += v[l] & 1u; any |= v[l] < 0x1000000u; all &= v[l] > 0x100000u;
      }
      for (int l = 0; l < 32; l++) { acc[l] += ones + any + 2u * all; nv[l] = v[(l + 1) & 31]; }
      for (int l = 0; l < 32; l++) v[l] = nv[l];
    }
    unsigned sum = 0;                     // the butterfly leaves every lane with the sum
    for (int l = 0; l < 32; l++) sum += acc[l];
    want[w] = sum;
  }
  unsigned *d_out = to_dev(std::vector<unsigned>(warps, 0));
  printf("launch warpvote grid=%d block=%d rounds=%d\n", grid, block, rounds);
  warpvote<<<grid, block>>>(d_out, rounds);
  CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
  return report("warpvote", count_bad(from_dev(d_out, warps), want));
}
