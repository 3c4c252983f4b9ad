// atomichist: global atomicAdd histogram, 32 threads x n values hashed into 16 bins
extern "C" __global__ void lw_atomichist(const unsigned *in, unsigned *bins, int n)
{
    unsigned t = threadIdx.x;
#pragma unroll 1
    for (int i = 0; i < n; i++) {
        unsigned v = in[i * 32 + t];
        atomicAdd(&bins[(v * 2654435761u) >> 28], 1u);
    }
}
