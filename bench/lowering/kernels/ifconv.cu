// ifconv: a Sobol-style quasi-random generator: XOR the direction numbers of the set bits of the
// index; the short if-bodies are warp-uniform and ptxas if-converts them (predicated LOP3s)
extern "C" __global__ void lw_ifconv(const unsigned *v, unsigned *out, int n)
{
    unsigned t = threadIdx.x;
    unsigned d0 = v[0], d1 = v[1], d2 = v[2], d3 = v[3], d4 = v[4], d5 = v[5];
    unsigned acc = 0;
#pragma unroll 1
    for (int i = 0; i < n; i++) {
        unsigned k = (unsigned)i * 32u + t, r = 0;
        if (k & 1u)  r ^= d0;
        if (k & 2u)  r ^= d1;
        if (k & 4u)  r ^= d2;
        if (k & 8u)  r ^= d3;
        if (k & 16u) r ^= d4;
        if (k & 32u) r ^= d5;
        acc += r;
    }
    out[t] = acc;
}
