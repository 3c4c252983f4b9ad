// nvcc-flags: -arch=sm_75 -O3
// if (a) { if (b) return; } followed by a loop: the lanes that do not return must run the
// loop together (one pass per warp), as ptxas's reconvergence places it, not once per side.
__global__ void earlyret(const int *a, const int *b, const int *x, int *out, int iters)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int v = x[t];
    if (a[t]) {
        v = v * 3 + 1;
        if (b[t])
            return;
    }
    int acc = 0;
    for (int k = 0; k < iters; k++)
        acc = acc * 7 + (v ^ k);
    out[t] = acc;
}
