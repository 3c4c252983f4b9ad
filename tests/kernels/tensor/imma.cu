// nvcc -arch=sm_75 -O3 -ptx imma.cu   (Turing integer mma; issue 24 item 3)
// Each lane loads its fragment registers as raw 32-bit words (lane-major: word j of lane l
// at [l * n + j]) and stores its D registers alike; the placement of matrix elements in the
// words is the PTX ISA's (9.7.14.5.8-9), done by the Python model (imma_check.py), so the
// kernel itself knows no layout.
#include <stdint.h>

#define IMMA(NAME, INSTR)                                                                            \
    extern "C" __global__ void NAME(const unsigned *A, const unsigned *B, const int *C, int *D)       \
    {                                                                                                 \
        unsigned l = threadIdx.x;                                                                     \
        int d0, d1;                                                                                   \
        asm volatile(INSTR " {%0,%1}, {%2}, {%3}, {%4,%5};"                                           \
                     : "=r"(d0), "=r"(d1)                                                             \
                     : "r"(A[l]), "r"(B[l]), "r"(C[2 * l]), "r"(C[2 * l + 1]));                       \
        D[2 * l] = d0;                                                                                \
        D[2 * l + 1] = d1;                                                                            \
    }

IMMA(imma_s8s8, "mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32")
IMMA(imma_u8s8_sat, "mma.sync.aligned.m8n8k16.row.col.satfinite.s32.u8.s8.s32")
IMMA(imma_s4u4, "mma.sync.aligned.m8n8k32.row.col.s32.s4.u4.s32")
IMMA(imma_u4u4_sat, "mma.sync.aligned.m8n8k32.row.col.satfinite.s32.u4.u4.s32")
