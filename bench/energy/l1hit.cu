// l1hit: every thread re-reads a 4 KiB table (L1-resident after the first pass)
__global__ void l1hit(const unsigned *tab, unsigned *out, int iters)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x, s = 0;
#pragma unroll 1
    for (int i = 0; i < iters; i++)
        s += tab[(t + i * 32) & 1023];
    out[t] = s;
}
