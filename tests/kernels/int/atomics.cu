// nvcc-flags: -arch=sm_75 -O3
// Global atomics: inc/dec with wrap, min/max (signed, unsigned, 64-bit), and/or/xor,
// a 64-bit atomicCAS loop, and atomicAdd return values used as tickets.
__device__ unsigned long long cas_mix(unsigned long long *addr, unsigned long long v)
{
    unsigned long long old = *addr, assumed;
    do {
        assumed = old;
        unsigned long long nv = assumed + v;
        nv = nv > assumed ? nv : assumed;    // saturating add
        old = atomicCAS(addr, assumed, nv);
    } while (old != assumed);
    return old;
}

__global__ void atomics(const int *in, unsigned *c, long long *c64, unsigned long long *u64, unsigned *seen, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = in[i];
    atomicInc(&c[0], 17u);
    atomicDec(&c[1], 9u);
    atomicMin((int *)&c[2], v);
    atomicMax((int *)&c[3], v);
    atomicMin(&c[4], (unsigned)v);
    atomicMax(&c[5], (unsigned)v);
    atomicAnd(&c[6], ~(1u << (i & 31)) | (unsigned)(i & 1) << 31);
    atomicOr(&c[7], 1u << (v & 31));
    atomicXor(&c[8], (unsigned)v * 2654435761u);
    atomicSub(&c[9], (unsigned)(i & 7));
    unsigned ticket = atomicAdd(&c[10], 1u);
    seen[ticket] = seen[ticket] + 1 + (ticket < (unsigned)n ? 0 : 100);
    atomicMin(&c64[0], (long long)v * 1000003);
    atomicMax(&c64[1], (long long)v * 1000003);
    atomicAdd(&u64[0], (unsigned long long)(unsigned)v << 20);
    cas_mix(&u64[1], (unsigned long long)(v & 0xffff) * 0x100000001ull);
    cas_mix(&u64[2], 0x1000000000000000ull);          // an add that would wrap is dropped: 15 * 2^60
}
