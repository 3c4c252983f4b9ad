// dram: a grid-stride copy of 16 MiB (more than the V100's 6 MiB L2): every sector a DRAM access
__global__ void dram(const unsigned *in, unsigned *out, unsigned n)
{
    unsigned stride = gridDim.x * blockDim.x;
#pragma unroll 1
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) out[i] = in[i] + 1u;
}
