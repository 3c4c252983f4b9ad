// CSR sparse matrix-vector product y = A x, one thread per row: the "scalar"
// CSR kernel of Bell and Garland, "Efficient Sparse Matrix-Vector
// Multiplication on CUDA" (NVIDIA Technical Report NVR-2008-004, 2008).
// spmv.yaml runs it over spmv_poisson.mtx, the 5-point Laplacian of a 96 x 96
// mesh written by gen_app_inputs.py.
extern "C" __global__ void spmv(const unsigned *row_ptr, const unsigned *col_idx, const float *values,
                                const float *x, float *y, unsigned rows)
{
    unsigned row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows)
        return;
    float sum = 0.0f;
    for (unsigned k = row_ptr[row]; k < row_ptr[row + 1]; k++)
        sum += values[k] * x[col_idx[k]];
    y[row] = sum;
}
