// nvcc-flags: -arch=sm_75 -O3
// 3D grid of 3D blocks: every special register, plus a grid-stride loop.
__global__ void grid3d(unsigned *ids, int *acc, int n)
{
    unsigned bx = blockIdx.x, by = blockIdx.y, bz = blockIdx.z;
    unsigned tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
    unsigned block = (bz * gridDim.y + by) * gridDim.x + bx;
    unsigned tib = (tz * blockDim.y + ty) * blockDim.x + tx;
    unsigned nthr = blockDim.x * blockDim.y * blockDim.z;
    unsigned g = block * nthr + tib;
    ids[g] = (tx | ty << 4 | tz << 8 | bx << 12 | by << 16 | bz << 20) ^
             (gridDim.x << 24 | gridDim.y << 26 | gridDim.z << 28 | (blockDim.z << 30));
    unsigned total = nthr * gridDim.x * gridDim.y * gridDim.z;
    for (int k = g; k < n; k += total)
        acc[k] = k * 3 + (int)(g & 7);
}
