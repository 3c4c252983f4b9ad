// nvcc-flags: -arch=sm_75 -O3
// daws starvation (tests/e2e/sched_starvation.sh).  Two warps whose loads are
// divergent: lane l reads a[(l%16)*32 + k], one 128-byte line per lane pair,
// 16 lines per warp access, the same 16 lines at every k < 32.  Warp 0 reads
// them twice, then spins on a flag, re-reading a[(l%16)*32] in the spin loop;
// warp 1 reads them n times and only then sets the flag.  Each access evicts
// the lines of the one before from an L1 of 8 lines, and 16 - 8 later
// evictions leave them in the warp's 16-entry VTA, so both loops' loads show
// intra-warp locality (VTA hits) and predict 16 lines per warp: warp 0, the
// oldest, may always load; warp 1 does not fit an L1 of fewer than 32 lines
// beside it and never sets the flag (scheduler starvation).  Under any fair
// scheduler the program ends with the values of expected.py.
__global__ void dawsstarve(volatile unsigned *flag, const unsigned *a, unsigned *out, int n)
{
    unsigned t = threadIdx.x, w = t / 32, l = t & 31, s = 0;
    if (w == 0) {
        for (int r = 0; r < 2; r++)
            s += a[(l & 15) * 32 + r];
        const volatile unsigned *va = a;    // volatile: the compiler keeps the re-read in the loop
        unsigned v = va[(l & 15) * 32];            // the same value every time: out does not depend on timing
        while (*flag == 0u)
            v = va[(l & 15) * 32];
        out[t] = s + v + *flag;
    } else {
        for (int i = 0; i < n; i++)
            s += a[(l & 15) * 32 + (i & 31)];
        if (l == 0)
            *flag = 7u;
        out[t] = s;
    }
}
