// Kernel of the loop at t.c:4 in f():
//     for (i = 0; i <= n-1; i++)
//         for (k = 0; k <= nv-1; k++)
//             y[i] += a[k] * X[i + k*n];
// Each thread runs iterations of 'i' a whole grid apart, so any grid covers any trip count.
__global__ void orcu_f_1_kernel(
    int orcu_lo,
    int orcu_hi,
    double *__restrict__ y,
    const double *__restrict__ a,
    const double *__restrict__ X,
    int n,
    int nv)
{
    int i, k;
    // cacheBlocks: every thread of the block reads a whole,
    // so the block loads it into shared memory once.
    ORCU_DYNAMIC_SHARED(orcu_shared);
    double *a_shared = (double *)(orcu_shared);
    for (int orcu_k = threadIdx.x; orcu_k < nv; orcu_k += blockDim.x)
        a_shared[orcu_k] = a[orcu_k];
    __syncthreads();
    for (i = orcu_lo + (int)(blockIdx.x * blockDim.x + threadIdx.x); i < orcu_hi; i += (int)(gridDim.x * blockDim.x)) {
        for (k = 0; k < nv; k++) {
            y[i] += a_shared[k] * X[i + k * n];
        }
    }
}

// Runs the loop at t.c:4 on the GPU (threadCount=128, blockCount=8, cacheBlocks=True);
// returns when its results are in host memory.
void orcu_f_1(int n, int nv, double *y, const double *a, const double *X)
{
    const int orcu_lo = 0, orcu_hi = n;
    if (orcu_hi <= orcu_lo)
        return;  // no iteration: nothing to compute or move
    const int orcu_threads = 128;
    const int orcu_blocks = 8;

    // Device copies of the arrays, indexed as on the host so the loop body runs unchanged.
    double *d_y;
    ORCU_CHECK(cudaMalloc((void **)&d_y, sizeof(double) * orcu_count(0, n)));
    double *d_a;
    ORCU_CHECK(cudaMalloc((void **)&d_a, sizeof(double) * orcu_count(0, nv)));
    double *d_X;
    ORCU_CHECK(cudaMalloc((void **)&d_X, sizeof(double) * orcu_count(0, n*nv)));

    // cacheBlocks: room for the block's shared copies of a.
    const size_t orcu_shared_bytes = sizeof(double) * orcu_count(0, nv);
    if (orcu_shared_bytes > 48 * 1024)  // beyond the default limit: ask for more
        ORCU_CHECK(cudaFuncSetAttribute(orcu_f_1_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)orcu_shared_bytes));

    ORCU_CHECK(cudaMemcpy(d_y, y, sizeof(double) * orcu_count(0, n), cudaMemcpyHostToDevice));
    ORCU_CHECK(cudaMemcpy(d_a, a, sizeof(double) * orcu_count(0, nv), cudaMemcpyHostToDevice));
    ORCU_CHECK(cudaMemcpy(d_X, X, sizeof(double) * orcu_count(0, n*nv), cudaMemcpyHostToDevice));

    ORCU_LAUNCH(orcu_f_1_kernel, orcu_blocks, orcu_threads, orcu_shared_bytes, 0, orcu_lo, orcu_hi, d_y, d_a, d_X, n, nv);
    ORCU_CHECK(cudaGetLastError());
    ORCU_CHECK(cudaMemcpy(y, d_y, sizeof(double) * orcu_count(0, n), cudaMemcpyDeviceToHost));

    ORCU_CHECK(cudaFree(d_y));
    ORCU_CHECK(cudaFree(d_a));
    ORCU_CHECK(cudaFree(d_X));
}
