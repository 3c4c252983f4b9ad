// nvcc-flags: -arch=sm_75 -O3
// Double-precision sin/cos/pow: libdevice calls the .func slow paths
// __internal_trig_reduction_slowpathd (huge arguments) and
// __internal_accurate_pow.
__global__ void dtrig(const double *a, const double *b, double *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double x = a[i], y = b[i];
    double *o = out + 4 * i;
    o[0] = sin(x);
    o[1] = cos(x);
    o[2] = pow(fabs(x) + 0.25, y);
    o[3] = tan(x);
}
