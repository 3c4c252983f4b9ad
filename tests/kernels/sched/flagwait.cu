// nvcc-flags: -arch=sm_75 -O3
// Warp 0 spins on a flag that warp 1 sets (warps 2, 3 only store their id).
// Correct under any fair scheduler; swl with swl_limit=1 keeps only the oldest
// warp, 0, in its window, so warp 1 never issues: scheduler starvation.
__global__ void flagwait(volatile unsigned *flag, unsigned *out)
{
    unsigned t = threadIdx.x, w = t / 32;
    if (w == 0) {
        while (*flag == 0u)
            ;
        out[t] = *flag + t;
    } else {
        if (w == 1 && (t & 31) == 0)
            *flag = 7u;
        out[t] = t;
    }
}
