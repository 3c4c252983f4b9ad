// nvcc-flags: -arch=sm_80 -O3
// .sync warp operations reached from different branches (issue 10, bug 6): the
// lanes of the member mask rendezvous at .sync operations of the same kind at
// different PCs (independent thread scheduling, sm_70+).
__global__ void xbranch(const int *in, int *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x & 31;
    int v = in[t];
    int *o = out + t * 4;
    __shared__ int s[64];
    int a;
    if (v & 1) {
        a = __shfl_sync(0xffffffffu, v * 3, (lane + 1) & 31);
        o[0] = a + 1000;
    } else {
        a = __shfl_sync(0xffffffffu, v - 7, (lane + 1) & 31);
        o[0] = a - 1000;
    }
    unsigned b;
    if (v > 0)
        b = __ballot_sync(0xffffffffu, v > 50) ^ 0x10000u;
    else
        b = __ballot_sync(0xffffffffu, v < -50) + 1u;
    o[1] = (int)b;
    // __syncwarp() in two branches orders the shared-memory exchange
    int w = threadIdx.x & ~31;
    if (lane < 16) {
        s[w + lane] = v;
        __syncwarp();
        o[2] = s[w + lane + 16];
    } else {
        s[w + lane] = -v;
        __syncwarp();
        o[2] = s[w + lane - 16];
    }
    int r;
    if (v % 3 == 0)
        r = __reduce_add_sync(0xffffffffu, v);
    else
        r = __reduce_add_sync(0xffffffffu, 1);
    o[3] = r;
}
