// nvcc-flags: -arch=sm_90 -O3 -Xcicc -jump-table-density=1
// A dense 12-way switch (jump table: brx.idx) on data, nested in a loop, with a default.
__global__ void switch12(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int a = in[i], r = 0;
    for (int k = 0; k < 3; k++) {
        switch ((a + k * 5) % 13) {
        case 0: r += a; break;
        case 1: r -= 3 * a + k; break;
        case 2: r ^= a << 3; break;
        case 3: r = r * 7 + 1; break;
        case 4: r += a / 3; break;
        case 5: r |= 0x100 << k; break;
        case 6: r &= ~a; break;
        case 7: r += (a >> 2) - k; break;
        case 8: r -= 1000; break;
        case 9: r = (r << 1) | (a & 1); break;
        case 10: r += k * k * 11; break;
        case 11: r = -r; break;
        default: r += 77; break;
        }
    }
    out[i] = r;
}
