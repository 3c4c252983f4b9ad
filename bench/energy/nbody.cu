// nbody: each thread sums the inverse-square pulls of 256 bodies (rsqrtf: an SFU op, and FMAs)
__global__ void nbody(const float4 *pos, float *out, int n)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    float4 p = pos[t];
    float ax = 0, ay = 0, az = 0;
    for (int j = 0; j < n; j++) {
        float4 q = pos[j];
        float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
        float d2 = dx * dx + dy * dy + dz * dz + 0.01f;
        float inv = rsqrtf(d2);
        float s = q.w * inv * inv * inv;
        ax += dx * s; ay += dy * s; az += dz * s;
    }
    out[t] = ax + ay + az;
}
