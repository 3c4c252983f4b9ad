// nvcc-flags: -arch=sm_75 -O3
// Block prefix scans in shared memory with __syncthreads inside loops:
// Hillis-Steele inclusive (double buffered) and Blelloch exclusive (work-efficient).
#define B 256
__global__ void scan(const int *in, int *incl, int *excl)
{
    __shared__ int buf[2][B];
    __shared__ int tree[B];
    int t = threadIdx.x, g = blockIdx.x * B + t;
    int v = in[g];
    buf[0][t] = v;
    tree[t] = v;
    __syncthreads();
    int src = 0;
    for (int off = 1; off < B; off <<= 1) {
        int x = buf[src][t];
        if (t >= off)
            x += buf[src][t - off];
        buf[1 - src][t] = x;
        src = 1 - src;
        __syncthreads();
    }
    incl[g] = buf[src][t];
    // Blelloch up-sweep
    for (int d = 1; d < B; d <<= 1) {
        int k = (t + 1) * 2 * d - 1;
        if (k < B)
            tree[k] += tree[k - d];
        __syncthreads();
    }
    if (t == 0)
        tree[B - 1] = 0;
    __syncthreads();
    for (int d = B / 2; d >= 1; d >>= 1) {
        int k = (t + 1) * 2 * d - 1;
        if (k < B) {
            int tmp = tree[k - d];
            tree[k - d] = tree[k];
            tree[k] += tmp;
        }
        __syncthreads();
    }
    excl[g] = tree[t];
}
