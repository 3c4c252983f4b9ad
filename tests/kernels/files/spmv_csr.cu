// CSR sparse matrix-vector product y = A x, one thread per row (the
// "scalar" CSR kernel of Bell and Garland, "Efficient Sparse Matrix-Vector
// Multiplication on CUDA", NVIDIA Technical Report NVR-2008-004).
// The buffers come from files (tests/e2e/inputs_files.sh).
extern "C" __global__ void spmv_csr(const unsigned *row_ptr, const unsigned *col_idx, const float *values,
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
