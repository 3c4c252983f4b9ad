// nvcc-flags: -arch=sm_75 -O3
// A histogram with one spin lock per bucket, filled by a grid-stride loop (2 CTAs of 64):
// each thread takes its key's bucket lock with atomicCAS, adds to the bucket's count and
// sum under the lock, and releases it. Under the pre-Volta stack the lane that wins a lock
// waits at the loop's reconvergence point while the others of its warp spin on locks it
// holds: a livelock (the stack's SIMT deadlock) that the proof must find under every scheduler.
__global__ void bucketlock(const unsigned *keys, unsigned *locks, unsigned *counts, unsigned *sums,
                           int n, int nbuckets)
{
    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        unsigned k = keys[i];
        unsigned b = k % nbuckets;
        while (atomicCAS(&locks[b], 0u, 1u) != 0u) {
        }
        __threadfence();
        volatile unsigned *vc = counts, *vs = sums;
        vc[b] = vc[b] + 1;
        vs[b] = vs[b] + k;
        __threadfence();
        atomicExch(&locks[b], 0u);
    }
}
