// nvcc-flags: -arch=sm_80 -O3
// Lanes that really exit before full-mask .sync warp operations (issue 24, item 6, the variants
// the tail merge of syncexit.cu does not cover). Lanes 4k+3 first do later work of their own
// (a data-dependent loop storing to `late`), then return without reaching the common tail: each
// writes a buffer the staying lanes never write, so nvcc cannot merge the stores. The staying
// lanes run __all_sync, __shfl_sync, __reduce_add_sync and __syncwarp with the full mask inside
// a __noinline__ device function (call and ret), then store. CUDA: "all non-exited threads named
// in mask" take part, so the ops complete over the staying lanes once the others have exited.
__device__ __noinline__ int4 collect(int *in, int t, int lane, int x)
{
    int a = __all_sync(0xffffffffu, x > -50);
    int s = __shfl_sync(0xffffffffu, x, lane & ~3);
    unsigned r = __reduce_add_sync(0xffffffffu, (unsigned)x);
    in[t] = x + 5;
    __syncwarp();
    int nb = in[(t & ~31) + (lane & ~3)];
    return make_int4(a, s, (int)r, nb);
}

__global__ void syncexit_late(int *in, int4 *out, int *late)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
    int x = in[t];
    if ((lane & 3) == 3) {
        int acc = 0;
        for (int i = 0; i < (x & 15) + 1; i++) acc = acc * 3 + i;
        late[t] = acc;
        return;
    }
    out[t] = collect(in, t, lane, x);
}

// The same with lanes 4k+3 leaving by `exit` right after their later work (asm: PTX exit,
// which nvcc emits for such lanes as is): they are exited, not parked at a tail, when the
// staying lanes reach the full-mask operations.
__global__ void syncexit_exit(int *in, int4 *out, int *late)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
    int x = in[t];
    if ((lane & 3) == 3) {
        int acc = 0;
        for (int i = 0; i < (x & 15) + 1; i++) acc = acc * 3 + i;
        late[t] = acc;
        asm volatile("exit;");
    }
    out[t] = collect(in, t, lane, x);
}
