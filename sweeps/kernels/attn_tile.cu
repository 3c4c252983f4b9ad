// attn_tile: one attention head's forward pass, O = softmax(Q K^T / sqrt(D)) V,
// FlashAttention-style (Dao et al., NeurIPS 2022): each CTA stages the keys and
// values in tiles of TK rows x D dims in shared memory; each warp owns R query
// rows, scores two keys per lane, takes the row's maximum and sum with warp-shuffle
// butterfly reductions, and accumulates P V with one lane per output dimension,
// rescaling its running sum and accumulator when a later tile raises the maximum.
// The shipped example of docs/noise.md: shared memory, barriers, shuffles and
// global loads whose interleaving the jitter perturbs.
#define D 32     // head dimension: one lane per output dimension
#define TK 64    // keys per tile: two per lane
#define R 2      // query rows per warp

__global__ void attn_tile(const float *Q, const float *K, const float *V, float *O, int nkeys, float scale_log2)
{
    __shared__ float Ks[TK][D + 1];   // +1: a lane's key row starts on its own bank
    __shared__ float Vs[TK][D];
    __shared__ float Qs[4][R][D];     // up to 4 warps per CTA
    const unsigned full = 0xffffffffu;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
    const int row0 = (blockIdx.x * nwarps + warp) * R;
    float m[R], l[R], acc[R];
    for (int r = 0; r < R; r++) {
        Qs[warp][r][lane] = Q[(row0 + r) * D + lane];
        m[r] = -INFINITY;
        l[r] = 0.0f;
        acc[r] = 0.0f;
    }
    for (int t0 = 0; t0 < nkeys; t0 += TK) {
        __syncthreads();   // the previous tile is no longer read
        for (int i = threadIdx.x; i < TK * D; i += blockDim.x) {
            Ks[i / D][i % D] = K[t0 * D + i];
            Vs[i / D][i % D] = V[t0 * D + i];
        }
        __syncthreads();
        for (int r = 0; r < R; r++) {
            float s0 = 0.0f, s1 = 0.0f;
            for (int d = 0; d < D; d++) {
                s0 += Qs[warp][r][d] * Ks[lane][d];
                s1 += Qs[warp][r][d] * Ks[lane + 32][d];
            }
            s0 *= scale_log2;
            s1 *= scale_log2;
            float mx = fmaxf(s0, s1);
            for (int o = 16; o > 0; o >>= 1) mx = fmaxf(mx, __shfl_xor_sync(full, mx, o));
            const float mnew = fmaxf(m[r], mx);
            const float p0 = exp2f(s0 - mnew), p1 = exp2f(s1 - mnew);
            float sum = p0 + p1;
            for (int o = 16; o > 0; o >>= 1) sum += __shfl_xor_sync(full, sum, o);
            const float corr = exp2f(m[r] - mnew);
            l[r] = l[r] * corr + sum;
            float a = acc[r] * corr;
            for (int j = 0; j < 32; j++) {
                a += __shfl_sync(full, p0, j) * Vs[j][lane];
                a += __shfl_sync(full, p1, j) * Vs[j + 32][lane];
            }
            acc[r] = a;
            m[r] = mnew;
        }
    }
    for (int r = 0; r < R; r++) O[(row0 + r) * D + lane] = acc[r] / l[r];
}
