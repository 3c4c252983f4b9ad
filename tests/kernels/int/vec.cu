// nvcc-flags: -arch=sm_80 -O3
// Vector memory accesses: int4 / longlong2 / ushort4 / char2 loads and stores, __ldg,
// 16-bit atomicCAS (sm_70+), 64-bit atomicExch, unsigned short atomics through a CAS loop.
__device__ unsigned short add16(unsigned short *addr, unsigned short v)
{
    unsigned short old = *addr, assumed;
    do {
        assumed = old;
        old = atomicCAS(addr, assumed, (unsigned short)(assumed + v));
    } while (old != assumed);
    return old;
}

__global__ void vec(const int4 *a, const longlong2 *b, const ushort4 *c, const char2 *d, int4 *oa,
                    longlong2 *ob, ushort4 *oc, unsigned short *h16, unsigned long long *x64, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int4 va = __ldg(&a[i]);
    longlong2 vb = b[i];
    ushort4 vc = c[i];
    char2 vd = d[i];
    oa[i] = make_int4(va.w + vd.x, va.z - vd.y, va.y ^ (int)vc.x, va.x + (int)vb.y);
    ob[i] = make_longlong2(vb.x * va.x + vd.x, vb.y - (long long)vc.w * vd.y);
    oc[i] = make_ushort4(vc.w, vc.z + 1, vc.y ^ 0xffff, (unsigned short)(vc.x + vd.x));
    add16(&h16[i & 3], (unsigned short)(vc.x & 0xff));
    atomicExch(&x64[i], (unsigned long long)vb.x ^ 0xdeadbeefcafef00dull);
}
