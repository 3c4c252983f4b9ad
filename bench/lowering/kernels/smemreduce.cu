// smemreduce: shared-memory tree reduction of 32 values with __syncthreads, repeated n times
// (the 5 halving steps are unrolled; every thread runs every step, the add is predicated by tid)
extern "C" __global__ void lw_smemreduce(const float *a, float *out, int n)
{
    __shared__ float s[64];
    unsigned t = threadIdx.x;
    float v = a[t], total = 0.0f;
#pragma unroll 1
    for (int i = 0; i < n; i++) {
        s[t] = v;
        s[t + 32] = 0.0f;
        __syncthreads();
#pragma unroll
        for (unsigned w = 16; w > 0; w >>= 1) {
            float o = s[t + w];
            __syncthreads();
            s[t] += o;
            __syncthreads();
        }
        total += s[0];
        v = v * 0.5f + 1.0f;
        __syncthreads();
    }
    out[t] = total;
}
