// nvcc-flags: -arch=sm_75 -O3
// The spin lock with a retry counter that steers control flow: every 64th
// failed attempt of a thread is also counted in a global statistic.  Under the
// stack it livelocks like retrylock, but the counter's value decides a branch,
// so the loop's state never recurs and no proof is sound: it must end as
// timeout, the message naming the changing memory and the load that reads it.
__global__ void statlock(unsigned *lock, volatile unsigned *tries, unsigned *counter, unsigned *stats)
{
    unsigned t = threadIdx.x;
    while (atomicCAS(lock, 0u, 1u) != 0u) {
        unsigned n = tries[t] + 1u;
        tries[t] = n;
        if ((n & 63u) == 0u)
            atomicAdd(stats, 1u);
    }
    *(volatile unsigned *)counter += 1u;
    __threadfence();
    atomicExch(lock, 0u);
}
