// l2hit: L2 read hits through the L1 (calibrates the L2 read-hit energy): 8 CTAs read a 1 MiB
// table twice with ordinary loads, more than the L1 holds and less than the L2
__global__ void l2hit(const float *tab, float *out, int n, int passes)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x;
    float acc = 0.0f;
    for (int p = 0; p < passes; p++)
        for (unsigned i = t; i < (unsigned)n; i += stride)
            acc += tab[i];
    out[t] = acc;
}
