// Kernel of the loop at t.c:5 in f():
//     for (i = 0; i < n; i++) {
//         total += x[i];
//         top = fmaxf(top, x[i]);
//     }
// Each thread runs iterations of 'i' a whole grid apart, so any grid covers any trip count.
// orcu_index is int, or long long in calls whose iterations or arrays reach past INT_MAX.
template <typename orcu_index>
__global__ void __launch_bounds__(96) orcu_f_1_kernel(
    long long orcu_lo,
    long long orcu_hi,
    const float *__restrict__ x,
    float *__restrict__ orcu_total_partial,
    float orcu_total_before,
    float *orcu_total_result,
    float *__restrict__ orcu_top_partial,
    float orcu_top_before,
    float *orcu_top_result,
    unsigned int *orcu_arrived,
    int orcu_first_block,
    int orcu_all_blocks)
{
    orcu_index i;
    float total = 0.0f;  // this thread's share of the '+' reduction of total
    float top = NAN;  // this thread's share of the 'max' reduction of top
    const orcu_index orcu_stride = (orcu_index)gridDim.x * blockDim.x;
    for (i = (orcu_index)orcu_lo + ((orcu_index)blockIdx.x * blockDim.x + threadIdx.x); i < (orcu_index)orcu_hi; i += orcu_stride) {
        total += x[i];
        top = fmaxf(top, x[i]);
    }
    total = orcu_block_reduce<float, orcu_sum, 96>(total);
    if (orcu_thread_rank() == 0)
        orcu_total_partial[orcu_first_block + orcu_block_rank()] = total;
    top = orcu_block_reduce<float, orcu_fmax, 96>(top);
    if (orcu_thread_rank() == 0)
        orcu_top_partial[orcu_first_block + orcu_block_rank()] = top;
    // The block that finishes last folds every block's partial result into the final values.
    if (orcu_arrived_last(orcu_arrived, orcu_all_blocks)) {
        total = orcu_fold<float, orcu_sum, 96>(orcu_total_partial, orcu_all_blocks, 0.0f);
        if (orcu_thread_rank() == 0)
            *orcu_total_result = orcu_sum::combine(orcu_total_before, total);
        top = orcu_fold<float, orcu_fmax, 96>(orcu_top_partial, orcu_all_blocks, NAN);
        if (orcu_thread_rank() == 0)
            *orcu_top_result = orcu_fmax::combine(orcu_top_before, top);
    }
}

// What orcu_f_1 keeps from one call to the next: allocating costs more than copying
// small arrays. orcu_release_f_1() frees it.
static orcu_buffer orcu_f_1_buffers[7];
static cudaStream_t orcu_f_1_streams[2];
static cudaEvent_t orcu_f_1_ready;

// Frees what orcu_f_1 keeps between calls (nothing is lost: the next call allocates again).
void orcu_release_f_1(void)
{
    orcu_release_buffers(orcu_f_1_buffers, 7);
    if (orcu_f_1_streams[0] != NULL) {
        for (int orcu_s = 0; orcu_s < 2; orcu_s++) {
            ORCU_CHECK(cudaStreamDestroy(orcu_f_1_streams[orcu_s]));
            orcu_f_1_streams[orcu_s] = NULL;
        }
        ORCU_CHECK(cudaEventDestroy(orcu_f_1_ready));
    }
}

// Runs the loop at t.c:5 on the GPU (threadCount=96, blockCount=3, streamCount=2);
// returns when its results are in host memory.
static void orcu_f_1(int n, float *total, const float *x, float *top)
{
    const long long orcu_lo = 0LL, orcu_hi = (long long)n;
    if (orcu_hi <= orcu_lo)
        return;  // no iteration: nothing to compute or move
    // The elements each array's accesses reach: [first, end) (an array copied in chunks, per stream, may need only its end).
    [[maybe_unused]] const long long orcu_x_first = 0LL, orcu_x_end = (long long)n;
    const long long orcu_trip = orcu_hi - orcu_lo;
    const int orcu_threads = 96;
    const int orcu_blocks = 3;
    // 32-bit indices unless the grid runs past the last iteration beyond INT_MAX, or an array
    // has more elements than that.
    const bool orcu_wide = orcu_hi + (long long)orcu_blocks * orcu_threads > INT_MAX || orcu_x_end > INT_MAX;
    decltype(&orcu_f_1_kernel<int>) const orcu_kernel = orcu_wide ? orcu_f_1_kernel<long long> : orcu_f_1_kernel<int>;

    // Device copies of the arrays, indexed as on the host so the loop body runs unchanged.
    float *const d_x = (float *)orcu_device_buffer(&orcu_f_1_buffers[0], sizeof(float) * orcu_count(0, orcu_x_end));

    // Per reduction: one partial result per block and chunk, and the final value,
    // which the last block writes straight into pinned host memory.
    const int orcu_all_blocks = orcu_blocks * (int)(orcu_trip < 2 ? orcu_trip : 2);
    unsigned int *const orcu_arrived = orcu_block_counter(&orcu_f_1_buffers[6]);
    float *const orcu_total_partial = (float *)orcu_device_buffer(&orcu_f_1_buffers[2], sizeof(float) * orcu_all_blocks);
    orcu_pinned_buffer(&orcu_f_1_buffers[3], sizeof(float));
    float *const orcu_top_partial = (float *)orcu_device_buffer(&orcu_f_1_buffers[4], sizeof(float) * orcu_all_blocks);
    orcu_pinned_buffer(&orcu_f_1_buffers[5], sizeof(float));

    // streamCount=2: chunk s runs iterations [trip*s/2, trip*(s+1)/2) in its own stream, so its
    // copies overlap the other chunks' kernels. Those copies go through pinned staging buffers:
    // pinning the caller's arrays on every call would cost more than it saves.
    cudaStream_t *const orcu_stream = orcu_f_1_streams;
    if (orcu_stream[0] == NULL) {
        for (int orcu_s = 0; orcu_s < 2; orcu_s++)
            ORCU_CHECK(cudaStreamCreateWithFlags(&orcu_stream[orcu_s], cudaStreamNonBlocking));
        ORCU_CHECK(cudaEventCreateWithFlags(&orcu_f_1_ready, cudaEventDisableTiming));
    }
    float *const orcu_x_staged = (float *)orcu_pinned_buffer(&orcu_f_1_buffers[1], sizeof(float) * orcu_count(0, orcu_x_end));
    int orcu_launched = 0;  // chunks with iterations: their blocks' partial results are packed
    for (int orcu_s = 0; orcu_s < 2; orcu_s++) {
        long long orcu_chunk_lo, orcu_chunk_hi;
        if (!orcu_chunk(orcu_lo, orcu_trip, 1, orcu_s, 2, &orcu_chunk_lo, &orcu_chunk_hi))
            continue;  // more streams than iterations
        memcpy(orcu_x_staged + orcu_chunk_lo, x + orcu_chunk_lo, sizeof(float) * orcu_count(orcu_chunk_lo, orcu_chunk_hi));
        ORCU_CHECK(cudaMemcpyAsync(d_x + orcu_chunk_lo, orcu_x_staged + orcu_chunk_lo, sizeof(float) * orcu_count(orcu_chunk_lo, orcu_chunk_hi), cudaMemcpyHostToDevice, orcu_stream[orcu_s]));
        ORCU_LAUNCH(orcu_kernel, orcu_blocks, orcu_threads, 0, orcu_stream[orcu_s], orcu_chunk_lo, orcu_chunk_hi, d_x, orcu_total_partial, *total, (float *)orcu_buffer_device(&orcu_f_1_buffers[3]), orcu_top_partial, *top, (float *)orcu_buffer_device(&orcu_f_1_buffers[5]), orcu_arrived, orcu_launched * orcu_blocks, orcu_all_blocks);
        ORCU_CHECK(cudaGetLastError());
        orcu_launched++;
    }
    for (int orcu_s = 0; orcu_s < 2; orcu_s++) {
        ORCU_CHECK(cudaStreamSynchronize(orcu_stream[orcu_s]));
    }
    *total = *(float *)orcu_buffer_host(&orcu_f_1_buffers[3]);
    *top = *(float *)orcu_buffer_host(&orcu_f_1_buffers[5]);
}
