// f32 IEEE arithmetic: every operation with its rounding, on special inputs.
// Outputs are bit patterns (one u32 per op) so the check is bit-exact.
__global__ void farith(const unsigned *a, const unsigned *b, const unsigned *c, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = __uint_as_float(a[i]), y = __uint_as_float(b[i]), z = __uint_as_float(c[i]);
    unsigned *o = out + 14 * i;
    o[0] = __float_as_uint(x + y);
    o[1] = __float_as_uint(x - y);
    o[2] = __float_as_uint(x * y);
    o[3] = __float_as_uint(fmaf(x, y, z));
    o[4] = __float_as_uint(x / y);
    o[5] = __float_as_uint(sqrtf(fabsf(x)));
    o[6] = __float_as_uint(1.0f / y);
    o[7] = __float_as_uint(__fmul_rz(x, y));
    o[8] = __float_as_uint(__fadd_rd(x, y));
    o[9] = __float_as_uint(__fdiv_ru(x, y));
    o[10] = __float_as_uint(__fsqrt_rd(fabsf(x)));
    o[11] = __float_as_uint(__fmaf_rz(x, y, z));
    o[12] = __float_as_uint(__frcp_rd(y));
    o[13] = __float_as_uint(__fadd_ru(x, y));
}
