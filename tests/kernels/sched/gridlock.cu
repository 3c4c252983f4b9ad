// nvcc-flags: -arch=sm_75 -O3
// A spin lock shared by a grid of CTAs (one 32-thread warp each): every thread
// takes the one global lock, adds 1 to the counter and releases it.  Under the
// pre-Volta stack, in every warp the lane that wins waits at the
// reconvergence point for the others, which spin on the lock it never
// releases: every core loops forever with memory unchanged (a livelock that
// must be proven for any number of cores, each looping with its own period).
// Under convergence barriers (Volta) it completes: counter = grid * 32.
__global__ void gridlock(unsigned *lock, unsigned *counter)
{
    while (atomicCAS(lock, 0u, 1u) != 0u)
        ;
    *(volatile unsigned *)counter += 1u;
    __threadfence();
    atomicExch(lock, 0u);
}
