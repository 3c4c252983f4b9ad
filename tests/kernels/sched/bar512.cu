// nvcc-flags: -arch=sm_75 -O3
// 512-thread CTAs (16 warps of 32, twice two_level's default active set of 8)
// with __syncthreads in loops: a rotation through shared memory (every round
// needs all 16 warps at the barrier twice) and a tree reduction.
#define B 512
__global__ void bar512(const unsigned *in, unsigned *rot, unsigned *sum)
{
    __shared__ unsigned s[B];
    unsigned t = threadIdx.x, g = blockIdx.x * B + t;
    unsigned v = in[g];
    for (unsigned r = 0; r < 3; r++) {
        s[t] = v * 3u + r;
        __syncthreads();
        v = s[(t + 1) % B];
        __syncthreads();
    }
    rot[g] = v;
    s[t] = v;
    __syncthreads();
    for (unsigned off = B / 2; off > 0; off >>= 1) {
        if (t < off)
            s[t] += s[t + off];
        __syncthreads();
    }
    if (t == 0)
        sum[blockIdx.x] = s[0];
}
