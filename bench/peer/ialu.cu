// ialu: integer ALU loop. Every thread runs `iters` rounds of an LCG step
// (Numerical Recipes constants), an xorshift and an add of the round number:
// a dependent chain of IMAD, SHF/LOP3 and IADD with no memory traffic inside
// the loop. One store per thread at the end.
__global__ void ialu(unsigned *out, int iters)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned x = t * 2654435761u;
#pragma unroll 1
    for (int i = 0; i < iters; i++) {
        x = x * 1664525u + 1013904223u;
        x ^= x >> 15;
        x += (unsigned)i;
    }
    out[t] = x;
}
