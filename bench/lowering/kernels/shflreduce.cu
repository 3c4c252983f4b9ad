// shflreduce: warp-shuffle butterfly reduction (__shfl_xor_sync, 5 steps unrolled), n times
extern "C" __global__ void lw_shflreduce(const float *a, float *out, int n)
{
    unsigned t = threadIdx.x;
    float v = a[t], total = 0.0f;
#pragma unroll 1
    for (int i = 0; i < n; i++) {
        float s = v;
#pragma unroll
        for (int m = 16; m > 0; m >>= 1)
            s += __shfl_xor_sync(0xffffffffu, s, m);
        total += s;
        v = v * 0.5f + (float)i;
    }
    out[t] = total;
}
