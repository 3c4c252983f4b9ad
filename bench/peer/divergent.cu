// divergent: data-dependent branches inside a loop. Each round a per-thread
// hash picks one of four paths of different length (a 1-, 2-, 3- or
// 4-iteration inner loop of different ALU work), so the lanes of a warp split
// up to four ways and reconverge at the end of every round.
__global__ void divergent(unsigned *out, int rounds)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned h = t * 0x9E3779B9u + 1u, acc = 0;
#pragma unroll 1
    for (int r = 0; r < rounds; r++) {
        h ^= h << 13; h ^= h >> 17; h ^= h << 5;        // xorshift32 (Marsaglia 2003)
        unsigned path = h & 3;
        if (path == 0) {
            acc += h >> 3;
        } else if (path == 1) {
#pragma unroll 1
            for (int j = 0; j < 2; j++) acc = acc * 3u + j;
        } else if (path == 2) {
#pragma unroll 1
            for (int j = 0; j < 3; j++) acc ^= (acc << 1) + h;
        } else {
#pragma unroll 1
            for (int j = 0; j < 4; j++) acc += (h >> j) & 0xffu;
        }
    }
    out[t] = acc;
}
