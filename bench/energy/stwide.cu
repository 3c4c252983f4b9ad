// stwide: 16-byte vector stores (calibrates the L1 and L2 write energies): 8 CTAs write 1 MiB
// with st.global.v4.f32, 32 per thread, reading nothing
__global__ void stwide(float4 *out, int n)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x;
    float v = (float)t;
    for (unsigned i = t; i < (unsigned)n; i += stride) {
        out[i] = make_float4(v, v + 1.0f, v + 2.0f, v + 3.0f);
        v = v * 0.5f + 1.0f;
    }
}
