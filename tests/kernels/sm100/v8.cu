// nvcc-flags: -arch=sm_100 -O3
// 256-bit loads and stores (sm_100, PTX ISA 8.8): 32-byte aligned structs of eight floats, four
// doubles and eight ints, which nvcc moves with ld/st.global.v8.f32, .v4.f64 and .v8.u32.
// (ld/st.shared.v8.b16 in inline asm crashes ptxas 13.0 here; test_exec_mem covers .v8.b16.)
struct __align__(32) F8 { float v[8]; };
struct __align__(32) D4 { double v[4]; };
struct __align__(32) I8 { int v[8]; };

__global__ void v8(const F8 *a, const D4 *b, const I8 *c, F8 *oa, D4 *ob, I8 *oc, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    F8 x = a[i]; D4 y = b[i]; I8 z = c[i];
    F8 rx; D4 ry; I8 rz;
    for (int k = 0; k < 8; k++) { rx.v[k] = x.v[7 - k] * 2.0f + (float)k; rz.v[k] = z.v[k] ^ (k * 0x01010101); }
    for (int k = 0; k < 4; k++) ry.v[k] = y.v[3 - k] + 0.5 * k;
    oa[i] = rx; ob[i] = ry; oc[i] = rz;
}
