// cachesens: each warp owns a disjoint slice of `slice` u32 elements of `in`
// and re-reads it `reps` times, summing.  Lane l of warp w reads
// in[w*slice + j*32 + l] for j in [0, slice/32) on every repetition, so a warp's
// loads are coalesced and the whole working set is (#warps * slice * 4) bytes.
// Repetitions >= 2 hit in an L1 that holds the working set and miss otherwise.
__global__ void cachesens(const unsigned int *in, unsigned int *out, int slice, int reps)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int warp = tid >> 5;
    int lane = tid & 31;
    const unsigned int *base = in + warp * slice + lane;
    unsigned int acc = 0;
#pragma unroll 1
    for (int r = 0; r < reps; ++r) {
        for (int j = 0; j < slice; j += 32)
            acc += base[j];
    }
    out[tid] = acc;
}
