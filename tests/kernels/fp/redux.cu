// nvcc-flags: -arch=sm_80
// __reduce_*_sync (redux.sync, sm_80) with full and partial member masks.
__global__ void redux(const int *in, int *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int v = in[t];
    int *o = out + 7 * t;
    o[0] = __reduce_add_sync(0xffffffff, v);
    o[1] = __reduce_min_sync(0xffffffff, v);
    o[2] = (int)__reduce_max_sync(0xffffffff, (unsigned)v);
    if (lane < 12) {
        o[3] = __reduce_add_sync(0x00000fff, (unsigned)v);
        o[4] = __reduce_max_sync(0x00000fff, v);
    } else {
        o[3] = __reduce_and_sync(0xfffff000, (unsigned)v);
        o[4] = __reduce_or_sync(0xfffff000, (unsigned)v);
    }
    o[5] = __reduce_xor_sync(0xffffffff, (unsigned)v);
    o[6] = (int)__reduce_min_sync(0xffffffff, (unsigned)v);
}
