// nvcc-flags: -arch=sm_80 -O3
// cp.async (issue 15): 4-, 8- and 16-byte copies (.ca; 16 bytes: .cg) with src-size zero-fill
// (__pipeline_memcpy_async's zfill), two commit groups, wait_group 1 then 0, the result read
// back from shared memory after each wait. Expected values: expected.py (the model of
// PTX ISA 9.7.9.25: src-size bytes copied, the rest of cp-size zero).
#include <cuda_pipeline.h>
extern "C" __global__ void cpasync(const unsigned *in, const int *zfill, unsigned *out)
{
    __shared__ __align__(16) unsigned s[4][128];
    int t = threadIdx.x;
    for (int i = t; i < 4 * 128; i += 32) (&s[0][0])[i] = 0xdeadbeef;
    __syncthreads();
    int z = zfill[t];
    // group 0: 4 bytes per thread (zfill 0 or 4), 8 bytes per thread (zfill 0, 4 or 8)
    __pipeline_memcpy_async(&s[0][t], &in[t], 4, z & 4);
    __pipeline_memcpy_async(&s[1][2 * t], &in[64 + 2 * t], 8, z % 3 * 4);
    __pipeline_commit();
    // group 1: 16 bytes per thread (.cg), zfill 0, 4, 8, 12 or 16
    __pipeline_memcpy_async(&s[2][4 * t], &in[128 + 4 * t], 16, z % 5 * 4);
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
    out[t] = s[0][t];
    out[32 + 2 * t] = s[1][2 * t];
    out[33 + 2 * t] = s[1][2 * t + 1];
    __pipeline_wait_prior(0);
    __syncthreads();
    for (int k = 0; k < 4; k++) out[96 + 4 * t + k] = s[2][4 * t + k];
}
