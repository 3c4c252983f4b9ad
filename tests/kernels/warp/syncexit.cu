// nvcc-flags: -arch=sm_80 -O3
// Lanes that return before full-mask .sync warp operations (issue 24, item 6). CUDA defines
// this ("all non-exited threads named in mask" take part); nvcc merges the returning lanes'
// store into the common tail, so in the PTX they are still alive, at the tail's
// reconvergence point, while the others run __all_sync, __shfl_sync, __reduce_add_sync,
// __match_any_sync and __syncwarp with the full mask (ptxas: BSYNC at the tail, WARPSYNC
// 0xffffffff before each op). Lanes 4k+3, and lanes 4k+1 / 4k+2 with in[t] < -60, return;
// lanes 4k never do (shfl and the __syncwarp exchange read lane 4k).
__global__ void syncexit(int *in, int4 *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
    int x = in[t];
    int4 v;
    if ((lane & 3) == 3 || ((lane & 3) && x < -60)) {
        v = make_int4(x, -1, -2, -3);
    } else {
        int a = __all_sync(0xffffffffu, x > -50);
        int s = __shfl_sync(0xffffffffu, x, lane & ~3);
        unsigned r = __reduce_add_sync(0xffffffffu, (unsigned)x);
        unsigned m = __match_any_sync(0xffffffffu, x & 3);
        in[t] = x + 7;
        __syncwarp();
        int nb = in[(t & ~31) + (lane & ~3)];
        v = make_int4(a + 2 * nb, s, (int)r, (int)m);
    }
    out[t] = v;
}
