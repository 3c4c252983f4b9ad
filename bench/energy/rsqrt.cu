// rsqrt: chains of rsqrtf (rsqrt.approx.f32, an SFU operation), two per iteration
__global__ void rsqrt(float *out, int iters)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    float x = 2.0f + (t & 31), y = 3.0f + (t & 15);
#pragma unroll 1
    for (int i = 0; i < iters; i++) { x = rsqrtf(x) + 1.5f; y = rsqrtf(y) + 2.5f; }
    out[t] = x + y;
}
