// nvcc-flags: -arch=sm_75 -O3
// Gather loop, two elements per iteration: each thread sums val[idx[k]]
// over its indices k = t, t + 32, t + 64, ... (2 * pairs of them).
extern "C" __global__ void gather(const unsigned *idx, const unsigned *val, unsigned *out, int pairs)
{
    unsigned t = threadIdx.x;
    unsigned s = 0;
#pragma unroll 1
    for (int p = 0; p < pairs; p++) {
        s += val[idx[(2 * p) * 32 + t]];
        s += val[idx[(2 * p + 1) * 32 + t]];
    }
    out[t] = s;
}
