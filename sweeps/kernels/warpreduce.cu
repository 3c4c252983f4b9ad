// warpreduce: tree reduction inside each warp with
// __shfl_down_sync(0xffffffff, ...); lane 0 of every warp writes the warp sum.
__global__ void warpreduce(const int *in, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
#pragma unroll
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, off);
    if ((threadIdx.x & 31) == 0)
        out[i >> 5] = v;
}
