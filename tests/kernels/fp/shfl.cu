// Shuffles of every mode, with sub-warp widths, on ints, floats and doubles.
__global__ void shfl(const int *in, int *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int v = in[t];
    int *o = out + 10 * t;
    o[0] = __shfl_sync(0xffffffff, v, (lane * 7 + 3) & 31);
    o[1] = __shfl_up_sync(0xffffffff, v, 3, 8);
    o[2] = __shfl_down_sync(0xffffffff, v, 5, 16);
    o[3] = __shfl_xor_sync(0xffffffff, v, 6, 4);
    o[4] = __shfl_sync(0xffffffff, v, lane + 2, 8);
    float f = (float)v * 0.5f;
    o[5] = __float_as_int(__shfl_xor_sync(0xffffffff, f, 1));
    double d = (double)v * 0.25;
    d = __shfl_down_sync(0xffffffff, d, 1, 32);
    o[6] = (int)(d * 4.0);
    o[7] = __shfl_up_sync(0xffffffff, v, 1, 2);
    int s = v;
    for (int k = 1; k < 8; k <<= 1) s += __shfl_xor_sync(0xffffffff, s, k, 8);
    o[8] = s;
    o[9] = __shfl_sync(0xffffffff, v, 31 - lane, 16);
}
