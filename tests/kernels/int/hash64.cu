// nvcc-flags: -arch=sm_75 -O3
// 64-bit hashing: splitmix64, murmur3 fmix64, 64-bit rotates, xorshift, and a per-thread
// loop with a runtime trip count and a 64-bit modulo by a runtime value.
__device__ __forceinline__ unsigned long long rotl64(unsigned long long x, int r)
{
    return (x << r) | (x >> (64 - r));
}
__device__ __forceinline__ unsigned long long splitmix64(unsigned long long &s)
{
    unsigned long long z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
__device__ __forceinline__ unsigned long long fmix64(unsigned long long k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ull;
    k ^= k >> 33;
    return k;
}

__global__ void hash64(const unsigned long long *seeds, unsigned long long *out, unsigned long long m, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned long long s = seeds[i];
    unsigned long long h = 0;
    int iters = (int)(s & 7) + 1;
    for (int k = 0; k < iters; k++) {
        unsigned long long z = splitmix64(s);
        h = rotl64(h ^ z, 27) * 5 + 0x52dce729;
        h ^= h << 13;
        h ^= h >> 7;
        h ^= h << 17;
    }
    out[3 * i] = fmix64(h);
    out[3 * i + 1] = h % m;
    out[3 * i + 2] = rotl64(h, i & 63 ? i & 63 : 1) / (m >> 3 | 1);
}
