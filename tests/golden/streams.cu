// Kernel of the loop at t.c:4 in f():
//     for (i = 0; i < n; i++)
//         y[i] += c[0] * x[i];
// Each thread runs iterations of 'i' a whole grid apart, so any grid covers any trip count.
// orcu_index is int, or long long in calls whose iterations or arrays reach past INT_MAX.
template <typename orcu_index>
__global__ void __launch_bounds__(128) orcu_f_1_kernel(
    long long orcu_lo,
    long long orcu_hi,
    double *__restrict__ y,
    const double *__restrict__ c,
    const double *__restrict__ x)
{
    orcu_index i;
    const orcu_index orcu_stride = (orcu_index)gridDim.x * blockDim.x;
    for (i = (orcu_index)orcu_lo + ((orcu_index)blockIdx.x * blockDim.x + threadIdx.x); i < (orcu_index)orcu_hi; i += orcu_stride) {
        y[i] += c[0] * x[i];
    }
}

#ifdef ORCU_ALLOW_ALIASING
// The loop at t.c:4 as written, on the host: what orcu_f_1 runs when the arrays it
// is given overlap.
static void orcu_f_1_on_host(int n, double *y, const double *c, const double *x)
{
    int i;
    for (i = 0; i < n; i++) {
        y[i] += c[0] * x[i];
    }
}
#endif

// What orcu_f_1 keeps from one call to the next: allocating costs more than copying
// small arrays. orcu_release_f_1() frees it.
static orcu_buffer orcu_f_1_buffers[5];
static cudaStream_t orcu_f_1_streams[4];
static cudaEvent_t orcu_f_1_ready;

// Frees what orcu_f_1 keeps between calls (nothing is lost: the next call allocates again).
void orcu_release_f_1(void)
{
    orcu_release_buffers(orcu_f_1_buffers, 5);
    if (orcu_f_1_streams[0] != NULL) {
        for (int orcu_s = 0; orcu_s < 4; orcu_s++) {
            ORCU_CHECK(cudaStreamDestroy(orcu_f_1_streams[orcu_s]));
            orcu_f_1_streams[orcu_s] = NULL;
        }
        ORCU_CHECK(cudaEventDestroy(orcu_f_1_ready));
    }
}

// Runs the loop at t.c:4 on the GPU (threadCount=128, blockCount=4, streamCount=4);
// returns when its results are in host memory.
static void orcu_f_1(int n, double *y, const double *c, const double *x)
{
    const long long orcu_lo = 0LL, orcu_hi = (long long)n;
    if (orcu_hi <= orcu_lo)
        return;  // no iteration: nothing to compute or move
    // The elements each array's accesses reach: [first, end) (an array copied in chunks, per stream, may need only its end).
    [[maybe_unused]] const long long orcu_y_first = 0LL, orcu_y_end = (long long)n;
    const long long orcu_c_first = 0LL, orcu_c_end = 1LL;
    [[maybe_unused]] const long long orcu_x_first = 0LL, orcu_x_end = (long long)n;
    // The iterations run at once, each on its own elements: no array may overlap one that is written.
    if (orcu_overlap(y + orcu_y_first, y + orcu_y_end, c + orcu_c_first, c + orcu_c_end)
        || orcu_overlap(y + orcu_y_first, y + orcu_y_end, x + orcu_x_first, x + orcu_x_end)) {
#ifdef ORCU_ALLOW_ALIASING
        orcu_f_1_on_host(n, y, c, x);
        return;
#endif
        orcu_aliased("orcu_f_1");
    }
    const long long orcu_trip = orcu_hi - orcu_lo;
    const int orcu_threads = 128;
    const int orcu_blocks = 4;
    // 32-bit indices unless the grid runs past the last iteration beyond INT_MAX, or an array
    // has more elements than that.
    const bool orcu_wide = orcu_hi + (long long)orcu_blocks * orcu_threads > INT_MAX || orcu_y_end > INT_MAX || orcu_c_end > INT_MAX || orcu_x_end > INT_MAX;
    decltype(&orcu_f_1_kernel<int>) const orcu_kernel = orcu_wide ? orcu_f_1_kernel<long long> : orcu_f_1_kernel<int>;

    // Device copies of the arrays, indexed as on the host so the loop body runs unchanged.
    double *const d_y = (double *)orcu_device_buffer(&orcu_f_1_buffers[0], sizeof(double) * orcu_count(0, orcu_y_end));
    double *const d_c = (double *)orcu_device_buffer(&orcu_f_1_buffers[2], sizeof(double) * orcu_count(0, orcu_c_end));
    double *const d_x = (double *)orcu_device_buffer(&orcu_f_1_buffers[3], sizeof(double) * orcu_count(0, orcu_x_end));

    ORCU_CHECK(cudaMemcpy(d_c + orcu_c_first, c + orcu_c_first, sizeof(double) * orcu_count(orcu_c_first, orcu_c_end), cudaMemcpyHostToDevice));

    // streamCount=4: chunk s runs iterations [trip*s/4, trip*(s+1)/4) in its own stream, so its
    // copies overlap the other chunks' kernels. Those copies go through pinned staging buffers:
    // pinning the caller's arrays on every call would cost more than it saves.
    cudaStream_t *const orcu_stream = orcu_f_1_streams;
    if (orcu_stream[0] == NULL) {
        for (int orcu_s = 0; orcu_s < 4; orcu_s++)
            ORCU_CHECK(cudaStreamCreateWithFlags(&orcu_stream[orcu_s], cudaStreamNonBlocking));
        ORCU_CHECK(cudaEventCreateWithFlags(&orcu_f_1_ready, cudaEventDisableTiming));
    }
    double *const orcu_y_staged = (double *)orcu_pinned_buffer(&orcu_f_1_buffers[1], sizeof(double) * orcu_count(0, orcu_y_end));
    double *const orcu_x_staged = (double *)orcu_pinned_buffer(&orcu_f_1_buffers[4], sizeof(double) * orcu_count(0, orcu_x_end));
    // The streams do not wait for the default stream by themselves, and cudaMemcpy from
    // pageable memory returns before its data has arrived: order the chunks after it.
    ORCU_CHECK(cudaEventRecord(orcu_f_1_ready, 0));
    for (int orcu_s = 0; orcu_s < 4; orcu_s++) {
        long long orcu_chunk_lo, orcu_chunk_hi;
        if (!orcu_chunk(orcu_lo, orcu_trip, 1, orcu_s, 4, &orcu_chunk_lo, &orcu_chunk_hi))
            continue;  // more streams than iterations
        ORCU_CHECK(cudaStreamWaitEvent(orcu_stream[orcu_s], orcu_f_1_ready, 0));
        memcpy(orcu_y_staged + orcu_chunk_lo, y + orcu_chunk_lo, sizeof(double) * orcu_count(orcu_chunk_lo, orcu_chunk_hi));
        ORCU_CHECK(cudaMemcpyAsync(d_y + orcu_chunk_lo, orcu_y_staged + orcu_chunk_lo, sizeof(double) * orcu_count(orcu_chunk_lo, orcu_chunk_hi), cudaMemcpyHostToDevice, orcu_stream[orcu_s]));
        memcpy(orcu_x_staged + orcu_chunk_lo, x + orcu_chunk_lo, sizeof(double) * orcu_count(orcu_chunk_lo, orcu_chunk_hi));
        ORCU_CHECK(cudaMemcpyAsync(d_x + orcu_chunk_lo, orcu_x_staged + orcu_chunk_lo, sizeof(double) * orcu_count(orcu_chunk_lo, orcu_chunk_hi), cudaMemcpyHostToDevice, orcu_stream[orcu_s]));
        ORCU_LAUNCH(orcu_kernel, orcu_blocks, orcu_threads, 0, orcu_stream[orcu_s], orcu_chunk_lo, orcu_chunk_hi, d_y, d_c, d_x);
        ORCU_CHECK(cudaGetLastError());
        ORCU_CHECK(cudaMemcpyAsync(orcu_y_staged + orcu_chunk_lo, d_y + orcu_chunk_lo, sizeof(double) * orcu_count(orcu_chunk_lo, orcu_chunk_hi), cudaMemcpyDeviceToHost, orcu_stream[orcu_s]));
    }
    for (int orcu_s = 0; orcu_s < 4; orcu_s++) {
        ORCU_CHECK(cudaStreamSynchronize(orcu_stream[orcu_s]));
        long long orcu_chunk_lo, orcu_chunk_hi;
        if (orcu_chunk(orcu_lo, orcu_trip, 1, orcu_s, 4, &orcu_chunk_lo, &orcu_chunk_hi)) {
            memcpy(y + orcu_chunk_lo, orcu_y_staged + orcu_chunk_lo, sizeof(double) * orcu_count(orcu_chunk_lo, orcu_chunk_hi));
        }
    }
}
