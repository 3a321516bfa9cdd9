// Kernel of the loop at t.c:4 in f():
//     for (i = 1; i < n; i++)
//         y[i] = a * x[i] + y[i];
// Each thread runs iterations of 'i' a whole grid apart, so any grid covers any trip count.
// orcu_index is int, or long long in calls whose iterations or arrays reach past INT_MAX.
template <typename orcu_index>
__global__ void __launch_bounds__(64) orcu_f_1_kernel(
    long long orcu_lo,
    long long orcu_hi,
    long long orcu_vlo,
    long long orcu_vhi,
    float *__restrict__ y,
    const float *__restrict__ x,
    float a)
{
    orcu_index i;
    const orcu_index orcu_thread = (orcu_index)blockIdx.x * blockDim.x + threadIdx.x, orcu_stride = (orcu_index)gridDim.x * blockDim.x;
    // vectorize: the iterations [orcu_vlo, orcu_vhi) go 4 at a time, each array moved as one
    // 16-byte vector; the few before and after them (unaligned), one at a time.
    const orcu_index orcu_before = (orcu_index)(orcu_vlo - orcu_lo), orcu_single = orcu_before + (orcu_index)(orcu_hi - orcu_vhi);
    for (orcu_index orcu_k = orcu_thread; orcu_k < orcu_single; orcu_k += orcu_stride) {
        i = orcu_k < orcu_before ? (orcu_index)orcu_lo + orcu_k : (orcu_index)orcu_vhi + (orcu_k - orcu_before);
        y[i] = a * x[i] + y[i];
    }
    for (i = (orcu_index)orcu_vlo + orcu_thread * 4; i < (orcu_index)orcu_vhi; i += orcu_stride * 4) {
        float4 orcu_y_v = *(const float4 *)(y + i);
        const float4 orcu_x_v = *(const float4 *)(x + i);
        {  // i
            orcu_y_v.x = a * orcu_x_v.x + orcu_y_v.x;
        }
        {  // i + 1
            orcu_y_v.y = a * orcu_x_v.y + orcu_y_v.y;
        }
        {  // i + 2
            orcu_y_v.z = a * orcu_x_v.z + orcu_y_v.z;
        }
        {  // i + 3
            orcu_y_v.w = a * orcu_x_v.w + orcu_y_v.w;
        }
        *(float4 *)(y + i) = orcu_y_v;
    }
}

#ifdef ORCU_ALLOW_ALIASING
// The loop at t.c:4 as written, on the host: what orcu_f_1 runs when the arrays it
// is given overlap.
static void orcu_f_1_on_host(int n, float *y, float a, const float *x)
{
    int i;
    for (i = 1; i < n; i++) {
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

// Runs the loop at t.c:4 on the GPU (threadCount=64, blockCount=3, vectorize=True);
// returns when its results are in host memory.
static void orcu_f_1(int n, float *y, float a, const float *x)
{
    const long long orcu_lo = 1LL, orcu_hi = (long long)n;
    if (orcu_hi <= orcu_lo)
        return;  // no iteration: nothing to compute or move
    // The elements each array's accesses reach: [first, end).
    const long long orcu_y_first = 1LL, orcu_y_end = (long long)n;
    const long long orcu_x_first = 1LL, orcu_x_end = (long long)n;
    // The iterations run at once, each on its own elements: no array may overlap one that is written.
    if (orcu_overlap(y + orcu_y_first, y + orcu_y_end, x + orcu_x_first, x + orcu_x_end)) {
#ifdef ORCU_ALLOW_ALIASING
        orcu_f_1_on_host(n, y, a, x);
        return;
#endif
        orcu_aliased("orcu_f_1");
    }
    const int orcu_threads = 64;
    const int orcu_blocks = 3;
    // 32-bit indices unless the grid runs past the last iteration beyond INT_MAX, or an array
    // has more elements than that.
    const bool orcu_wide = orcu_hi + (long long)orcu_blocks * orcu_threads > INT_MAX || orcu_y_end > INT_MAX || orcu_x_end > INT_MAX;
    decltype(&orcu_f_1_kernel<int>) const orcu_kernel = orcu_wide ? orcu_f_1_kernel<long long> : orcu_f_1_kernel<int>;

    // Device copies of the arrays, indexed as on the host so the loop body runs unchanged.
    float *const d_y = (float *)orcu_device_buffer(&orcu_f_1_buffers[0], sizeof(float) * orcu_count(0, orcu_y_end));
    float *const d_x = (float *)orcu_device_buffer(&orcu_f_1_buffers[1], sizeof(float) * orcu_count(0, orcu_x_end));

    // vectorize: vectors need arrays aligned to their size (device copies are; the caller's may not be).
    const bool orcu_aligned = orcu_aligned_to(d_y, 4 * sizeof(float)) && orcu_aligned_to(d_x, 4 * sizeof(float));

    ORCU_CHECK(cudaMemcpy(d_y + orcu_y_first, y + orcu_y_first, sizeof(float) * orcu_count(orcu_y_first, orcu_y_end), cudaMemcpyHostToDevice));
    ORCU_CHECK(cudaMemcpy(d_x + orcu_x_first, x + orcu_x_first, sizeof(float) * orcu_count(orcu_x_first, orcu_x_end), cudaMemcpyHostToDevice));

    long long orcu_vlo, orcu_vhi;
    orcu_vector_range(orcu_lo, orcu_hi, 4, orcu_aligned, &orcu_vlo, &orcu_vhi);
    ORCU_LAUNCH(orcu_kernel, orcu_blocks, orcu_threads, 0, 0, orcu_lo, orcu_hi, orcu_vlo, orcu_vhi, d_y, d_x, a);
    ORCU_CHECK(cudaGetLastError());
    ORCU_CHECK(cudaMemcpy(y + orcu_y_first, d_y + orcu_y_first, sizeof(float) * orcu_count(orcu_y_first, orcu_y_end), cudaMemcpyDeviceToHost));
}
