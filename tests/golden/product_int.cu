// Kernel of the loop at t.c:4 in f():
//     for (i = 0; i < n; i++)
//         r = r * x[i];
// Each thread runs iterations of 'i' a whole grid apart, so any grid covers any trip count.
__global__ void orcu_f_1_kernel(
    int orcu_lo,
    int orcu_hi,
    const int *__restrict__ x,
    int *__restrict__ orcu_partial_r)
{
    int i;
    int r = 1;  // this thread's share of the '*' reduction of r
    for (i = orcu_lo + (int)(blockIdx.x * blockDim.x + threadIdx.x); i < orcu_hi; i += (int)(gridDim.x * blockDim.x)) {
        r = r * x[i];
    }
    r = orcu_block_reduce<int, orcu_product>(r);
    if (threadIdx.x == 0)
        orcu_partial_r[blockIdx.x] = r;
}

// Second stage of the '*' reduction of r: one block folds the blocks' partial
// results, then combines them with the value r had before the loop.
__global__ void orcu_f_1_finish_r(const int *__restrict__ orcu_partial, int orcu_partials,
    int orcu_before, int *__restrict__ orcu_result)
{
    int r = 1;
    for (int orcu_k = threadIdx.x; orcu_k < orcu_partials; orcu_k += blockDim.x)
        r = orcu_product::combine(r, orcu_partial[orcu_k]);
    r = orcu_block_reduce<int, orcu_product>(r);
    if (threadIdx.x == 0)
        *orcu_result = orcu_product::combine(orcu_before, r);
}

// Runs the loop at t.c:4 on the GPU (threadCount=64, blockCount=2);
// returns when its results are in host memory.
void orcu_f_1(int n, int *r, const int *x)
{
    const int orcu_lo = 0, orcu_hi = n;
    if (orcu_hi <= orcu_lo)
        return;  // no iteration: nothing to compute or move
    const int orcu_threads = 64;
    const int orcu_blocks = 2;

    // Device copies of the arrays, indexed as on the host so the loop body runs unchanged.
    int *d_x;
    ORCU_CHECK(cudaMalloc((void **)&d_x, sizeof(int) * orcu_count(0, n)));

    // Per reduction: one partial result per block, then the final value.
    const int orcu_partials = orcu_blocks;
    int *d_r_partial;
    ORCU_CHECK(cudaMalloc((void **)&d_r_partial, sizeof(int) * (orcu_partials + 1)));

    ORCU_CHECK(cudaMemcpy(d_x, x, sizeof(int) * orcu_count(0, n), cudaMemcpyHostToDevice));

    ORCU_LAUNCH(orcu_f_1_kernel, orcu_blocks, orcu_threads, 0, 0, orcu_lo, orcu_hi, d_x, d_r_partial);
    ORCU_CHECK(cudaGetLastError());
    ORCU_LAUNCH(orcu_f_1_finish_r, 1, 256, 0, 0, d_r_partial, orcu_blocks, *r, d_r_partial + orcu_partials);
    ORCU_CHECK(cudaGetLastError());
    ORCU_CHECK(cudaMemcpy(r, d_r_partial + orcu_partials, sizeof(int), cudaMemcpyDeviceToHost));

    ORCU_CHECK(cudaFree(d_x));
    ORCU_CHECK(cudaFree(d_r_partial));
}
