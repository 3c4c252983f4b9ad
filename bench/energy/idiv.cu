// idiv: integer division heavy (held out for the expansion energies): per iteration one
// unsigned and one signed 32-bit division by a divisor that changes every iteration
__global__ void idiv(const unsigned *in, int *out, int iters)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned x = in[i] + 12345u;
    int acc = 0;
    for (int k = 0; k < iters; k++) {
        unsigned d = (x >> 7) % 1000u + 3u;   // varies per lane and iteration
        unsigned q = x / d;
        int s = (int)(x ^ 0x5bd1e995u) / (int)(q | 5u) - k;
        acc += s;
        x = x * 1664525u + 1013904223u + q;
    }
    out[i] = acc;
}
