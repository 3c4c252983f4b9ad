// stores: store-heavy (held out for the L1/L2 write energies): every thread writes 16
// coalesced words of a 512 KiB buffer and reads nothing
__global__ void stores(float *out, int n)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x;
    float v = (float)t;
    for (unsigned i = t; i < (unsigned)n; i += stride) {
        out[i] = v;
        v = v * 1.5f + 1.0f;
    }
}
