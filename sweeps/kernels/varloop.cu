// varloop: a loop whose trip count differs per thread (tid % 7 + 1), so lanes
// leave the loop at different iterations and reconverge after it.
__global__ void varloop(const int *in, int *out)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int trips = tid % 7 + 1;
    int acc = 0;
#pragma unroll 1
    for (int i = 0; i < trips; ++i)
        acc += in[i];
    out[tid] = acc;
}
