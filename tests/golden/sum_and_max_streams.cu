// Kernel of the loop at t.c:5 in f():
//     for (i = 0; i < n; i++) {
//         total += x[i];
//         top = fmaxf(top, x[i]);
//     }
// Each thread runs iterations of 'i' a whole grid apart, so any grid covers any trip count.
__global__ void orcu_f_1_kernel(
    int orcu_lo,
    int orcu_hi,
    const float *__restrict__ x,
    float *__restrict__ orcu_partial_total,
    float *__restrict__ orcu_partial_top)
{
    int i;
    float total = 0.0f;  // this thread's share of the '+' reduction of total
    float top = -INFINITY;  // this thread's share of the 'max' reduction of top
    for (i = orcu_lo + (int)(blockIdx.x * blockDim.x + threadIdx.x); i < orcu_hi; i += (int)(gridDim.x * blockDim.x)) {
        total += x[i];
        top = fmaxf(top, x[i]);
    }
    total = orcu_block_reduce<float, orcu_sum>(total);
    if (threadIdx.x == 0)
        orcu_partial_total[blockIdx.x] = total;
    top = orcu_block_reduce<float, orcu_max>(top);
    if (threadIdx.x == 0)
        orcu_partial_top[blockIdx.x] = top;
}

// Second stage of the '+' reduction of total: one block folds the blocks' partial
// results, then combines them with the value total had before the loop.
__global__ void orcu_f_1_finish_total(const float *__restrict__ orcu_partial, int orcu_partials,
    float orcu_before, float *__restrict__ orcu_result)
{
    float total = 0.0f;
    for (int orcu_k = threadIdx.x; orcu_k < orcu_partials; orcu_k += blockDim.x)
        total = orcu_sum::combine(total, orcu_partial[orcu_k]);
    total = orcu_block_reduce<float, orcu_sum>(total);
    if (threadIdx.x == 0)
        *orcu_result = orcu_sum::combine(orcu_before, total);
}

// Second stage of the 'max' reduction of top: one block folds the blocks' partial
// results, then combines them with the value top had before the loop.
__global__ void orcu_f_1_finish_top(const float *__restrict__ orcu_partial, int orcu_partials,
    float orcu_before, float *__restrict__ orcu_result)
{
    float top = -INFINITY;
    for (int orcu_k = threadIdx.x; orcu_k < orcu_partials; orcu_k += blockDim.x)
        top = orcu_max::combine(top, orcu_partial[orcu_k]);
    top = orcu_block_reduce<float, orcu_max>(top);
    if (threadIdx.x == 0)
        *orcu_result = orcu_max::combine(orcu_before, top);
}

// Runs the loop at t.c:5 on the GPU (threadCount=96, blockCount=3, streamCount=2);
// returns when its results are in host memory.
void orcu_f_1(int n, float *total, const float *x, float *top)
{
    const int orcu_lo = 0, orcu_hi = n;
    if (orcu_hi <= orcu_lo)
        return;  // no iteration: nothing to compute or move
    const long long orcu_trip = (long long)orcu_hi - orcu_lo;
    const int orcu_threads = 96;
    const int orcu_blocks = 3;

    // Device copies of the arrays, indexed as on the host so the loop body runs unchanged.
    float *d_x;
    ORCU_CHECK(cudaMalloc((void **)&d_x, sizeof(float) * orcu_count(0, n)));

    // Per reduction: one partial result per block and chunk, then the final value.
    const int orcu_partials = orcu_blocks * 2;
    float *d_total_partial;
    ORCU_CHECK(cudaMalloc((void **)&d_total_partial, sizeof(float) * (orcu_partials + 1)));
    float *d_top_partial;
    ORCU_CHECK(cudaMalloc((void **)&d_top_partial, sizeof(float) * (orcu_partials + 1)));

    // Pinned host memory, so that copies run asynchronously.
    const bool orcu_pinned_x = orcu_pin(x, sizeof(float) * orcu_count(0, n));

    // streamCount=2: chunk s runs iterations [trip*s/2, trip*(s+1)/2) in its own stream, so its
    // copies overlap the other chunks' kernels.
    cudaStream_t orcu_stream[2];
    for (int orcu_s = 0; orcu_s < 2; orcu_s++)
        ORCU_CHECK(cudaStreamCreateWithFlags(&orcu_stream[orcu_s], cudaStreamNonBlocking));
    int orcu_launched = 0;  // chunks with iterations: their blocks' partial results are packed
    for (int orcu_s = 0; orcu_s < 2; orcu_s++) {
        const int orcu_chunk_lo = orcu_lo + (int)(orcu_trip * orcu_s / 2);
        const int orcu_chunk_hi = orcu_lo + (int)(orcu_trip * (orcu_s + 1) / 2 - 1) + 1;
        if (orcu_chunk_hi <= orcu_chunk_lo)
            continue;  // more streams than iterations
        ORCU_CHECK(cudaMemcpyAsync(d_x + orcu_chunk_lo, x + orcu_chunk_lo, sizeof(float) * (size_t)(orcu_chunk_hi - orcu_chunk_lo), cudaMemcpyHostToDevice, orcu_stream[orcu_s]));
        ORCU_LAUNCH(orcu_f_1_kernel, orcu_blocks, orcu_threads, 0, orcu_stream[orcu_s], orcu_chunk_lo, orcu_chunk_hi, d_x, d_total_partial + orcu_launched * orcu_blocks, d_top_partial + orcu_launched * orcu_blocks);
        ORCU_CHECK(cudaGetLastError());
        orcu_launched++;
    }
    for (int orcu_s = 0; orcu_s < 2; orcu_s++) {
        ORCU_CHECK(cudaStreamSynchronize(orcu_stream[orcu_s]));
        ORCU_CHECK(cudaStreamDestroy(orcu_stream[orcu_s]));
    }
    ORCU_LAUNCH(orcu_f_1_finish_total, 1, 256, 0, 0, d_total_partial, orcu_launched * orcu_blocks, *total, d_total_partial + orcu_partials);
    ORCU_CHECK(cudaGetLastError());
    ORCU_CHECK(cudaMemcpy(total, d_total_partial + orcu_partials, sizeof(float), cudaMemcpyDeviceToHost));
    ORCU_LAUNCH(orcu_f_1_finish_top, 1, 256, 0, 0, d_top_partial, orcu_launched * orcu_blocks, *top, d_top_partial + orcu_partials);
    ORCU_CHECK(cudaGetLastError());
    ORCU_CHECK(cudaMemcpy(top, d_top_partial + orcu_partials, sizeof(float), cudaMemcpyDeviceToHost));

    if (orcu_pinned_x)
        ORCU_CHECK(cudaHostUnregister((void *)(x)));
    ORCU_CHECK(cudaFree(d_x));
    ORCU_CHECK(cudaFree(d_total_partial));
    ORCU_CHECK(cudaFree(d_top_partial));
}
