// nvcc-flags: -arch=sm_80 -O3
// Member masks (issue 10, bug 3): in a converged warp the lanes pass different
// membermasks (cooperative groups' tiled_partition / binary_partition /
// labeled_partition); each lane's result combines only its own group.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void tiles(const int *in, unsigned *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x & 31;
    int v = in[t];
    unsigned *o = out + t * 12;
    // even / odd lanes
    unsigned eo = (lane & 1) ? 0xaaaaaaaau : 0x55555555u;
    o[0] = __reduce_add_sync(eo, lane);
    o[1] = __reduce_max_sync(eo, (unsigned)v);
    o[2] = __ballot_sync(eo, v > 0);
    // halves: tiled_partition<16>
    cg::thread_block_tile<16> h = cg::tiled_partition<16>(cg::this_thread_block());
    o[3] = h.ballot(v & 1);
    o[4] = h.all(v > -90);
    o[5] = h.any(v > 80);
    o[6] = h.shfl(v, 3);
    o[7] = cg::reduce(h, v, cg::plus<int>());
    unsigned hm = lane < 16 ? 0x0000ffffu : 0xffff0000u;
    o[8] = __reduce_min_sync(hm, v);
    o[9] = __match_any_sync(hm, v & 3);
    // binary_partition and labeled_partition of the warp
    cg::thread_block_tile<32> w = cg::tiled_partition<32>(cg::this_thread_block());
    cg::coalesced_group b = cg::binary_partition(w, v < 0);
    o[10] = b.size() * 1000 + b.thread_rank();
    cg::coalesced_group l = cg::labeled_partition(w, v & 3);
    o[11] = l.size() * 1000 + l.thread_rank();
}
