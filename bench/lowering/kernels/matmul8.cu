// matmul8: 8x8 tiles C += A*B from shared memory, each of 32 threads computes 2 elements of C;
// the k loop (8) is unrolled, the outer loop runs n times with a new A tile
extern "C" __global__ void lw_matmul8(const float *a, const float *b, float *c, int n)
{
    __shared__ float As[64], Bs[64];
    unsigned t = threadIdx.x, row = t >> 2, col = (t & 3) * 2;
    Bs[t] = b[t]; Bs[t + 32] = b[t + 32];
    float c0 = 0.0f, c1 = 0.0f;
#pragma unroll 1
    for (int i = 0; i < n; i++) {
        As[t] = a[i * 64 + t]; As[t + 32] = a[i * 64 + t + 32];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < 8; k++) {
            float av = As[row * 8 + k];
            c0 += av * Bs[k * 8 + col];
            c1 += av * Bs[k * 8 + col + 1];
        }
        __syncthreads();
    }
    c[row * 8 + col] = c0;
    c[row * 8 + col + 1] = c1;
}
