// Kernel of the loop at t.c:4 in f():
//     for (i = 0; i < n; i++)
//         r = x[i] > r ? x[i] : r;
// Each thread runs iterations of 'i' a whole grid apart, so any grid covers any trip count.
// orcu_index is int, or long long in calls whose iterations or arrays reach past INT_MAX.
template <typename orcu_index>
__global__ void __launch_bounds__(48) orcu_f_1_kernel(
    long long orcu_lo,
    long long orcu_hi,
    const long *__restrict__ x,
    long *__restrict__ orcu_r_partial,
    long orcu_r_before,
    long *orcu_r_result,
    unsigned int *orcu_arrived,
    int orcu_first_block,
    int orcu_all_blocks)
{
    orcu_index i;
    long r = LONG_MIN;  // this thread's share of the 'max' reduction of r
    const orcu_index orcu_stride = (orcu_index)gridDim.x * blockDim.x;
    for (i = (orcu_index)orcu_lo + ((orcu_index)blockIdx.x * blockDim.x + threadIdx.x); i < (orcu_index)orcu_hi; i += orcu_stride) {
        r = (x[i] > r) ? (x[i]) : (r);
    }
    r = orcu_block_reduce<long, orcu_max, 48>(r);
    if (orcu_thread_rank() == 0)
        orcu_r_partial[orcu_first_block + orcu_block_rank()] = r;
    // The block that finishes last folds every block's partial result into the final value.
    if (orcu_arrived_last(orcu_arrived, orcu_all_blocks)) {
        r = orcu_fold<long, orcu_max, 48>(orcu_r_partial, orcu_all_blocks, LONG_MIN);
        if (orcu_thread_rank() == 0)
            *orcu_r_result = orcu_max::combine(orcu_r_before, r);
    }
}

// What orcu_f_1 keeps from one call to the next: allocating costs more than copying
// small arrays. orcu_release_f_1() frees it.
static orcu_buffer orcu_f_1_buffers[4];

// Frees what orcu_f_1 keeps between calls (nothing is lost: the next call allocates again).
void orcu_release_f_1(void)
{
    orcu_release_buffers(orcu_f_1_buffers, 4);
}

// Runs the loop at t.c:4 on the GPU (threadCount=48, blockCount=3);
// returns when its results are in host memory.
static void orcu_f_1(int n, long *r, const long *x)
{
    const long long orcu_lo = 0LL, orcu_hi = (long long)n;
    if (orcu_hi <= orcu_lo)
        return;  // no iteration: nothing to compute or move
    // The elements each array's accesses reach: [first, end).
    const long long orcu_x_first = 0LL, orcu_x_end = (long long)n;
    const int orcu_threads = 48;
    const int orcu_blocks = 3;
    // 32-bit indices unless the grid runs past the last iteration beyond INT_MAX, or an array
    // has more elements than that.
    const bool orcu_wide = orcu_hi + (long long)orcu_blocks * orcu_threads > INT_MAX || orcu_x_end > INT_MAX;
    decltype(&orcu_f_1_kernel<int>) const orcu_kernel = orcu_wide ? orcu_f_1_kernel<long long> : orcu_f_1_kernel<int>;

    // Device copies of the arrays, indexed as on the host so the loop body runs unchanged.
    long *const d_x = (long *)orcu_device_buffer(&orcu_f_1_buffers[0], sizeof(long) * orcu_count(0, orcu_x_end));

    // Per reduction: one partial result per block, and the final value,
    // which the last block writes straight into pinned host memory.
    const int orcu_all_blocks = orcu_blocks;
    unsigned int *const orcu_arrived = orcu_block_counter(&orcu_f_1_buffers[3]);
    long *const orcu_r_partial = (long *)orcu_device_buffer(&orcu_f_1_buffers[1], sizeof(long) * orcu_all_blocks);
    orcu_pinned_buffer(&orcu_f_1_buffers[2], sizeof(long));

    ORCU_CHECK(cudaMemcpy(d_x + orcu_x_first, x + orcu_x_first, sizeof(long) * orcu_count(orcu_x_first, orcu_x_end), cudaMemcpyHostToDevice));

    ORCU_LAUNCH(orcu_kernel, orcu_blocks, orcu_threads, 0, 0, orcu_lo, orcu_hi, d_x, orcu_r_partial, *r, (long *)orcu_buffer_device(&orcu_f_1_buffers[2]), orcu_arrived, 0, orcu_all_blocks);
    ORCU_CHECK(cudaGetLastError());
    ORCU_CHECK(cudaStreamSynchronize(0));  // the results are in pinned host memory once the kernel is done
    *r = *(long *)orcu_buffer_host(&orcu_f_1_buffers[2]);
}
