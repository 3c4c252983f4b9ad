// nvcc-flags: -arch=sm_75 -O3
// Binary search (lower/upper bound) in a sorted array with duplicates: inlined device functions.
__device__ __forceinline__ int lower_bound(const int *a, int n, int key)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = (lo + hi) >> 1;
        if (a[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}
__device__ __forceinline__ int upper_bound(const int *a, int n, int key)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (key < a[mid])
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

__global__ void bsearch(const int *sorted, int n, const int *queries, int *lo, int *cnt, int q)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < q; i += blockDim.x * gridDim.x) {
        int key = queries[i];
        int l = lower_bound(sorted, n, key);
        int u = upper_bound(sorted, n, key);
        lo[i] = l;
        cnt[i] = u - l;
    }
}
