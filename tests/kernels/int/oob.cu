// nvcc-flags: -arch=sm_75 -O3
// A kernel that reads past its input buffer (an off-by-one-style bug in the bound):
// the simulator must report status error naming the thread and address, not crash.
__global__ void oob(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n)                      // bug: should be i < n
        out[i] = in[i * 4 + 3];      // reads past the end for i > (n-4)/4
}
