// nvcc-flags: -arch=sm_100 -O3
// Struct and vector results and arguments of __noinline__ functions through .param byte arrays:
// sm_100's nvcc passes them with ld/st.param.v4.f32/.v4.b32/.v2.f64/.v4.b8/.v2.b8 on
// '.param .align 16 .b8 retval0[N]' (16-byte V4/float4/D2, a 7-byte char struct, a 36-byte int array).
struct __align__(16) V4 { float x, y, z, w; };
struct __align__(16) D2 { double a, b; };
struct C7 { char c[7]; };
struct Big { int v[9]; };
__device__ __noinline__ V4 mkv(float s, V4 a) { V4 r = {a.x * s, a.y + s, a.z - s, a.w}; return r; }
__device__ __noinline__ D2 mkd(D2 a, double s) { D2 r = {a.a + s, a.b * s}; return r; }
__device__ __noinline__ C7 mkc(C7 a, int k) { C7 r; for (int i = 0; i < 7; i++) r.c[i] = a.c[6 - i] + k; return r; }
__device__ __noinline__ Big mkb(Big a, int k) { Big r; for (int i = 0; i < 9; i++) r.v[i] = a.v[i] * k + i; return r; }
__device__ __noinline__ float4 mkf4(float4 a) { return make_float4(a.w, a.z, a.y, a.x); }
__global__ void callvec(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float s = in[i];
    V4 a = {s, s + 1.0f, s + 2.0f, s + 3.0f};
    V4 r = mkv(2.0f, a);
    D2 d = {s, (double)i};
    D2 e = mkd(d, 3.0);
    C7 c; for (int k = 0; k < 7; k++) c.c[k] = (char)(i + k);
    C7 f = mkc(c, 1);
    Big b; for (int k = 0; k < 9; k++) b.v[k] = i + k;
    Big g = mkb(b, 2);
    float4 h = mkf4(make_float4(s, 2 * s, 3 * s, 4 * s));
    float *o = out + 24 * i;
    o[0] = r.x; o[1] = r.y; o[2] = r.z; o[3] = r.w;
    o[4] = (float)e.a; o[5] = (float)e.b;
    for (int k = 0; k < 7; k++) o[6 + k] = (float)f.c[k];
    int acc = 0; for (int k = 0; k < 9; k++) acc = acc * 3 + g.v[k];
    o[13] = (float)acc; o[14] = (float)g.v[8];
    o[15] = h.x; o[16] = h.y; o[17] = h.z; o[18] = h.w;
}
