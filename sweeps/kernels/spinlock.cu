// spinlock: every thread of one warp acquires a global spin lock, increments a
// counter inside the critical section, and releases the lock.
// Under a stack-based (pre-Volta) SIMT reconvergence model this deadlocks: the
// lock winner waits at the loop exit for lanes that spin forever.  With
// independent thread scheduling / convergence barriers it completes.
__global__ void spinlock(unsigned int *mutex, unsigned int *counter)
{
    while (atomicCAS(mutex, 0u, 1u) != 0u)
        ;
    volatile unsigned int *c = counter;
    *c = *c + 1u;
    __threadfence();
    atomicExch(mutex, 0u);
}
