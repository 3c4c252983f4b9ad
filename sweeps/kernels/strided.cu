// strided: each thread does one global load at in[i * stride] (stride is the
// last .param so memory-system tests can override it), then one store.
// The stored value is in[i*stride] - i*stride + i; with in = iota this is i for
// every stride, so the workload's expectation holds for any stride override
// (as long as in has >= n*stride elements).
__global__ void strided(const unsigned int *in, unsigned int *out, int n, int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned int j = (unsigned int)i * (unsigned int)stride;
        out[i] = in[j] - j + (unsigned int)i;
    }
}
