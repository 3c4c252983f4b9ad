// Breadth-first search as in Rodinia's bfs (Che et al., "Rodinia: A Benchmark
// Suite for Heterogeneous Computing", IISWC 2009; bfs/kernel.cu, kernel2.cu,
// after Harish and Narayanan, HiPC 2007): one thread per vertex, a frontier
// mask, an "updating" mask for the next frontier, a visited flag and the cost
// (BFS level) of every vertex; the host repeats Kernel then Kernel2 until
// Kernel2 no longer sets `over`.
//
// Differences from Rodinia, each for the workload format: the graph is CSR
// (row_ptr[v] .. row_ptr[v + 1] instead of Rodinia's Node {starting,
// no_of_edges}, the same numbers); the thread index uses blockDim.x instead of
// the MAX_THREADS_PER_BLOCK constant; bool flags are unsigned char; and the
// host's initialisation (mask, visited and cost 0 at the source, cost -1
// elsewhere) is a kernel, bfs_init, since a workload's buffers are
// initialised to whole-buffer values.
extern "C" __global__ void bfs_init(unsigned char *mask, unsigned char *updating, unsigned char *visited,
                                    int *cost, int n, int source)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n) {
        mask[tid] = tid == source;
        updating[tid] = 0;
        visited[tid] = tid == source;
        cost[tid] = tid == source ? 0 : -1;
    }
}

// Rodinia Kernel: expand every vertex of the frontier.
extern "C" __global__ void bfs_kernel(const unsigned *row_ptr, const unsigned *col_idx, unsigned char *mask,
                                      unsigned char *updating, const unsigned char *visited, int *cost, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n && mask[tid]) {
        mask[tid] = 0;
        for (unsigned i = row_ptr[tid]; i < row_ptr[tid + 1]; i++) {
            unsigned id = col_idx[i];
            if (!visited[id]) {
                cost[id] = cost[tid] + 1;
                updating[id] = 1;
            }
        }
    }
}

// Rodinia Kernel2: the next frontier; `over` tells the host to go on.
extern "C" __global__ void bfs_kernel2(unsigned char *mask, unsigned char *updating, unsigned char *visited,
                                       unsigned char *over, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n && updating[tid]) {
        mask[tid] = 1;
        visited[tid] = 1;
        *over = 1;
        updating[tid] = 0;
    }
}
