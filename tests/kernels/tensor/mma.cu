// nvcc-flags: -arch=sm_80 -O3
// mma.sync.aligned (issue 15): one warp loads A, B, C from row-major matrices into the
// fragments exactly as the PTX ISA lays them out (9.7.14.5.7-10; g = lane >> 2,
// t = lane % 4), runs one mma and stores D back to a row-major matrix. The expected
// D = A * B + C is the plain matrix product of tests/kernels/tensor/expected.py.
#include <stdint.h>
__device__ __forceinline__ unsigned pack16(unsigned short lo, unsigned short hi) { return lo | (unsigned)hi << 16; }

// m16n8k16 .f16/.bf16: A 16x16, B 16x8 (row-major [k][n]), C/D 16x8 f32
#define FRAG_16816(A, B, a, b)                                                                         \
    for (int r = 0; r < 4; r++) {                                                                      \
        int i = 2 * r, row = g + 8 * ((i >> 1) & 1), col = 2 * t + 8 * (i >= 4);                     \
        a[r] = pack16(A[row * 16 + col], A[row * 16 + col + 1]);                                       \
    }                                                                                                  \
    for (int r = 0; r < 2; r++) {                                                                      \
        int i = 2 * r, row = 2 * t + 8 * (i >= 2);                                                     \
        b[r] = pack16(B[row * 8 + g], B[(row + 1) * 8 + g]);                                           \
    }
#define C_POS(i) int row = g + 8 * ((i) >= 2), col = 2 * t + ((i) & 1)

extern "C" __global__ void mma_f16(const unsigned short *A, const unsigned short *B, const float *C, float *D)
{
    int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
    unsigned a[4], b[2];
    float c[4], d[4];
    FRAG_16816(A, B, a, b)
    for (int i = 0; i < 4; i++) { C_POS(i); c[i] = C[row * 8 + col]; }
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    for (int i = 0; i < 4; i++) { C_POS(i); D[row * 8 + col] = d[i]; }
}

extern "C" __global__ void mma_bf16(const unsigned short *A, const unsigned short *B, const float *C, float *D)
{
    int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
    unsigned a[4], b[2];
    float c[4], d[4];
    FRAG_16816(A, B, a, b)
    for (int i = 0; i < 4; i++) { C_POS(i); c[i] = C[row * 8 + col]; }
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    for (int i = 0; i < 4; i++) { C_POS(i); D[row * 8 + col] = d[i]; }
}

// m16n8k8 .f16 with .f16 accumulators: A 16x8, B 8x8, C/D 16x8 f16 (two per register)
extern "C" __global__ void mma_f16acc(const unsigned short *A, const unsigned short *B, const unsigned short *C,
                                      unsigned short *D)
{
    int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
    unsigned a[2], b, c[2], d[2];
    for (int r = 0; r < 2; r++) { int row = g + 8 * r, col = 2 * t; a[r] = pack16(A[row * 8 + col], A[row * 8 + col + 1]); }
    b = pack16(B[(2 * t) * 8 + g], B[(2 * t + 1) * 8 + g]);
    for (int r = 0; r < 2; r++) { int row = g + 8 * r, col = 2 * t; c[r] = pack16(C[row * 8 + col], C[row * 8 + col + 1]); }
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3}, {%4}, {%5,%6};"
                 : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(a[1]), "r"(b), "r"(c[0]), "r"(c[1]));
    for (int r = 0; r < 2; r++) {
        int row = g + 8 * r, col = 2 * t;
        D[row * 8 + col] = (unsigned short)d[r];
        D[row * 8 + col + 1] = (unsigned short)(d[r] >> 16);
    }
}

// m16n8k32 .s8 x .u8 -> .s32 with .satfinite: A 16x32 s8, B 32x8 u8, C/D 16x8 s32
extern "C" __global__ void mma_s8(const int8_t *A, const uint8_t *B, const int *C, int *D)
{
    int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
    unsigned a[4], b[2];
    int c[4], d[4];
    for (int r = 0; r < 4; r++) {
        int i = 4 * r, row = g + 8 * ((i >> 2) & 1), col = 4 * t + 16 * (i >= 8);
        a[r] = 0;
        for (int e = 0; e < 4; e++) a[r] |= (unsigned)(uint8_t)A[row * 32 + col + e] << (8 * e);
    }
    for (int r = 0; r < 2; r++) {
        int row = 4 * t + 16 * r;
        b[r] = 0;
        for (int e = 0; e < 4; e++) b[r] |= (unsigned)B[(row + e) * 8 + g] << (8 * e);
    }
    for (int i = 0; i < 4; i++) { C_POS(i); c[i] = C[row * 8 + col]; }
    asm volatile("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.u8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    for (int i = 0; i < 4; i++) { C_POS(i); D[row * 8 + col] = d[i]; }
}

// m16n8k8 .tf32: A 16x8, B 8x8 f32 bit patterns (the low 13 bits are ignored), C/D f32
extern "C" __global__ void mma_tf32(const unsigned *A, const unsigned *B, const float *C, float *D)
{
    int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
    unsigned a[4], b[2];
    float c[4], d[4];
    for (int i = 0; i < 4; i++) { int row = g + 8 * (i & 1), col = t + 4 * (i >= 2); a[i] = A[row * 8 + col]; }
    for (int i = 0; i < 2; i++) b[i] = B[(t + 4 * i) * 8 + g];
    for (int i = 0; i < 4; i++) { C_POS(i); c[i] = C[row * 8 + col]; }
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    for (int i = 0; i < 4; i++) { C_POS(i); D[row * 8 + col] = d[i]; }
}

// m8n8k4 .f64: A 8x4, B 4x8, C/D 8x8
extern "C" __global__ void mma_f64(const double *A, const double *B, const double *C, double *D)
{
    int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
    double a = A[g * 4 + t], b = B[t * 8 + g], c0 = C[g * 8 + 2 * t], c1 = C[g * 8 + 2 * t + 1], d0, d1;
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%4,%5};"
                 : "=d"(d0), "=d"(d1) : "d"(a), "d"(b), "d"(c0), "d"(c1));
    D[g * 8 + 2 * t] = d0;
    D[g * 8 + 2 * t + 1] = d1;
}
