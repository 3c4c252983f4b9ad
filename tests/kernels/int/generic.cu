// nvcc-flags: -arch=sm_75 -O3
// Generic pointers chosen at run time between shared (static and dynamic), local, const and
// global memory; atomics through generic pointers; static + extern shared in one kernel;
// char/short scalar parameters (sign extension of .param loads).
__constant__ int cvals[8] = {100, -200, 300, -400, 500, -600, 700, -800};
__device__ int gvals[64];
extern __shared__ int dyn[];

__global__ void generic(const int *in, int *out, unsigned *gcount, signed char sc, short ss, unsigned char uc)
{
    __shared__ int stat[64];
    __shared__ unsigned counter;
    int t = threadIdx.x;
    int loc[8];
    for (int k = 0; k < 8; k++)
        loc[k] = in[(t + k) & 63] ^ k;
    stat[t] = in[t] * 2;
    dyn[t] = in[t] + 1000;
    gvals[t] = in[t] * 3;
    if (t == 0)
        counter = 0;
    __syncthreads();
    int sel = t % 5;
    const int *p = sel == 0 ? stat : sel == 1 ? dyn : sel == 2 ? loc : sel == 3 ? cvals : gvals;
    int idx = (t >> 2) & 7;
    volatile const int *vp = p;        // keep the generic loads
    int v = vp[idx];
    unsigned *cp = (t & 1) ? &counter : gcount;
    atomicAdd(cp, (unsigned)t);
    __syncthreads();
    out[t] = v + sc * ss + uc;
    if (t == 0)
        out[64] = counter;
}
