// nvcc-flags: -arch=sm_90 -O3
// __device__ globals and __constant__ tables with initialisers (8/16/32/64-bit, a pointer
// initialised with another variable's address), and the last-block-done pattern.
__constant__ int ctab[16] = {3, -1, 4, -1, 5, -9, 2, -6, 5, 3, -5, 8, 9, -7, 9, 3};
__constant__ unsigned long long cbig[4] = {0x123456789abcdefull, 0xfedcba9876543210ull, 1ull << 63, 42};
__constant__ signed char cchar[8] = {-128, -1, 0, 1, 127, -50, 50, 7};
__device__ short dshort[8] = {-32768, -2, 300, 32767, -300, 5, -5, 1000};
__device__ int dtab[8] = {10, 20, 30, 40, 50, 60, 70, 80};
__device__ int *dptr = dtab + 2;
__device__ unsigned int done_count = 0;
__device__ long long total = 0;

__global__ void globals(const int *in, long long *out, long long *result)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    long long x = ctab[v & 15] + dtab[i & 7] + (long long)cchar[(v >> 4) & 7] * dshort[i & 7] +
                  (long long)(cbig[i & 3] >> (v & 63)) + dptr[i & 3];
    out[i] = x;
    atomicAdd((unsigned long long *)&total, (unsigned long long)x);
    __threadfence();
    __shared__ bool last;
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned ticket = atomicInc(&done_count, gridDim.x - 1);
        last = (ticket == gridDim.x - 1);
    }
    __syncthreads();
    if (last && threadIdx.x == 0) {
        result[0] = *(volatile long long *)&total;
        result[1] = done_count;      // wrapped back to 0 by atomicInc
        total = 0;
    }
}
