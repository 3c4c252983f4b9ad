// tbchalf: thread block compaction's acceptance case (issue 13), two warps of
// 32 threads whose branch splits each warp in complementary lanes:
//   p = (tid ^ (tid >> 5)) & 1: odd lanes of warp 0, even lanes of warp 1
//   if (p) { A: v = in[tid];  B: out[tid] = v * 2;   }
//   else   { X: w = in2[tid]; Y: out[tid] = w + 100; }
//   Z: out2[tid] = tid * 3;
// Per-warp schemes run both paths in both warps (4 half-full warp runs of the
// region); tbc compacts each path's 32 threads into one full dynamic warp.
__global__ void tbchalf(const int *in, const int *in2, int *out, int *out2)
{
    int tid = threadIdx.x;
    if ((tid ^ (tid >> 5)) & 1) {
        int v = in[tid];
        out[tid] = v * 2;
    } else {
        int w = in2[tid];
        out[tid] = w + 100;
    }
    out2[tid] = tid * 3;
}
