// nvcc-flags: -arch=sm_75 -G
// A -G (debug) build: nothing is inlined, every helper is a .func with its
// own stack frame (local depot), arguments and return values through .param.
struct pair { int a; int b; };

__device__ int clampi(int v, int lo, int hi)
{
    if (v < lo) return lo;
    if (v > hi) return hi;
    return v;
}

__device__ pair split(int v)
{
    pair p;
    p.a = v / 10;
    p.b = v % 10;
    return p;
}

__device__ int digits(int v)
{
    int s = 0;
    while (v > 0) { pair p = split(v); s += p.b; v = p.a; }
    return s;
}

__global__ void debug(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int v = clampi(in[i], 0, 100000);
        out[i] = digits(v) * 1000 + clampi(in[i], -5, 5);
    }
}
