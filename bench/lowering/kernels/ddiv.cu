// ddiv: f64 IEEE division (div.rn.f64), two quotients per iteration
extern "C" __global__ void lw_ddiv(const double *a, const double *b, double *out, int n)
{
    unsigned t = threadIdx.x;
    double x = a[t] + 1.0, y = b[t] + 2.0, acc = 0.0;
#pragma unroll 1
    for (int i = 0; i < n; i++) {
        double q = x / y;
        acc += q;
        x = q * 3.0 + 1.0;
        y = y * 0.5 + 1.5;
    }
    out[t] = acc;
}
