// nvcc-flags: -arch=sm_75 -O3
// 8- and 16-bit data: unsigned/signed char and short loads and stores, sign/zero extension,
// char4 vector loads, and a byte histogram packed with sub-word stores.
__global__ void bytes(const unsigned char *uc, const signed char *sc, const short *ss, const uchar4 *v4,
                      short *o16, unsigned char *o8, int *o32, unsigned short *ou16, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned char a = uc[i];
    signed char b = sc[i];
    short c = ss[i];
    uchar4 q = v4[i];
    o16[i] = (short)(b * 3 + a - c);
    o8[i] = (unsigned char)(a ^ b) + (unsigned char)(c >> 8);
    o32[2 * i] = (int)b + (int)c + (int)a;                 // sign- and zero-extensions
    o32[2 * i + 1] = (int)((signed char)q.x) * q.y + (q.z << 8) - (int)(signed char)q.w;
    ou16[i] = (unsigned short)((unsigned short)c >> 3) + (unsigned short)(b < 0 ? 1 : 0);
}
