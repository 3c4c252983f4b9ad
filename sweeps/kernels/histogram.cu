// histogram: atomicAdd into 16 global bins.  The bin of value v is
// ((v * v) >> 2) & 15, which gives a non-uniform distribution and heavy
// same-address contention within a warp.  The return value of atomicAdd is
// unused, but nvcc (CUDA 13, sm_75) still emits atom.global.add.u32.
__global__ void histogram(const unsigned int *in, unsigned int *bins, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned int v = in[i];
        atomicAdd(&bins[((v * v) >> 2) & 15u], 1u);
    }
}
