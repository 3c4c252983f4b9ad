// nvcc-flags: -arch=sm_75 -O3 -lineinfo
// A per-thread array indexed by data-dependent values: forced into .local memory.
struct pair { int key; short tag; unsigned char flag; };

__global__ void localarr(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int arr[24];
    pair ps[6];
    for (int k = 0; k < 24; k++)
        arr[k] = in[(i * 7 + k) % n] * (k + 1);
    for (int k = 0; k < 6; k++) {
        ps[k].key = in[(i + k) % n];
        ps[k].tag = (short)(k - 3);
        ps[k].flag = (unsigned char)(200 + k);
    }
    int acc = 0;
    for (int k = 0; k < 8; k++) {
        int j = (in[(i + k) % n] & 0x7fffffff) % 24;
        acc += arr[j];
        arr[(j * 5 + k) % 24] ^= acc;
    }
    int m = (acc & 0x7fffffff) % 6;
    out[2 * i] = acc + arr[i % 24];
    out[2 * i + 1] = ps[m].key + ps[m].tag * 1000 + ps[m].flag;
}
