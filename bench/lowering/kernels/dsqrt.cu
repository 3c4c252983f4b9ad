// dsqrt: f64 IEEE square root (sqrt.rn.f64) in a chain
extern "C" __global__ void lw_dsqrt(const double *a, double *out, int n)
{
    unsigned t = threadIdx.x;
    double x = a[t] + 2.0, s = 0.0;
#pragma unroll 1
    for (int i = 0; i < n; i++) {
        double r = sqrt(x);
        s += r;
        x = x * 1.25 + r;
    }
    out[t] = s;
}
