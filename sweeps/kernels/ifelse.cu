// ifelse: the canonical divergent if/else on one warp of 8 threads.
//   if (tid < 4) { A: v = in[tid];  B: out[tid] = v * 2;   }
//   else         { X: w = in2[tid]; Y: out[tid] = w + 100; }
//   Z: out2[tid] = tid * 3;
// A and X are global loads whose results B and Y consume.
__global__ void ifelse(const int *in, const int *in2, int *out, int *out2)
{
    int tid = threadIdx.x;
    if (tid < 4) {
        int v = in[tid];
        out[tid] = v * 2;
    } else {
        int w = in2[tid];
        out[tid] = w + 100;
    }
    out2[tid] = tid * 3;
}
