// libdevice math (IEEE build): each function expands into ex2/lg2.approx,
// fma chains, bit tricks and special-case setp; checked against Python math
// with an ulp tolerance.
__global__ void mathlib(const float *a, const float *b, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = a[i], y = b[i];
    float *o = out + 14 * i;
    o[0] = expf(x);
    o[1] = logf(fabsf(x) + 0.5f);
    o[2] = sinf(x);
    o[3] = cosf(x);
    o[4] = powf(fabsf(x) + 0.25f, y);
    o[5] = tanhf(x);
    o[6] = exp2f(x);
    o[7] = log2f(fabsf(x) + 1.0f);
    o[8] = atan2f(y, x);
    o[9] = erff(x * 0.25f);
    o[10] = cbrtf(x);
    o[11] = hypotf(x, y);
    o[12] = rsqrtf(fabsf(x) + 1.0f);
    o[13] = sinhf(x * 0.5f);
}
