// ballot/any/all/activemask and __syncwarp inside divergent branches.
__global__ void vote(const int *in, unsigned *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int v = in[t];
    unsigned *o = out + 6 * t;
    o[0] = __ballot_sync(0xffffffff, v > 10);
    if (lane & 1) {
        unsigned m = __activemask();
        o[1] = m;
        o[2] = __ballot_sync(0xaaaaaaaa, v % 3 == 0);
        o[3] = __any_sync(0xaaaaaaaa, v == 13) | (__all_sync(0xaaaaaaaa, v > 0) << 1);
        __syncwarp(0xaaaaaaaa);
    } else {
        o[1] = __activemask();
        o[2] = __ballot_sync(0x55555555, v % 3 == 0);
        o[3] = __any_sync(0x55555555, v == 13) | (__all_sync(0x55555555, v >= 0) << 1);
        __syncwarp(0x55555555);
    }
    o[4] = __popc(__ballot_sync(0xffffffff, v & 4));
    o[5] = __all_sync(0xffffffff, v >= 0) + 2 * __any_sync(0xffffffff, v < 0);
}
