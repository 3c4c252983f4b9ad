// nvcc-flags: -arch=sm_75 -O3
// bar.red in the cycle-level core (issue 10, bug 2): __syncthreads_count/_and/_or
// over a 128-thread CTA, and bar.red with a thread count on two named barriers at
// once (warps 0-1 on barrier 1, warps 2-3 on barrier 2, 64 threads each).
__global__ void barred(const int *in, unsigned *out)
{
    int t = threadIdx.x;
    int v = in[blockIdx.x * 128 + t];
    unsigned *o = out + blockIdx.x * 128 * 6 + t * 6;
    o[0] = __syncthreads_count(t < 40);          // 40
    o[1] = __syncthreads_count(v > 0);           // data dependent
    o[2] = __syncthreads_and(v != 0);
    o[3] = __syncthreads_or(v > 90);
    unsigned r;
    if (t < 64) {
        asm volatile("{ .reg .pred p; setp.ne.s32 p, %1, 0;"
                     " bar.red.popc.u32 %0, 1, 64, p; }" : "=r"(r) : "r"(v & 1));
    } else {
        asm volatile("{ .reg .pred p, q; setp.gt.s32 p, %1, -95;"
                     " bar.red.and.pred q, 2, 64, p; selp.u32 %0, 1, 0, q; }" : "=r"(r) : "r"(v));
    }
    o[4] = r;
    // a loop: the count changes every iteration
    unsigned acc = 0;
    for (int k = 0; k < 4; k++)
        acc = acc * 131 + __syncthreads_count(((v + k) & 3) == 0);
    o[5] = acc;
}
