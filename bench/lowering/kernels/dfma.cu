// dfma: a f64 polynomial (Horner, fma.rn.f64 chain) and a dot-product accumulation
extern "C" __global__ void lw_dfma(const double *a, double *out, int n)
{
    unsigned t = threadIdx.x;
    double x = a[t] * 0.001, p = 0.0, s = 0.0;
#pragma unroll 1
    for (int i = 0; i < n; i++) {
        p = ((((0.5 * x + 0.25) * x + 0.125) * x + 0.0625) * x + 1.0);
        s = fma(p, x, s);
        x = x + 0.01;
    }
    out[t] = s + p;
}
