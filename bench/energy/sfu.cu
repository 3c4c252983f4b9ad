// sfu: fast-math transcendentals (sin.approx, ex2.approx) in a loop
__global__ void sfu(float *out, int iters)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    float x = (float)(t & 31) * 0.01f, s = 0.0f;
#pragma unroll 1
    for (int i = 0; i < iters; i++) {
        s += __sinf(x) + __expf(-x);
        x = x + 0.001f;
    }
    out[t] = s;
}
