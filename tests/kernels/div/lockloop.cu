// nvcc-flags: -arch=sm_75 -O3
// A hash table with per-bucket spin locks, filled by a grid-stride loop: lanes of one warp
// take locks in different iterations, so under convergence barriers they block at the
// lock loop's WAIT in different iterations and must each resume after their own WAIT.
// After the loop an `if` whose barrier could reuse the loop's register.
__global__ void lockloop(const unsigned *keys, unsigned *locks, unsigned *sums, unsigned *hits,
                         unsigned *flags, int n, int nbuckets)
{
    int stride = gridDim.x * blockDim.x;
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned mine = 0;
    for (int i = g; i < n; i += stride) {
        unsigned k = keys[i];
        unsigned b = (k * 2654435761u) % nbuckets;
        while (atomicCAS(&locks[b], 0u, 1u) != 0u) {
        }
        __threadfence();
        volatile unsigned *vs = sums, *vh = hits;
        vs[b] = vs[b] + k;          // plain read-modify-write, safe only under the lock
        vh[b] = vh[b] + 1;
        __threadfence();
        atomicExch(&locks[b], 0u);
        if (k & 1) {
            for (unsigned j = 0; j < (k & 3); j++)
                mine += (k >> j) & 7;
        } else {
            mine ^= k & 12;
        }
    }
    if (mine & 1)
        flags[g] = mine * 3 + 1;
    else
        flags[g] = mine / 2;
}
