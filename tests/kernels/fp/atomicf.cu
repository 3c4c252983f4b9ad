// Float and double reductions with atomicAdd (values are small integers and
// halves, so every order of additions gives the same exact sum), plus
// atomicExch on a float and a per-block partial with a shared-memory float atomic.
__global__ void atomicf(const float *x, float *sum, double *dsum, float *last, float *blk, int n)
{
    __shared__ float s;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0) s = 0.0f;
    __syncthreads();
    if (i < n) {
        float v = x[i];
        atomicAdd(sum, v);
        atomicAdd(dsum, (double)v * 0.5);
        atomicAdd(&s, v);
        if (v == 7.0f) atomicExch(last, v);
    }
    __syncthreads();
    if (threadIdx.x == 0) blk[blockIdx.x] = s;
}
