// Kernel of the loop at t.c:4 in f():
//     for (i = 0; i < n; i++)
//         y[i] = a * x[i] + y[i];
// Each thread runs iterations of 'i' a whole grid apart, so any grid covers any trip count.
// orcu_index is int, or long long in calls whose iterations or arrays reach past INT_MAX.
template <typename orcu_index>
__global__ void __launch_bounds__(256) orcu_f_1_kernel(
    long long orcu_lo,
    long long orcu_hi,
    float *__restrict__ y,
    const float *__restrict__ x,
    float a)
{
    orcu_index i;
    const orcu_index orcu_stride = (orcu_index)gridDim.x * blockDim.x;
    for (i = (orcu_index)orcu_lo + ((orcu_index)blockIdx.x * blockDim.x + threadIdx.x); i < (orcu_index)orcu_hi; i += orcu_stride) {
        y[i] = a * x[i] + y[i];
    }
}

#ifdef ORCU_ALLOW_ALIASING
// The loop at t.c:4 as written, on the host: what orcu_f_1 runs when the arrays it
// is given overlap.
static void orcu_f_1_on_host(int n, float *y, float a, const float *x)
{
    int i;
    for (i = 0; i < n; i++) {
        y[i] = a * x[i] + y[i];
    }
}
#endif

// What orcu_f_1 keeps from one call to the next: allocating costs more than copying
// small arrays. orcu_release_f_1() frees it.
static orcu_buffer orcu_f_1_buffers[2];

// Frees what orcu_f_1 keeps between calls (nothing is lost: the next call allocates again).
void orcu_release_f_1(void)
{
    orcu_release_buffers(orcu_f_1_buffers, 2);
}

// Runs the loop at t.c:4 on the GPU (threadCount=256);
// returns when its results are in host memory.
static void orcu_f_1(int n, float *y, float a, const float *x)
{
    const long long orcu_lo = 0LL, orcu_hi = (long long)n;
    if (orcu_hi <= orcu_lo)
        return;  // no iteration: nothing to compute or move
    // The elements each array's accesses reach: [first, end).
    const long long orcu_y_first = 0LL, orcu_y_end = (long long)n;
    const long long orcu_x_first = 0LL, orcu_x_end = (long long)n;
    // The iterations run at once, each on its own elements: no array may overlap one that is written.
    if (orcu_overlap(y + orcu_y_first, y + orcu_y_end, x + orcu_x_first, x + orcu_x_end)) {
#ifdef ORCU_ALLOW_ALIASING
        orcu_f_1_on_host(n, y, a, x);
        return;
#endif
        orcu_aliased("orcu_f_1");
    }
    const long long orcu_trip = orcu_hi - orcu_lo;
    const int orcu_threads = 256;
    const int orcu_blocks = orcu_blocks_for(orcu_trip, orcu_threads);
    // 32-bit indices unless the grid runs past the last iteration beyond INT_MAX, or an array
    // has more elements than that.
    const bool orcu_wide = orcu_hi + (long long)orcu_blocks * orcu_threads > INT_MAX || orcu_y_end > INT_MAX || orcu_x_end > INT_MAX;
    decltype(&orcu_f_1_kernel<int>) const orcu_kernel = orcu_wide ? orcu_f_1_kernel<long long> : orcu_f_1_kernel<int>;

    // Device copies of the arrays, indexed as on the host so the loop body runs unchanged.
    float *const d_y = (float *)orcu_device_buffer(&orcu_f_1_buffers[0], sizeof(float) * orcu_count(0, orcu_y_end));
    float *const d_x = (float *)orcu_device_buffer(&orcu_f_1_buffers[1], sizeof(float) * orcu_count(0, orcu_x_end));

    ORCU_CHECK(cudaMemcpy(d_y + orcu_y_first, y + orcu_y_first, sizeof(float) * orcu_count(orcu_y_first, orcu_y_end), cudaMemcpyHostToDevice));
    ORCU_CHECK(cudaMemcpy(d_x + orcu_x_first, x + orcu_x_first, sizeof(float) * orcu_count(orcu_x_first, orcu_x_end), cudaMemcpyHostToDevice));

    ORCU_LAUNCH(orcu_kernel, orcu_blocks, orcu_threads, 0, 0, orcu_lo, orcu_hi, d_y, d_x, a);
    ORCU_CHECK(cudaGetLastError());
    ORCU_CHECK(cudaMemcpy(y + orcu_y_first, d_y + orcu_y_first, sizeof(float) * orcu_count(orcu_y_first, orcu_y_end), cudaMemcpyDeviceToHost));
}
