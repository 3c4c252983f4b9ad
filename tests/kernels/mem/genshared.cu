// nvcc -arch=sm_80 -ptx -O3 genshared.cu: generic pointers to __shared__ memory. A pointer chosen
// at run time between a shared array, another shared array and a global buffer is read with
// generic ld (scalar and v4), written with generic st and updated with generic atom, also
// through a non-inlined function (the pointer crosses the call as a generic address).
__device__ __noinline__ int sum4(const int *p)
{
    int4 v = *reinterpret_cast<const int4 *>(p);
    return v.x + 2 * v.y + 3 * v.z + 4 * v.w;
}

__device__ __noinline__ void bump(int *p, int v) { atomicAdd(p, v); }

__global__ void genshared(const int *g, int *out, int *gcount, int sel)
{
    __shared__ __align__(16) int a[128];
    __shared__ __align__(16) int b[128];
    __shared__ int count[2];
    int t = threadIdx.x;
    a[t] = g[t] + 1000;
    b[t] = 3 * g[t] + 1;
    if (t < 2) count[t] = 0;
    __syncthreads();
    int m = (t + sel) % 3;
    const int *p = m == 0 ? a : m == 1 ? b : g;
    int *c = (t & 1) ? &count[0] : (t & 2) ? &count[1] : gcount;
    bump(c, t + 1);
    int s = sum4(p + (t & ~3));
    int *q = (t & 4) ? b : a;     // generic store into shared
    __syncthreads();
    q[t ^ 1] = s;
    __syncthreads();
    out[t] = a[t];
    out[128 + t] = b[t];
    if (t < 2) out[256 + t] = count[t];
}
