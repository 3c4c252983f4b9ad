// stencil: a 5-point 2D stencil on a 34x(n+2) grid with integer index arithmetic (row/col),
// one row per iteration, clamped neighbour indices
extern "C" __global__ void lw_stencil(const float *in, float *out, int n, int width)
{
    int x = threadIdx.x + 1;
#pragma unroll 1
    for (int y = 1; y <= n; y++) {
        int c = y * width + x;
        int xl = max(x - 1, 0), xr = min(x + 1, width - 1);
        float v = 0.5f * in[c] + 0.125f * (in[y * width + xl] + in[y * width + xr]
                                           + in[c - width] + in[c + width]);
        out[c] = v;
    }
}
