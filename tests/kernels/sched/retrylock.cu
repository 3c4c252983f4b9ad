// nvcc-flags: -arch=sm_75 -O3
// A spin lock with a retry counter in global memory, one warp: every thread
// tries to take the lock, counting its failed attempts with atomicAdd (no
// result used: red.global.add).  Under the pre-Volta stack the lane that wins
// waits at the reconvergence point for the others, which spin forever while
// their counters change every iteration (a livelock; real pre-Volta hardware
// hangs).  Under convergence barriers (Volta) it completes: counter = 32.
__global__ void retrylock(unsigned *lock, unsigned *tries, unsigned *counter)
{
    unsigned t = threadIdx.x;
    while (atomicCAS(lock, 0u, 1u) != 0u)
        atomicAdd(&tries[t], 1u);
    *(volatile unsigned *)counter += 1u;
    __threadfence();
    atomicExch(lock, 0u);
}
