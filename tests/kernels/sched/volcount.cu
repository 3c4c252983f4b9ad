// nvcc-flags: -arch=sm_75 -O3
// The spin lock of retrylock.cu with the retry counter as a volatile
// load/add/store that only the spinning thread touches: the counter passes
// through registers (never into a branch, a predicate or an address) and its
// memory word is read only to be incremented.  Livelocks under the stack.
__global__ void volcount(unsigned *lock, volatile unsigned *tries, unsigned *counter)
{
    unsigned t = threadIdx.x;
    while (atomicCAS(lock, 0u, 1u) != 0u)
        tries[t] = tries[t] + 1u;
    *(volatile unsigned *)counter += 1u;
    __threadfence();
    atomicExch(lock, 0u);
}
