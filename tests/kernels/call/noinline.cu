// nvcc-flags: -arch=sm_75 -O3
// A __noinline__ device function called in a loop and from both sides of a
// divergent branch; a second one (no return value) stores to global memory;
// a third calls the first (nested call).
__device__ __noinline__ int mix(int a, int b)
{
    int h = a * 31 + b;
    if (h & 1) h = h * 3 + 1;   // divergent inside the callee
    else h = h >> 1;
    return h ^ (a >> 2);
}

__device__ __noinline__ void put(int *out, int i, int v)
{
    out[i] = v + 7;
}

__device__ __noinline__ int twice(int a, int b)
{
    return mix(a, b) + mix(b, a);
}

__global__ void noinline(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = in[i];
    int acc = 0;
    for (int k = 0; k < (i & 7) + 1; k++)      // trip count varies per lane
        acc += mix(x, k);
    int y;
    if (x & 2) y = mix(acc, 5);                // divergent call sites
    else y = twice(acc, x);
    put(out, 2 * i, acc);
    out[2 * i + 1] = y;
}
