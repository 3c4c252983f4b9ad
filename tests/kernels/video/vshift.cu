// nvcc-flags: -arch=sm_80 -O3
// The scalar video shifts vshl/vshr (PTX ISA 9.7.16.1.2) through inline PTX: .clamp/.wrap,
// signed/unsigned .dtype/.atype, .asel/.bsel byte and half-word selection, .sat, the secondary
// .add/.min/.max and the data merge into d.b2 / d.h1.
__global__ void vshift(const unsigned *a, const unsigned *b, const unsigned *c, unsigned *o) {
  int i = threadIdx.x; unsigned x = a[i], y = b[i], z = c[i], r0, r1, r2, r3, r4, r5, r6, r7;
  asm("vshl.u32.u32.u32.clamp %0, %1, %2;" : "=r"(r0) : "r"(x), "r"(y));
  asm("vshl.u32.u32.u32.wrap %0, %1, %2;" : "=r"(r1) : "r"(x), "r"(y));
  asm("vshr.s32.s32.u32.clamp %0, %1, %2;" : "=r"(r2) : "r"(x), "r"(y));
  asm("vshr.u32.u32.u32.wrap %0, %1.b1, %2.h0;" : "=r"(r3) : "r"(x), "r"(y));
  asm("vshl.s32.s32.u32.sat.clamp %0, %1.h1, %2.b0;" : "=r"(r4) : "r"(x), "r"(y));
  asm("vshl.u32.s32.u32.sat.clamp.add %0, %1, %2.b2, %3;" : "=r"(r5) : "r"(x), "r"(y), "r"(z));
  asm("vshr.s32.u32.u32.wrap.min %0, %1.b3, %2, %3;" : "=r"(r6) : "r"(x), "r"(y), "r"(z));
  asm("{ .reg .b32 t; mov.b32 t, %3; vshl.s32.s32.u32.sat.clamp t.b2, %1.b0, %2.b1, t; vshr.u32.s32.u32.clamp.max %0, %1.h0, %2.b3, t; }" : "=r"(r7) : "r"(x), "r"(y), "r"(z));
  unsigned m;
  asm("vshl.u32.u32.u32.wrap %0.h1, %1, %2, %3;" : "=r"(m) : "r"(x), "r"(y), "r"(z));
  unsigned *p = o + 9 * i; p[0]=r0; p[1]=r1; p[2]=r2; p[3]=r3; p[4]=r4; p[5]=r5; p[6]=r6; p[7]=r7; p[8]=m;
}
