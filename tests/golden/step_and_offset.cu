// Kernel of the loop at t.c:4 in f():
//     for (i = 1; i < n - 1; i += 2)
//         b[i] = 0.5 * (a[i-1] + a[i+1]);
// Each thread runs iterations of 'i' a whole grid apart, so any grid covers any trip count.
__global__ void orcu_f_1_kernel(
    int orcu_lo,
    int orcu_hi,
    double *__restrict__ b,
    const double *__restrict__ a)
{
    int i;
    for (i = orcu_lo + (int)(blockIdx.x * blockDim.x + threadIdx.x) * 2; i < orcu_hi; i += (int)(gridDim.x * blockDim.x) * 2) {
        b[i] = 0.5 * (a[i - 1] + a[i + 1]);
    }
}

// Runs the loop at t.c:4 on the GPU (threadCount=64, blockCount=2);
// returns when its results are in host memory.
void orcu_f_1(int n, double *b, const double *a)
{
    const int orcu_lo = 1, orcu_hi = n - 1;
    if (orcu_hi <= orcu_lo)
        return;  // no iteration: nothing to compute or move
    const int orcu_threads = 64;
    const int orcu_blocks = 2;

    // Device copies of the arrays, indexed as on the host so the loop body runs unchanged.
    double *d_b;
    ORCU_CHECK(cudaMalloc((void **)&d_b, sizeof(double) * orcu_count(0, n - 1)));
    double *d_a;
    ORCU_CHECK(cudaMalloc((void **)&d_a, sizeof(double) * orcu_count(0, n)));

    ORCU_CHECK(cudaMemcpy(d_b + (1), b + (1), sizeof(double) * orcu_count(1, n - 1), cudaMemcpyHostToDevice));
    ORCU_CHECK(cudaMemcpy(d_a, a, sizeof(double) * orcu_count(0, n), cudaMemcpyHostToDevice));

    ORCU_LAUNCH(orcu_f_1_kernel, orcu_blocks, orcu_threads, 0, 0, orcu_lo, orcu_hi, d_b, d_a);
    ORCU_CHECK(cudaGetLastError());
    ORCU_CHECK(cudaMemcpy(b + (1), d_b + (1), sizeof(double) * orcu_count(1, n - 1), cudaMemcpyDeviceToHost));

    ORCU_CHECK(cudaFree(d_b));
    ORCU_CHECK(cudaFree(d_a));
}
