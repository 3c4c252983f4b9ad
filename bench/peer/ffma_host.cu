// Host driver for ffma.cu under GPGPU-Sim: same grid, block and data as ffma.yaml.
#include <cmath>
#include "common.h"
#include "ffma.cu"
int main() {
  const int grid = 2, block = 64, iters = 1000, n = grid * block;
  std::vector<float> want(n);
  for (int t = 0; t < n; t++) {           // integer arithmetic: every value is exact in f32
    long a = t & 7, b = (t >> 3) & 7, s = 0;
    for (int i = 0; i < iters; i++) {
      s += a * b + (a + 1) * b + a * (b + 1) + (a + 1) * (b + 1);
      a = a + 1 > 8 ? 0 : a + 1;
    }
    want[t] = (float)s;
  }
  float *d_out = to_dev(std::vector<float>(n, -1.0f));
  printf("launch ffma grid=%d block=%d iters=%d\n", grid, block, iters);
  ffma<<<grid, block>>>(d_out, iters);
  CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
  return report("ffma", count_bad(from_dev(d_out, n), want));
}
