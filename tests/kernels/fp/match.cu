// __match_any_sync / __match_all_sync and a warp-aggregated atomic increment
// in divergent code.
__device__ unsigned agg_inc(unsigned *ctr)
{
    unsigned mask = __activemask();
    int leader = __clz(__brev(mask));   // = __ffs(mask) - 1 (__ffs needs bfind)
    int lane = threadIdx.x & 31;
    unsigned base;
    if (lane == leader) base = atomicAdd(ctr, __popc(mask));
    base = __shfl_sync(mask, base, leader);
    return base + __popc(mask & ((1u << lane) - 1));
}

__global__ void match(const int *in, unsigned *out, unsigned *ctr, unsigned *slots)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[t];
    unsigned *o = out + 3 * t;
    o[0] = __match_any_sync(0xffffffff, v % 5);
    int pred;
    o[1] = __match_all_sync(0xffffffff, v / 32 + (v == 127), &pred);   // false in the last warp only
    o[2] = pred;
    if (v % 3 != 0) {
        unsigned slot = agg_inc(ctr);
        slots[slot] = t;
    }
}
