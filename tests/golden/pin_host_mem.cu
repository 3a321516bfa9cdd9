// Kernel of the loop at t.c:4 in f():
//     for (i = 0; i < n; i++)
//         y[i] = a * x[i] + y[i];
// Each thread runs iterations of 'i' a whole grid apart, so any grid covers any trip count.
__global__ void orcu_f_1_kernel(
    int orcu_lo,
    int orcu_hi,
    double *__restrict__ y,
    const double *__restrict__ x,
    double a)
{
    int i;
    for (i = orcu_lo + (int)(blockIdx.x * blockDim.x + threadIdx.x); i < orcu_hi; i += (int)(gridDim.x * blockDim.x)) {
        y[i] = a * x[i] + y[i];
    }
}

// Runs the loop at t.c:4 on the GPU (threadCount=128, blockCount=4, pinHostMem=True);
// returns when its results are in host memory.
void orcu_f_1(int n, double *y, double a, const double *x)
{
    const int orcu_lo = 0, orcu_hi = n;
    if (orcu_hi <= orcu_lo)
        return;  // no iteration: nothing to compute or move
    const int orcu_threads = 128;
    const int orcu_blocks = 4;

    // Device copies of the arrays, indexed as on the host so the loop body runs unchanged.
    double *d_y;
    ORCU_CHECK(cudaMalloc((void **)&d_y, sizeof(double) * orcu_count(0, n)));
    double *d_x;
    ORCU_CHECK(cudaMalloc((void **)&d_x, sizeof(double) * orcu_count(0, n)));

    // pinHostMem: page-locked host memory for faster copies.
    const bool orcu_pinned_y = orcu_pin(y, sizeof(double) * orcu_count(0, n));
    const bool orcu_pinned_x = orcu_pin(x, sizeof(double) * orcu_count(0, n));

    ORCU_CHECK(cudaMemcpy(d_y, y, sizeof(double) * orcu_count(0, n), cudaMemcpyHostToDevice));
    ORCU_CHECK(cudaMemcpy(d_x, x, sizeof(double) * orcu_count(0, n), cudaMemcpyHostToDevice));

    ORCU_LAUNCH(orcu_f_1_kernel, orcu_blocks, orcu_threads, 0, 0, orcu_lo, orcu_hi, d_y, d_x, a);
    ORCU_CHECK(cudaGetLastError());
    ORCU_CHECK(cudaMemcpy(y, d_y, sizeof(double) * orcu_count(0, n), cudaMemcpyDeviceToHost));

    if (orcu_pinned_y)
        ORCU_CHECK(cudaHostUnregister((void *)(y)));
    if (orcu_pinned_x)
        ORCU_CHECK(cudaHostUnregister((void *)(x)));
    ORCU_CHECK(cudaFree(d_y));
    ORCU_CHECK(cudaFree(d_x));
}
