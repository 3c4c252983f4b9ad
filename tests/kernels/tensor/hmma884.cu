// nvcc -arch=sm_75 -O3 -ptx hmma884.cu   (Volta mma.m8n8k4 .f16, issue 24 item 3; CUDA 13 has no sm_70 target, the PTX form is the same: PTX ISA: m8n8k4 needs sm_70 or higher)
// Raw fragment words per lane (lane-major, as imma.cu); the quad-pair layouts of the PTX ISA
// (9.7.14.5.1) live only in the Python model (hmma884_check.py).
#define HMMA_F32(NAME, LAYOUT)                                                                        \
    extern "C" __global__ void NAME(const unsigned *A, const unsigned *B, const float *C, float *D)   \
    {                                                                                                 \
        unsigned l = threadIdx.x;                                                                     \
        float d[8];                                                                                   \
        const float *c = C + 8 * l;                                                                   \
        asm volatile("mma.sync.aligned.m8n8k4." LAYOUT ".f32.f16.f16.f32 {%0,%1,%2,%3,%4,%5,%6,%7}, " \
                     "{%8,%9}, {%10,%11}, {%12,%13,%14,%15,%16,%17,%18,%19};"                         \
                     : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3]), "=f"(d[4]), "=f"(d[5]),        \
                       "=f"(d[6]), "=f"(d[7])                                                         \
                     : "r"(A[2 * l]), "r"(A[2 * l + 1]), "r"(B[2 * l]), "r"(B[2 * l + 1]), "f"(c[0]), \
                       "f"(c[1]), "f"(c[2]), "f"(c[3]), "f"(c[4]), "f"(c[5]), "f"(c[6]), "f"(c[7]));  \
        for (int i = 0; i < 8; i++) D[8 * l + i] = d[i];                                              \
    }
#define HMMA_F16(NAME, LAYOUT)                                                                        \
    extern "C" __global__ void NAME(const unsigned *A, const unsigned *B, const unsigned *C,          \
                                    unsigned *D)                                                      \
    {                                                                                                 \
        unsigned l = threadIdx.x;                                                                     \
        unsigned d[4];                                                                                \
        const unsigned *c = C + 4 * l;                                                                \
        asm volatile("mma.sync.aligned.m8n8k4." LAYOUT ".f16.f16.f16.f16 {%0,%1,%2,%3}, {%4,%5}, "    \
                     "{%6,%7}, {%8,%9,%10,%11};"                                                      \
                     : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])                                 \
                     : "r"(A[2 * l]), "r"(A[2 * l + 1]), "r"(B[2 * l]), "r"(B[2 * l + 1]), "r"(c[0]), \
                       "r"(c[1]), "r"(c[2]), "r"(c[3]));                                              \
        for (int i = 0; i < 4; i++) D[4 * l + i] = d[i];                                              \
    }
/* mixed accumulators: f32 D from f16 C (the PTX ISA's one mixed m8n8k4 form: ptxas: ".dtype must be
 * '.f32' when .ctype is '.f32'") */
extern "C" __global__ void hmma_f32_f16c(const unsigned *A, const unsigned *B, const unsigned *C, float *D)
{
    unsigned l = threadIdx.x;
    float d[8];
    const unsigned *c = C + 4 * l;
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f16 {%0,%1,%2,%3,%4,%5,%6,%7}, {%8,%9}, {%10,%11}, "
                 "{%12,%13,%14,%15};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3]), "=f"(d[4]), "=f"(d[5]), "=f"(d[6]), "=f"(d[7])
                 : "r"(A[2 * l]), "r"(A[2 * l + 1]), "r"(B[2 * l]), "r"(B[2 * l + 1]), "r"(c[0]), "r"(c[1]),
                   "r"(c[2]), "r"(c[3]));
    for (int i = 0; i < 8; i++) D[8 * l + i] = d[i];
}
HMMA_F32(hmma_rc_f32, "row.col")
HMMA_F32(hmma_cr_f32, "col.row")
HMMA_F32(hmma_rr_f32, "row.row")
HMMA_F32(hmma_cc_f32, "col.col")
HMMA_F16(hmma_rc_f16, "row.col")
HMMA_F16(hmma_cc_f16, "col.col")
