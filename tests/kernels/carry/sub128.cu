// nvcc-flags: -arch=sm_80 -O3
// Multiword subtraction and the carry flag after it: unsigned __int128 a - b (nvcc emits
// sub.cc.s64; subc.cc.s64), a 96-bit difference with its borrow-out through inline PTX
// (sub.cc.u32; subc.cc.u32; subc.cc.u32; addc.u32 nb, 0, 0), and the flag of a single
// sub.cc.s32 read by addc (CC.CF = carry of a + ~b + 1: 1 when there is no borrow).
__global__ void sub128(const unsigned __int128 *a, const unsigned __int128 *b,
                       unsigned __int128 *d, unsigned *w96, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned __int128 x = a[i], y = b[i];
    d[i] = x - y;
    unsigned x0 = (unsigned)x, x1 = (unsigned)(x >> 32), x2 = (unsigned)(x >> 64);
    unsigned y0 = (unsigned)y, y1 = (unsigned)(y >> 32), y2 = (unsigned)(y >> 64);
    unsigned r0, r1, r2, nb, c;
    asm volatile("sub.cc.u32 %0, %5, %8;\n\t"
                 "subc.cc.u32 %1, %6, %9;\n\t"
                 "subc.cc.u32 %2, %7, %10;\n\t"
                 "addc.u32 %3, 0, 0;\n\t"
                 "sub.cc.s32 %4, %5, %8;\n\t"
                 "addc.u32 %4, 0, 0;"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(nb), "=r"(c)
                 : "r"(x0), "r"(x1), "r"(x2), "r"(y0), "r"(y1), "r"(y2));
    unsigned *o = w96 + 5 * i;
    o[0] = r0; o[1] = r1; o[2] = r2; o[3] = nb; o[4] = c;
}
