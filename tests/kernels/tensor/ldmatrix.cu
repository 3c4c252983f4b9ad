// nvcc-flags: -arch=sm_80 -O3
// ldmatrix (issue 15): x4, x1.trans and x2 (.shared::cta) from a shared tile whose rows lane l
// addresses (row l of the four 8x8 b16 matrices); every lane dumps the registers it received.
// Expected values: tests/kernels/tensor/expected.py (m_ldmatrix, from the PTX ISA 9.7.9.26 text).
#include <cuda_fp16.h>
extern "C" __global__ void ldmatrix(const unsigned short *in, unsigned *out)
{
    __shared__ __align__(16) unsigned short s[4 * 64];
    int l = threadIdx.x;
    for (int i = l; i < 256; i += 32) s[i] = in[i];
    __syncthreads();
    unsigned a0, a1, a2, a3, t0, b0;
    unsigned addr = (unsigned)__cvta_generic_to_shared(&s[(l % 32) * 8]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3) : "r"(addr));
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(t0) : "r"(addr));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared::cta.b16 {%0,%1}, [%2];" : "=r"(b0), "=r"(a3) : "r"(addr));
    out[l * 6] = a0; out[l * 6 + 1] = a1; out[l * 6 + 2] = a2; out[l * 6 + 3] = a3; out[l * 6 + 4] = t0; out[l * 6 + 5] = b0;
}
