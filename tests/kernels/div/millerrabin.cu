// nvcc-flags: -arch=sm_75 -O3
// Deterministic Miller-Rabin for 32-bit n (bases 2, 3, 5, 7): loops with early returns and
// breaks inside a loop over bases, 64-bit modular multiplication.
__device__ unsigned mulmod(unsigned a, unsigned b, unsigned m)
{
    return (unsigned)((unsigned long long)a * b % m);
}
__device__ unsigned powmod(unsigned a, unsigned e, unsigned m)
{
    unsigned r = 1;
    a %= m;
    while (e) {
        if (e & 1) r = mulmod(r, a, m);
        a = mulmod(a, a, m);
        e >>= 1;
    }
    return r;
}
__device__ int is_prime(unsigned n)
{
    if (n < 2) return 0;
    const unsigned small[4] = {2, 3, 5, 7};
    for (int i = 0; i < 4; i++) {
        if (n == small[i]) return 1;
        if (n % small[i] == 0) return 0;
    }
    unsigned d = n - 1;
    int s = 0;
    while ((d & 1) == 0) { d >>= 1; s++; }
    for (int i = 0; i < 4; i++) {
        unsigned x = powmod(small[i], d, n);
        if (x == 1 || x == n - 1) continue;
        int composite = 1;
        for (int r = 1; r < s; r++) {
            x = mulmod(x, x, n);
            if (x == n - 1) { composite = 0; break; }
            if (x == 1) return 0;
        }
        if (composite) return 0;
    }
    return 1;
}
__global__ void millerrabin(const unsigned *nums, int *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    out[t] = is_prime(nums[t]);
}
