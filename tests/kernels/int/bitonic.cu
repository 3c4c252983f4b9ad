// nvcc-flags: -arch=sm_80 -O3
// Bitonic sort of 512 keys per block (256 threads, 2 keys each) in shared memory.
#define N 512
__global__ void bitonic(const int *in, int *out)
{
    __shared__ int s[N];
    int t = threadIdx.x, base = blockIdx.x * N;
    s[t] = in[base + t];
    s[t + N / 2] = in[base + t + N / 2];
    __syncthreads();
    for (int k = 2; k <= N; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            for (int r = 0; r < 2; r++) {
                int i = t + r * (N / 2);
                int p = i ^ j;
                if (p > i) {
                    int a = s[i], b = s[p];
                    bool up = (i & k) == 0;
                    if ((a > b) == up) {
                        s[i] = b;
                        s[p] = a;
                    }
                }
            }
            __syncthreads();
        }
    }
    out[base + t] = s[t];
    out[base + t + N / 2] = s[t + N / 2];
}
