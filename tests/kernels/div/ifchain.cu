// nvcc-flags: -arch=sm_75 -O3
// A 20-way else-if chain that reconverges at one point, inside a loop: one convergence
// barrier register suffices (ptxas: one BSSY/BSYNC per join), not one per branch.
__global__ void ifchain(const int *sel, int *out, int rounds)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int s = sel[t], v = t;
    for (int r = 0; r < rounds; r++) {
        int c = (s + r) % 20;
        if (c == 0) v += 1;
        else if (c == 1) v ^= 0x55;
        else if (c == 2) v *= 3;
        else if (c == 3) v -= 7;
        else if (c == 4) v = (v << 1) | 1;
        else if (c == 5) v += r;
        else if (c == 6) v ^= r * 11;
        else if (c == 7) v = v * 5 + 2;
        else if (c == 8) v -= r * 3;
        else if (c == 9) v = (v >> 1) + 100;
        else if (c == 10) v += 17;
        else if (c == 11) v ^= 0x3c3c;
        else if (c == 12) v *= 7;
        else if (c == 13) v -= 1000;
        else if (c == 14) v = (v << 2) ^ r;
        else if (c == 15) v += s;
        else if (c == 16) v ^= s << 3;
        else if (c == 17) v = v * 9 - r;
        else if (c == 18) v -= s * r;
        else v = (v >> 2) + 5;
        v &= 0xffffff;
    }
    out[t] = v;
}
