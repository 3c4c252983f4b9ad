// Texture and surface objects (cudaTextureObject_t / cudaSurfaceObject_t): the forms nvcc 13
// emits for them (tex, tld4, txq, suld.b, sust.b on a .u64 handle). Expected values: expected.py,
// a numpy model of the CUDA C++ Programming Guide's "Texture Fetching" appendix.
// nvcc -arch=sm_75 -ptx -O3 tex.cu -o tex.ptx   (CUDA 13 has no sm_70 target)

// out[p] = tex2D(t, x, y) at the points x = ox + (p % nx) * sx, y = oy + (p / nx) * sy
extern "C" __global__ void tex2d_grid(cudaTextureObject_t t, float4 *out, int nx, int np, float ox, float oy,
                                      float sx, float sy)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p < np) out[p] = tex2D<float4>(t, ox + (p % nx) * sx, oy + (p / nx) * sy);
}

// 3D: x, y, z = o + (p % nx, (p / nx) % ny, p / (nx * ny)) * s
extern "C" __global__ void tex3d_grid(cudaTextureObject_t t, float4 *out, int nx, int ny, int np, float o, float s)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p < np) out[p] = tex3D<float4>(t, o + (p % nx) * s, o + ((p / nx) % ny) * s, o + (p / (nx * ny)) * s);
}

// tex1Dfetch at integer coordinates 3i - 5
extern "C" __global__ void fetch1d(cudaTextureObject_t t, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1Dfetch<int>(t, 3 * i - 5);
}

// tld4: the green channel of the 2x2 footprint
extern "C" __global__ void gather_g(cudaTextureObject_t t, float4 *out, int nx, int np, float ox, float oy, float sx,
                                    float sy)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p < np) out[p] = tex2Dgather<float4>(t, ox + (p % nx) * sx, oy + (p / nx) * sy, 1);
}

// txq: the object's size and sampler state
extern "C" __global__ void query(cudaTextureObject_t t, int *out)
{
    int v[8];
    asm("txq.width.b32 %0, [%1];" : "=r"(v[0]) : "l"(t));
    asm("txq.height.b32 %0, [%1];" : "=r"(v[1]) : "l"(t));
    asm("txq.depth.b32 %0, [%1];" : "=r"(v[2]) : "l"(t));
    asm("txq.normalized_coords.b32 %0, [%1];" : "=r"(v[3]) : "l"(t));
    asm("txq.filter_mode.b32 %0, [%1];" : "=r"(v[4]) : "l"(t));
    asm("txq.addr_mode_0.b32 %0, [%1];" : "=r"(v[5]) : "l"(t));
    asm("txq.addr_mode_1.b32 %0, [%1];" : "=r"(v[6]) : "l"(t));
    asm("txq.num_mipmap_levels.b32 %0, [%1];" : "=r"(v[7]) : "l"(t));
    for (int i = 0; i < 8; i++) out[i] = v[i];
}

// surface read-modify-write in place: s[y][x] = 2 s[y][x] + 1 (x in bytes: 4 x)
extern "C" __global__ void surf_rmw(cudaSurfaceObject_t s, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        float v = surf2Dread<float>(s, x * 4, y);
        surf2Dwrite(v * 2.0f + 1.0f, s, x * 4, y);
    }
}

// out-of-range surface reads: .zero and .clamp boundary modes at x = i - 3, y = i / 2 - 2
extern "C" __global__ void surf_bounds(cudaSurfaceObject_t s, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[2 * i] = surf2Dread<int>(s, (i - 3) * 4, i / 2 - 2, cudaBoundaryModeZero);
        out[2 * i + 1] = surf2Dread<int>(s, (i - 3) * 4, i / 2 - 2, cudaBoundaryModeClamp);
    }
}

// tex2DLod / tex2DGrad: a texture without mipmaps has one level, so any level of detail reads it
extern "C" __global__ void tex2d_lod(cudaTextureObject_t t, float4 *out, int nx, int np, float ox, float oy, float sx,
                                     float sy, float lod)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p < np) {
        float x = ox + (p % nx) * sx, y = oy + (p / nx) * sy;
        float4 a = tex2DLod<float4>(t, x, y, lod * p);
        float4 b = tex2DGrad<float4>(t, x, y, make_float2(lod, 0.5f * p), make_float2(0.25f, lod));
        out[2 * p] = a;
        out[2 * p + 1] = b;
    }
}

// integer texels in element read mode: tex.2d.v4.s32 (a signed 16-bit format reads sign-extended)
extern "C" __global__ void tex2d_int(cudaTextureObject_t t, int4 *out, int nx, int np, float ox, float oy, float sx,
                                     float sy)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p < np) out[p] = tex2D<int4>(t, ox + (p % nx) * sx, oy + (p / nx) * sy);
}
