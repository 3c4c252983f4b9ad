// nvcc -arch=sm_80 -ptx -O3 smem_bias.cu: the unrolled shared-init loop of a cp.async kernel.
// Its main loop forms the shared address as buf + (i - 1024) in .u32 and stores at
// [addr+1024], [addr+1280], ...: for thread 0 the register wraps below 0 (32-bit address
// arithmetic, PTX ISA "Addresses as Operands").
#include <cuda_pipeline.h>
#define N 3000
__global__ void smem_bias(const int4 *src, unsigned char *out)
{
    __shared__ __align__(16) unsigned char buf[3264];
    for (int i = threadIdx.x; i < N; i += 256) buf[i] = (unsigned char)(7 * i + 1);
    __syncthreads();
    if (threadIdx.x < 16) __pipeline_memcpy_async(&buf[3008 + 16 * threadIdx.x], &src[threadIdx.x], 16);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    for (int i = threadIdx.x; i < 3264; i += 256)
        if (i < N || i >= 3008) out[blockIdx.x * 3264 + i] = buf[i];
}
