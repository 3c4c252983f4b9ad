// Double-precision libdevice functions (sin/cos/pow, which call .func helpers, are in tests/kernels/call/dtrig.cu)
// Double-precision libdevice functions (fma chains, rcp.approx.ftz.f64,
// hi/lo word manipulation with mov.b64 {lo, hi}).
__global__ void dmath(const double *a, const double *b, double *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double x = a[i], y = b[i];
    double *o = out + 5 * i;
    o[0] = exp(x);
    o[1] = log(fabs(x) + 0.5);
    o[2] = tanh(x);
    o[3] = rsqrt(fabs(x) + 1.0);
    o[4] = cbrt(x);
}
