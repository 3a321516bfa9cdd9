// Kernel of the loop at t.c:4 in f():
//     for (i = 1; i < n - 1; i += 2)
//         b[i] = 0.5 * (a[i-1] + a[i+1]);
// Each thread runs iterations of 'i' a whole grid apart, so any grid covers any trip count.
// orcu_index is int, or long long in calls whose iterations or arrays reach past INT_MAX.
template <typename orcu_index>
__global__ void __launch_bounds__(64) orcu_f_1_kernel(
    long long orcu_lo,
    long long orcu_hi,
    double *__restrict__ b,
    const double *__restrict__ a)
{
    orcu_index i;
    const orcu_index orcu_stride = (orcu_index)gridDim.x * blockDim.x * 2;
    for (i = (orcu_index)orcu_lo + ((orcu_index)blockIdx.x * blockDim.x + threadIdx.x) * 2; i < (orcu_index)orcu_hi; i += orcu_stride) {
        b[i] = 0.5 * (a[i - 1] + a[i + 1]);
    }
}

#ifdef ORCU_ALLOW_ALIASING
// The loop at t.c:4 as written, on the host: what orcu_f_1 runs when the arrays it
// is given overlap.
static void orcu_f_1_on_host(int n, double *b, const double *a)
{
    int i;
    for (i = 1; i < n - 1; i += 2) {
        b[i] = 0.5 * (a[i - 1] + a[i + 1]);
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

// Runs the loop at t.c:4 on the GPU (threadCount=64, blockCount=2);
// returns when its results are in host memory.
static void orcu_f_1(int n, double *b, const double *a)
{
    const long long orcu_lo = 1LL, orcu_hi = (long long)n - 1;
    if (orcu_hi <= orcu_lo)
        return;  // no iteration: nothing to compute or move
    // The elements each array's accesses reach: [first, end).
    const long long orcu_b_first = 1LL, orcu_b_end = (long long)n - 1;
    const long long orcu_a_first = 0LL, orcu_a_end = (long long)n;
    // The iterations run at once, each on its own elements: no array may overlap one that is written.
    if (orcu_overlap(b + orcu_b_first, b + orcu_b_end, a + orcu_a_first, a + orcu_a_end)) {
#ifdef ORCU_ALLOW_ALIASING
        orcu_f_1_on_host(n, b, a);
        return;
#endif
        orcu_aliased("orcu_f_1");
    }
    const int orcu_threads = 64;
    const int orcu_blocks = 2;
    // 32-bit indices unless the grid runs past the last iteration beyond INT_MAX, or an array
    // has more elements than that.
    const bool orcu_wide = orcu_hi + (long long)orcu_blocks * orcu_threads * 2 > INT_MAX || orcu_b_end > INT_MAX || orcu_a_end > INT_MAX;
    decltype(&orcu_f_1_kernel<int>) const orcu_kernel = orcu_wide ? orcu_f_1_kernel<long long> : orcu_f_1_kernel<int>;

    // Device copies of the arrays, indexed as on the host so the loop body runs unchanged.
    double *const d_b = (double *)orcu_device_buffer(&orcu_f_1_buffers[0], sizeof(double) * orcu_count(0, orcu_b_end));
    double *const d_a = (double *)orcu_device_buffer(&orcu_f_1_buffers[1], sizeof(double) * orcu_count(0, orcu_a_end));

    ORCU_CHECK(cudaMemcpy(d_b + orcu_b_first, b + orcu_b_first, sizeof(double) * orcu_count(orcu_b_first, orcu_b_end), cudaMemcpyHostToDevice));
    ORCU_CHECK(cudaMemcpy(d_a + orcu_a_first, a + orcu_a_first, sizeof(double) * orcu_count(orcu_a_first, orcu_a_end), cudaMemcpyHostToDevice));

    ORCU_LAUNCH(orcu_kernel, orcu_blocks, orcu_threads, 0, 0, orcu_lo, orcu_hi, d_b, d_a);
    ORCU_CHECK(cudaGetLastError());
    ORCU_CHECK(cudaMemcpy(b + orcu_b_first, d_b + orcu_b_first, sizeof(double) * orcu_count(orcu_b_first, orcu_b_end), cudaMemcpyDeviceToHost));
}
