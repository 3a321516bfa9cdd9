// Kernel of the loop at t.c:4 in f():
//     for (i = 0; i < n; i++)
//         if (x[i] < r) r = x[i];
// Each thread runs iterations of 'i' a whole grid apart, so any grid covers any trip count.
__global__ void orcu_f_1_kernel(
    int orcu_lo,
    int orcu_hi,
    const double *__restrict__ x,
    double *__restrict__ orcu_partial_r)
{
    int i;
    double r = INFINITY;  // this thread's share of the 'min' reduction of r
    for (i = orcu_lo + (int)(blockIdx.x * blockDim.x + threadIdx.x); i < orcu_hi; i += (int)(gridDim.x * blockDim.x)) {
        if (x[i] < r)
            r = x[i];
    }
    r = orcu_block_reduce<double, orcu_min>(r);
    if (threadIdx.x == 0)
        orcu_partial_r[blockIdx.x] = r;
}

// Second stage of the 'min' reduction of r: one block folds the blocks' partial
// results, then combines them with the value r had before the loop.
__global__ void orcu_f_1_finish_r(const double *__restrict__ orcu_partial, int orcu_partials,
    double orcu_before, double *__restrict__ orcu_result)
{
    double r = INFINITY;
    for (int orcu_k = threadIdx.x; orcu_k < orcu_partials; orcu_k += blockDim.x)
        r = orcu_min::combine(r, orcu_partial[orcu_k]);
    r = orcu_block_reduce<double, orcu_min>(r);
    if (threadIdx.x == 0)
        *orcu_result = orcu_min::combine(orcu_before, r);
}

// Runs the loop at t.c:4 on the GPU (threadCount=32, blockCount=7);
// returns when its results are in host memory.
void orcu_f_1(int n, const double *x, double *r)
{
    const int orcu_lo = 0, orcu_hi = n;
    if (orcu_hi <= orcu_lo)
        return;  // no iteration: nothing to compute or move
    const int orcu_threads = 32;
    const int orcu_blocks = 7;

    // Device copies of the arrays, indexed as on the host so the loop body runs unchanged.
    double *d_x;
    ORCU_CHECK(cudaMalloc((void **)&d_x, sizeof(double) * orcu_count(0, n)));

    // Per reduction: one partial result per block, then the final value.
    const int orcu_partials = orcu_blocks;
    double *d_r_partial;
    ORCU_CHECK(cudaMalloc((void **)&d_r_partial, sizeof(double) * (orcu_partials + 1)));

    ORCU_CHECK(cudaMemcpy(d_x, x, sizeof(double) * orcu_count(0, n), cudaMemcpyHostToDevice));

    ORCU_LAUNCH(orcu_f_1_kernel, orcu_blocks, orcu_threads, 0, 0, orcu_lo, orcu_hi, d_x, d_r_partial);
    ORCU_CHECK(cudaGetLastError());
    ORCU_LAUNCH(orcu_f_1_finish_r, 1, 256, 0, 0, d_r_partial, orcu_blocks, *r, d_r_partial + orcu_partials);
    ORCU_CHECK(cudaGetLastError());
    ORCU_CHECK(cudaMemcpy(r, d_r_partial + orcu_partials, sizeof(double), cudaMemcpyDeviceToHost));

    ORCU_CHECK(cudaFree(d_x));
    ORCU_CHECK(cudaFree(d_r_partial));
}
