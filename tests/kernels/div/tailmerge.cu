// nvcc-flags: -arch=sm_75 -O3
// Threads with odd values store and return before a __syncthreads the others reach. nvcc
// merges the returning threads' store into the common tail, so in the PTX they are alive
// (parked at the reconvergence point) while the others wait at bar.sync: they must count as
// arrived, as the hardware counts a warp's arrival at bar.sync (barrier.sync.aligned).
__global__ void tailmerge(const int *in, int *out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    int v = in[t];
    if (v & 1) {
        out[t] = v * 5;
        return;
    }
    s[t / 2] = v;
    __syncthreads();
    out[t] = s[(t / 2 + 1) % (blockDim.x / 2)] + v;
}
