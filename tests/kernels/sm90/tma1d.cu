// 1D bulk copies with cuda::barrier (nvcc 13 -arch=sm_90 -O3 -std=c++17 -ptx): cp.async.bulk global -> shared
// completing on the barrier (barrier_arrive_tx), fence.proxy.async, shared -> global in a bulk group
#include <cuda/barrier>
#include <cuda/std/utility>
using barrier = cuda::barrier<cuda::thread_scope_block>;
namespace cde = cuda::device::experimental;

__global__ void tma1d(const int *in, int *out, int n)
{
    __shared__ alignas(128) int buf[256];
    #pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ barrier bar;
    if (threadIdx.x == 0) {
        init(&bar, blockDim.x);
        cde::fence_proxy_async_shared_cta();
    }
    __syncthreads();
    barrier::arrival_token token;
    if (threadIdx.x == 0) {
        cde::cp_async_bulk_global_to_shared(buf, in + blockIdx.x * 256, sizeof(buf), bar);
        token = cuda::device::barrier_arrive_tx(bar, 1, sizeof(buf));
    } else {
        token = bar.arrive();
    }
    bar.wait(cuda::std::move(token));
    for (int i = threadIdx.x; i < 256; i += blockDim.x) buf[i] = buf[i] * 3 + 1;
    cde::fence_proxy_async_shared_cta();
    __syncthreads();
    if (threadIdx.x == 0) {
        cde::cp_async_bulk_shared_to_global(out + blockIdx.x * 256, buf, sizeof(buf));
        cde::cp_async_bulk_commit_group();
        cde::cp_async_bulk_wait_group_read<0>();
    }
}
