// nvcc-flags: -Xcicc -jump-table-density=1
// switch: a dense switch on (threadIdx.x % 8); every case does a different
// operation so nvcc cannot turn it into a lookup table.
// With default flags NVVM lowers this to a chain of setp/bra (binary search);
// the `nvcc-flags` line above (read by scripts/regen_ptx.sh) lowers the jump
// table threshold so the PTX gets a real indirect branch: cases 0..6 go through
// `brx.idx` over a `.branchtargets` list, case 7 (default) is split off by a
// range check (setp.gt.u16 ... 6; @p bra) before the brx.idx.
__global__ void switch_kernel(const int *in, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int a = in[i];
    int r;
    switch (threadIdx.x % 8) {
    case 0: r = a * 3; break;
    case 1: r = a + 7; break;
    case 2: r = a ^ 0x55; break;
    case 3: r = a << 2; break;
    case 4: r = a - 9; break;
    case 5: r = a * a; break;
    case 6: r = ~a; break;
    default: r = a >> 1; break;
    }
    out[i] = r;
}
