// Kernel of the loop at t.c:4 in f():
//     for (i = 0; i <= n-1; i++)
//         for (k = 0; k <= nv-1; k++)
//             y[i] += a[k] * X[i + k*n];
// Each thread runs iterations of 'i' a whole grid apart, so any grid covers any trip count.
// orcu_index is int, or long long in calls whose iterations or arrays reach past INT_MAX.
template <typename orcu_index>
__global__ void __launch_bounds__(128) orcu_f_1_kernel(
    long long orcu_lo,
    long long orcu_hi,
    double *__restrict__ y,
    const double *__restrict__ a,
    const double *__restrict__ X,
    int n,
    int nv)
{
    orcu_index i, k;
    const orcu_index orcu_stride = (orcu_index)gridDim.x * blockDim.x;
    for (i = (orcu_index)orcu_lo + ((orcu_index)blockIdx.x * blockDim.x + threadIdx.x); i < (orcu_index)orcu_hi; i += orcu_stride) {
        double y_k_acc = y[i];  // y[i] stays in a register over the loop on k
        #pragma unroll 4
        for (k = 0; k < nv; k++) {
            y_k_acc += a[k] * X[i + k * n];
        }
        y[i] = y_k_acc;
    }
}

#ifdef ORCU_ALLOW_ALIASING
// The loop at t.c:4 as written, on the host: what orcu_f_1 runs when the arrays it
// is given overlap.
static void orcu_f_1_on_host(int n, int nv, double *y, const double *a, const double *X)
{
    int i;
    int k;
    for (i = 0; i < n; i++) {
        for (k = 0; k < nv; k++) {
            y[i] += a[k] * X[i + k * n];
        }
    }
}
#endif

// What orcu_f_1 keeps from one call to the next: allocating costs more than copying
// small arrays. orcu_release_f_1() frees it.
static orcu_buffer orcu_f_1_buffers[3];

// Frees what orcu_f_1 keeps between calls (nothing is lost: the next call allocates again).
void orcu_release_f_1(void)
{
    orcu_release_buffers(orcu_f_1_buffers, 3);
}

// Runs the loop at t.c:4 on the GPU (threadCount=128, blockCount=8, unrollInner=4);
// returns when its results are in host memory.
static void orcu_f_1(int n, int nv, double *y, const double *a, const double *X)
{
    const long long orcu_lo = 0LL, orcu_hi = (long long)n;
    if (orcu_hi <= orcu_lo)
        return;  // no iteration: nothing to compute or move
    // The elements each array's accesses reach: [first, end).
    const long long orcu_y_first = 0LL, orcu_y_end = (long long)n;
    const long long orcu_a_first = 0LL, orcu_a_end = (long long)nv;
    const long long orcu_X_first = 0LL, orcu_X_end = (long long)n * nv;
    // The iterations run at once, each on its own elements: no array may overlap one that is written.
    if (orcu_overlap(y + orcu_y_first, y + orcu_y_end, a + orcu_a_first, a + orcu_a_end)
        || orcu_overlap(y + orcu_y_first, y + orcu_y_end, X + orcu_X_first, X + orcu_X_end)) {
#ifdef ORCU_ALLOW_ALIASING
        orcu_f_1_on_host(n, nv, y, a, X);
        return;
#endif
        orcu_aliased("orcu_f_1");
    }
    const int orcu_threads = 128;
    const int orcu_blocks = 8;
    // 32-bit indices unless the grid runs past the last iteration beyond INT_MAX, or an array
    // has more elements than that.
    const bool orcu_wide = orcu_hi + (long long)orcu_blocks * orcu_threads > INT_MAX || orcu_y_end > INT_MAX || orcu_a_end > INT_MAX || orcu_X_end > INT_MAX;
    decltype(&orcu_f_1_kernel<int>) const orcu_kernel = orcu_wide ? orcu_f_1_kernel<long long> : orcu_f_1_kernel<int>;

    // Device copies of the arrays, indexed as on the host so the loop body runs unchanged.
    double *const d_y = (double *)orcu_device_buffer(&orcu_f_1_buffers[0], sizeof(double) * orcu_count(0, orcu_y_end));
    double *const d_a = (double *)orcu_device_buffer(&orcu_f_1_buffers[1], sizeof(double) * orcu_count(0, orcu_a_end));
    double *const d_X = (double *)orcu_device_buffer(&orcu_f_1_buffers[2], sizeof(double) * orcu_count(0, orcu_X_end));

    ORCU_CHECK(cudaMemcpy(d_y + orcu_y_first, y + orcu_y_first, sizeof(double) * orcu_count(orcu_y_first, orcu_y_end), cudaMemcpyHostToDevice));
    ORCU_CHECK(cudaMemcpy(d_a + orcu_a_first, a + orcu_a_first, sizeof(double) * orcu_count(orcu_a_first, orcu_a_end), cudaMemcpyHostToDevice));
    ORCU_CHECK(cudaMemcpy(d_X + orcu_X_first, X + orcu_X_first, sizeof(double) * orcu_count(orcu_X_first, orcu_X_end), cudaMemcpyHostToDevice));

    ORCU_LAUNCH(orcu_kernel, orcu_blocks, orcu_threads, 0, 0, orcu_lo, orcu_hi, d_y, d_a, d_X, n, nv);
    ORCU_CHECK(cudaGetLastError());
    ORCU_CHECK(cudaMemcpy(y + orcu_y_first, d_y + orcu_y_first, sizeof(double) * orcu_count(orcu_y_first, orcu_y_end), cudaMemcpyDeviceToHost));
}
