// Host driver for stream.cu under GPGPU-Sim: same grid, block and data as stream.yaml.
#include "common.h"
#include "stream.cu"
int main() {
  const int grid = 2, block = 256, n = 131072;
  std::vector<unsigned> x(n), y(n), want(n);
  for (int i = 0; i < n; i++) { x[i] = i; y[i] = 2u * i + 1u; want[i] = 5u * i + 1u; }
  unsigned *d_x = to_dev(x), *d_y = to_dev(y);
  printf("launch stream grid=%d block=%d n=%d\n", grid, block, n);
  stream<<<grid, block>>>(d_x, d_y, n);
  CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
  return report("stream", count_bad(from_dev(d_y, n), want));
}
