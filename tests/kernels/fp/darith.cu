// f64 IEEE arithmetic and int64 <-> double conversions, bit-exact outputs.
__global__ void darith(const unsigned long long *a, const unsigned long long *b,
                       const unsigned long long *c, unsigned long long *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double x = __longlong_as_double(a[i]), y = __longlong_as_double(b[i]), z = __longlong_as_double(c[i]);
    unsigned long long *o = out + 12 * i;
    o[0] = __double_as_longlong(x + y);
    o[1] = __double_as_longlong(x * y);
    o[2] = __double_as_longlong(fma(x, y, z));
    o[3] = __double_as_longlong(x / y);
    o[4] = __double_as_longlong(sqrt(fabs(x)));
    o[5] = __double_as_longlong(1.0 / y);
    o[6] = __double_as_longlong(__dadd_rz(x, y));
    o[7] = __double_as_longlong(__dmul_ru(x, y));
    o[8] = __double_as_longlong(__ddiv_rd(x, y));
    o[9] = __double_as_longlong(__dsqrt_ru(fabs(x)));
    o[10] = (unsigned long long)__double2ll_rz(x);
    o[11] = __double_as_longlong(__ll2double_rn((long long)a[i]));
}
