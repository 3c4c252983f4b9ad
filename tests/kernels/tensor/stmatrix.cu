// nvcc-flags: -arch=sm_90 -O3
// stmatrix (issue 15, sm_90): each lane builds registers r0..r3 from in[], then stores
// .x4 (rows addressed in a permuted order), .x2.trans and .x1 (.shared::cta) into three shared
// tiles, which the warp copies to out. Expected values: tests/kernels/tensor/expected.py
// (w_stmatrix, from the PTX ISA stmatrix text: lanes 8m..8m+7 address the rows of matrix m,
// lane l holds row l / 4, columns 2 (l % 4), 2 (l % 4) + 1; .trans stores column-major).
extern "C" __global__ void stmatrix(const unsigned *in, unsigned *out)
{
    __shared__ __align__(16) unsigned short s[3 * 256];
    int l = threadIdx.x;
    unsigned r0 = in[l], r1 = in[32 + l], r2 = in[64 + l], r3 = in[96 + l];
    for (int i = l; i < 3 * 256; i += 32) s[i] = 0xeeee;
    __syncwarp();
    int m = l / 8, row = (5 * (l % 8) + 3) % 8;   /* lane 8m + r provides row r of matrix m at slot row */
    unsigned a4 = (unsigned)__cvta_generic_to_shared(&s[m * 64 + row * 8]);
    unsigned a2 = (unsigned)__cvta_generic_to_shared(&s[256 + (l % 16) * 8]);
    unsigned a1 = (unsigned)__cvta_generic_to_shared(&s[512 + (l % 8) * 8]);
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1,%2,%3,%4};" :: "r"(a4), "r"(r0), "r"(r1), "r"(r2), "r"(r3) : "memory");
    asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1,%2};" :: "r"(a2), "r"(r3), "r"(r1) : "memory");
    asm volatile("stmatrix.sync.aligned.m8n8.x1.shared::cta.b16 [%0], {%1};" :: "r"(a1), "r"(r2) : "memory");
    __syncwarp();
    for (int i = l; i < 3 * 128; i += 32) out[i] = (unsigned)s[2 * i] | (unsigned)s[2 * i + 1] << 16;
}
