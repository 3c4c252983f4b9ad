// tiledmm: C = A x B, 64 x 64 floats, 16 x 16 shared-memory tiles (the CUDA guide's tiled matmul)
#define TILE 16
__global__ void tiledmm(const float *A, const float *B, float *C, int n)
{
    __shared__ float sa[TILE][TILE], sb[TILE][TILE];
    int r = blockIdx.y * TILE + threadIdx.y, c = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;
    for (int t = 0; t < n / TILE; t++) {
        sa[threadIdx.y][threadIdx.x] = A[r * n + t * TILE + threadIdx.x];
        sb[threadIdx.y][threadIdx.x] = B[(t * TILE + threadIdx.y) * n + c];
        __syncthreads();
        for (int k = 0; k < TILE; k++) acc += sa[threadIdx.y][k] * sb[k][threadIdx.x];
        __syncthreads();
    }
    C[r * n + c] = acc;
}
