// Shared host helpers for the GPGPU-Sim peer programs (bench/peer/*_host.cu):
// checked CUDA calls, upload/download of a std::vector, and the PASS/FAIL line.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA error %d at %s:%d\n", (int)e_, __FILE__, __LINE__); exit(2); } } while (0)
template <class T> T *to_dev(const std::vector<T> &h) {
  T *d; CK(cudaMalloc(&d, h.size() * sizeof(T)));
  CK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice)); return d;
}
template <class T> std::vector<T> from_dev(const T *d, size_t n) {
  std::vector<T> h(n); CK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost)); return h;
}
static int report(const char *name, int bad) {
  printf("%s: %s (%d mismatches)\n", name, bad ? "FAIL" : "PASS", bad); return bad ? 1 : 0;
}
template <class T> static int count_bad(const std::vector<T> &got, const std::vector<T> &want) {
  int bad = 0;
  for (size_t i = 0; i < want.size(); i++)
    if (got[i] != want[i]) {
      if (bad < 5) printf("mismatch [%zu] = %g, want %g\n", i, (double)got[i], (double)want[i]);
      bad++;
    }
  return bad;
}
