// Cooperative float warp reductions inside divergent branches, each with the
// member mask of the lanes that took the branch.
__global__ void divreduce(const float *in, float *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    float v = in[t];
    float r;
    if (lane < 16) {
        r = v;
        for (int k = 8; k > 0; k >>= 1) r += __shfl_down_sync(0x0000ffff, r, k, 16);
    } else if (lane & 1) {
        r = v;
        for (int k = 2; k < 16; k <<= 1) r += __shfl_xor_sync(0xaaaa0000, r, k);
    } else {
        r = fmaxf(v, __shfl_xor_sync(0x55550000, v, 2));
        r = fmaxf(r, __shfl_xor_sync(0x55550000, r, 4));
        r = fmaxf(r, __shfl_xor_sync(0x55550000, r, 8));
    }
    out[t] = r;
}
