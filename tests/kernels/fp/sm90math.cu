// nvcc-flags: -arch=sm_90
// f32/f64 arithmetic and warp votes compiled for sm_90.
__global__ void sm90math(const float *a, const double *b, float *out, double *dout, unsigned *bits, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = a[i];
    double y = b[i];
    out[2 * i] = fmaf(x, x, -1.0f) / (x + 2.0f);
    out[2 * i + 1] = sqrtf(x) + fminf(x, 3.0f);
    dout[i] = fma(y, y, 0.5) / (y + 1.0);
    bits[i] = __ballot_sync(__activemask(), x > 4.0f);
}
