// Host driver for smemreduce.cu under GPGPU-Sim: same grid, block and data as smemreduce.yaml.
#include "common.h"
#include "smemreduce.cu"
int main() {
  const int grid = 2, block = 256, tiles = 40, count = grid * tiles * 256;
  std::vector<unsigned> in(count);
  for (int i = 0; i < count; i++) in[i] = i;          // iota, as the yaml
  std::vector<unsigned> want(grid, 0);
  for (int i = 0; i < count; i++) want[i / (tiles * 256)] += in[i];
  unsigned *d_in = to_dev(in), *d_out = to_dev(std::vector<unsigned>(grid, 0xffffffffu));
  printf("launch smemreduce grid=%d block=%d tiles=%d\n", grid, block, tiles);
  smemreduce<<<grid, block>>>(d_in, d_out, tiles);
  CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
  return report("smemreduce", count_bad(from_dev(d_out, grid), want));
}
