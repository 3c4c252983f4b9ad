// nvcc-flags: -arch=sm_75 -G
// Control flow (compiled with -G: unoptimised, debug info): early return inside a loop,
// break/continue, nested divergent branches, a data-dependent while loop.
__device__ __forceinline__ int classify(int v)
{
    if (v & 1) {
        if (v & 2)
            return (v & 4) ? 7 : 6;
        else
            return 5;
    } else if (v & 8) {
        return (v & 16) ? 4 : 3;
    }
    return v < 0 ? 1 : 2;
}

__global__ void control(const int *in, int *out, int *steps, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = in[i];
    int sum = 0;
    for (int k = 0; k < 40; k++) {
        int w = in[(i + k) % n];
        if (w % 3 == 0)
            continue;
        if (w < -900) {          // early exit from the kernel inside the loop
            out[i] = -sum;
            steps[i] = -k;
            return;
        }
        sum += classify(w) * (k + 1);
        if (sum > 500)
            break;
    }
    unsigned c = (unsigned)(v < 0 ? -v : v) + 1;
    int s = 0;
    while (c != 1 && s < 200) {   // Collatz
        c = (c & 1) ? 3 * c + 1 : c >> 1;
        s++;
    }
    out[i] = sum;
    steps[i] = s;
}
