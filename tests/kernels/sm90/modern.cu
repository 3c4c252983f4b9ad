// nvcc-flags: -arch=sm_90 -O3 -std=c++17
// sm_80/sm_90 PTX nvcc emits for ordinary code (issue 15): cuda::barrier (mbarrier.init,
// arrive, try_wait, with its %globaltimer backoff) reused over two phases by 2 warps,
// elect.sync, redux.sync, griddepcontrol, createpolicy + ld.global.L2::cache_hint,
// ld.global.L1::evict_last. Expected values: expected.py (m_modern).
#include <cuda/barrier>
#include <cuda/annotated_ptr>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void modern(const unsigned *in, unsigned *out)
{
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    __shared__ unsigned s[64];
    auto block = cg::this_thread_block();
    const int t = threadIdx.x;
    if (t == 0) init(&bar, block.size());
    block.sync();
    cudaGridDependencySynchronize();
    cuda::annotated_ptr<const unsigned, cuda::access_property::persisting> p(in);
    unsigned v = p[t];                                  // ld.global.L2::cache_hint
    unsigned long long pol;
    asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(pol));
    unsigned w;
    asm volatile("ld.global.L1::evict_last.L2::cache_hint.u32 %0, [%1], %2;" : "=r"(w) : "l"(in + 64 + t), "l"(pol));
    s[t] = 2 * v;
    bar.arrive_and_wait();                              // phase 0
    out[t] = s[(t + 1) % 64];
    bar.arrive_and_wait();                              // phase 1: every read above is done
    s[t] = w + 1;
    bar.arrive_and_wait();                              // phase 2
    out[64 + t] = s[63 - t];
    unsigned leader, elected;
    asm volatile("{ .reg .pred e; elect.sync %0|e, 0xffffffff; selp.u32 %1, 1, 0, e; }" : "=r"(leader), "=r"(elected));
    out[128 + t] = leader + 32 * elected;
    out[192 + t] = __reduce_max_sync(0xffffffff, v) + __reduce_add_sync(0xffffffff, w);
    cudaTriggerProgrammaticLaunchCompletion();
}
