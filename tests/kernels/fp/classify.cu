// classification, sign manipulation, min/max with NaN, rounding functions,
// frexp/ldexp/fmod bit tricks, __saturatef.
__global__ void classify(const unsigned *a, const unsigned *b, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = __uint_as_float(a[i]), y = __uint_as_float(b[i]);
    unsigned *o = out + 20 * i;
    o[0] = isnan(x) | (isinf(x) << 1) | (isfinite(x) << 2) | ((signbit(x) != 0) << 3);
    o[1] = __float_as_uint(copysignf(x, y));
    o[2] = __float_as_uint(fminf(x, y));
    o[3] = __float_as_uint(fmaxf(x, y));
    o[4] = __float_as_uint(fabsf(x));
    o[5] = __float_as_uint(-x);
    o[6] = __float_as_uint(__saturatef(x));
    o[7] = __float_as_uint(floorf(x));
    o[8] = __float_as_uint(ceilf(x));
    o[9] = __float_as_uint(truncf(x));
    o[10] = __float_as_uint(roundf(x));
    o[11] = __float_as_uint(rintf(x));
    int e;
    o[12] = __float_as_uint(frexpf(x, &e));
    o[13] = (unsigned)e;
    o[14] = __float_as_uint(ldexpf(x, (int)(a[i] % 7) - 3));
    o[15] = __float_as_uint(fmodf(x, y));
    o[16] = (x < y) | ((x <= y) << 1) | ((x == y) << 2) | ((x != y) << 3) | ((!(x >= y)) << 4) | ((x > y) << 5);
    o[17] = __float_as_uint(fmin((double)x, (double)y) == (double)fminf(x, y) ? 1.0f : 0.0f);
    o[18] = __float_as_uint(nextafterf(x, y));
    o[19] = __float_as_uint(fdimf(x, y));
}
