// printf compiles to a call of vprintf: refused at load with file:line:col.
#include <cstdio>
__global__ void hello(int *out)
{
    printf("thread %d\n", threadIdx.x);
    out[threadIdx.x] = threadIdx.x;
}
