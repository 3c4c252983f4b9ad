// nvcc-flags: -arch=sm_75 -O3
// ccws starvation (tests/e2e/sched_starvation.sh).  Two warps: warp 0 reads
// its n lines of `a` twice, then spins on a flag; warp 1 reads 3n other lines
// and only then sets the flag.  With a small L1 warp 1's lines evict warp 0's
// during its first pass, so warp 0's second pass misses on its own evicted
// lines: VTA hits.  With a large KThrottle the first one throttles warp 1, and
// without score decay (ccws_decay=0) it never issues again while warp 0 spins:
// scheduler starvation.  Under any fair scheduler (or ccws with its decay) the
// program ends with the values of expected.py.
__global__ void ccwsstarve(volatile unsigned *flag, const unsigned *a, unsigned *out, int n)
{
    unsigned t = threadIdx.x, w = t / 32, l = t & 31, s = 0;
    if (w == 0) {
        for (int r = 0; r < 2; r++)
            for (int i = 0; i < n; i++)
                s += a[i * 32 + l];
        while (*flag == 0u)
            ;
        out[t] = s + *flag;
    } else {
        for (int i = 0; i < 3 * n; i++)
            s += a[(n + i) * 32 + l];
        if (l == 0)
            *flag = 7u;
        out[t] = s;
    }
}
