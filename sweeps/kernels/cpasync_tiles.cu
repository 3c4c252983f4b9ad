// nvcc-flags: -arch=sm_80
// cp.async double-buffered tile loop (issue 15): each CTA streams `tiles` tiles of 512 floats
// through two shared-memory buffers; while it computes on tile t (each thread reads a word
// another thread copied: out = s[i] + s[(i + 4) % 512]), the copy of tile t + 1 is in flight
// (__pipeline_memcpy_async 16 bytes per thread, commit, wait_prior(1)). Expected values:
// expected.py (m_cpasync_tiles).
#include <cuda_pipeline.h>
#define TILE 512
extern "C" __global__ void cpasync_tiles(const float *in, float *out, int tiles)
{
    __shared__ __align__(16) float s[2][TILE];
    const int t = threadIdx.x;                       // 128 threads, 4 floats each
    const float *src = in + (size_t)blockIdx.x * tiles * TILE;
    float *dst = out + (size_t)blockIdx.x * tiles * TILE;
    __pipeline_memcpy_async(&s[0][4 * t], &src[4 * t], 16);
    __pipeline_commit();
    for (int k = 0; k < tiles; k++) {
        if (k + 1 < tiles)
            __pipeline_memcpy_async(&s[(k + 1) & 1][4 * t], &src[(k + 1) * TILE + 4 * t], 16);
        __pipeline_commit();
        __pipeline_wait_prior(1);                    // tile k has landed
        __syncthreads();
        const float *b = s[k & 1];
        for (int j = 0; j < 4; j++) {
            int i = 4 * t + j;
            dst[k * TILE + i] = b[i] + b[(i + 4) % TILE];
        }
        __syncthreads();                             // before the next copy overwrites this buffer
    }
}
