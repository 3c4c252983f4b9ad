// nvcc-flags: -arch=sm_75 -O3 -ptx
// Level-synchronous BFS over a CSR graph in two kernels (as Rodinia's bfs
// splits a level into two): expand visits the frontier (dist == level) and
// labels unvisited neighbours level + 1, setting changed; advance moves
// level on. Looped until changed == 0.
#define INF 0xffffffffu
extern "C" __global__ void expand(const unsigned *row_ptr, const unsigned *col, unsigned *dist,
                                  const unsigned *level, unsigned *changed, unsigned n)
{
    unsigned v = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned l = level[0];
    if (v < n && dist[v] == l) {
        for (unsigned e = row_ptr[v]; e < row_ptr[v + 1]; e++) {
            unsigned u = col[e];
            if (dist[u] == INF) {
                dist[u] = l + 1;
                changed[0] = 1;
            }
        }
    }
}
extern "C" __global__ void advance(unsigned *level)
{
    if (blockIdx.x == 0 && threadIdx.x == 0) level[0] += 1;
}
