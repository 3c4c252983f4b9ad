// nvcc-flags: -arch=sm_75 -G
// A lock-based hash insert, lane-serialised (issue 40 item 5): each thread inserts its keys (a
// grid-stride loop) into its bucket's run of SLOTS slots, at the first empty one, under the
// bucket's spin lock, and the 32 lanes of a warp take their turns one after another
// (`if (lane == l)`), the pre-Volta way around the SIMT deadlock of two lanes of one warp
// spinning on one lock. Under a per-warp stack this completes (which key lands in which slot of
// its run depends on the order of the inserts; the run's keys do not). Under tbc the block-wide
// stack compacts the same lane of every warp of the CTA into dynamic warps of one entry, so a
// winner waits at the spin loop's reconvergence point for threads of other warps spinning on the
// lock it holds: the block-wide SIMT deadlock, a livelock the proof must find (at the volta
// core's defaults its period is 151 back-edges, 18,054 cycles, and none of its back-edge windows
// was distinguished once the search reached 8 bits: deadlock.c dp_backedge). Built with -G:
// every variable lives in local memory.
#define SLOTS 16
__global__ void hashlock(const unsigned *keys, unsigned *table, int *locks, int n, int nb)
{
    int stride = gridDim.x * blockDim.x;
    unsigned lane = threadIdx.x % 32;
    for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < n; j += stride) {
        unsigned k = keys[j];
        unsigned b = (k * 2654435761u) % nb;
        for (unsigned l = 0; l < 32; l++) {
            if (lane == l) {
                while (atomicCAS(&locks[b], 0, 1) != 0) {
                }
                unsigned s = b * SLOTS;
                while (((volatile unsigned *)table)[s] != 0u) s++;
                ((volatile unsigned *)table)[s] = k;
                __threadfence();
                atomicExch(&locks[b], 0);
            }
        }
    }
}
