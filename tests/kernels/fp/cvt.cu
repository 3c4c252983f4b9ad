// float <-> integer conversions of every flavour (saturation, NaN, rounding).
__global__ void cvt(const unsigned *fa, const unsigned long long *da, const long long *ia, unsigned *o32, unsigned long long *o64, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float f = __uint_as_float(fa[i]);
    double d = __longlong_as_double(da[i]);
    long long v = ia[i];
    unsigned *o = o32 + 20 * i;
    o[0] = (unsigned)__float2int_rn(f);
    o[1] = (unsigned)__float2int_rz(f);
    o[2] = (unsigned)__float2int_rd(f);
    o[3] = (unsigned)__float2int_ru(f);
    o[4] = __float2uint_rn(f);
    o[5] = __float2uint_rz(f);
    o[6] = (unsigned)__double2int_rn(d);
    o[7] = __double2uint_ru(d);
    o[8] = __float_as_uint(__double2float_rn(d));
    o[9] = __float_as_uint(__double2float_rz(d));
    o[10] = __float_as_uint(__double2float_rd(d));
    o[11] = __float_as_uint(__double2float_ru(d));
    o[12] = __float_as_uint(__int2float_rn((int)v));
    o[13] = __float_as_uint(__int2float_rz((int)v));
    o[14] = __float_as_uint(__uint2float_rd((unsigned)v));
    o[15] = __float_as_uint(__ll2float_ru(v));
    o[16] = __float_as_uint(__ull2float_rn((unsigned long long)v));
    o[17] = (unsigned)(short)__float2int_rz(f) ;
    o[18] = __float_as_uint(__int_as_float(__float_as_int(f) ^ 0x80000000));
    o[19] = (unsigned)(int)(signed char)__float2int_rn(f);
    unsigned long long *p = o64 + 8 * i;
    p[0] = (unsigned long long)__float2ll_rn(f);
    p[1] = __float2ull_rz(f);
    p[2] = (unsigned long long)__double2ll_rd(d);
    p[3] = __double2ull_ru(d);
    p[4] = __double_as_longlong(__ll2double_rn(v));
    p[5] = __double_as_longlong(__ull2double_rz((unsigned long long)v));
    p[6] = __double_as_longlong((double)f);
    p[7] = __double_as_longlong(__int2double_rn((int)v));
}
