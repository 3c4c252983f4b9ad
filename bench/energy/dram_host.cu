#include "common.h"
#include "dram.cu"
int main() {
  const unsigned n = 2u << 20;   // 2 Mi words in, 2 Mi out: 16 MiB in all
  std::vector<unsigned> in(n); for (unsigned i = 0; i < n; i++) in[i] = i;
  unsigned *d_in = to_dev(in), *d_out = to_dev(std::vector<unsigned>(n, 0));
  dram<<<16, 128>>>(d_in, d_out, n);
  CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
  std::vector<unsigned> h = from_dev(d_out, n);
  printf("dram out[7]=%u\n", h[7]);
  return 0;
}
