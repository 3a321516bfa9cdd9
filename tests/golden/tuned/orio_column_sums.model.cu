// >>> orcu generated code: begin
/* Written by orcu 0.1.0 from ex/orio/column_sums.c.
 * orcu_colsum_1 (line 10): TC=64, mapping_1='x=j y=i(split)', registers_j_1=4, shared_r_1=False, constant_r_1=True, sharedDepth_1=16, vectorize_1=True
 *     input m=150, n=300; time 0.006437 ms (GPU kernel time predicted by orcu's performance model, which ranked the variants)
 * Device: NVIDIA H100 80GB HBM3 (sm_90, predicted by orcu's performance model). Compiler: none (orcu's performance model).
 * Each Loop region runs on the GPU; compile with -DORCU_ORIGINAL for the original C loops.
 * The annotations are kept, so `orcu tune` can tune this file again.
 */
#ifndef ORCU_ORIGINAL
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <stdint.h>
#endif
// <<< orcu generated code: end
// >>> orcu generated code: begin
#ifndef ORCU_ORIGINAL
// Every CUDA call is checked: on failure, say which call and where, and stop.
#ifndef ORCU_CHECK
#define ORCU_CHECK(call) orcu_check((call), #call, __FILE__, __LINE__)
static void orcu_check(cudaError_t err, const char *call, const char *file, int line)
{
    if (err != cudaSuccess) {
        fprintf(stderr, "%s:%d: CUDA error: %s: %s\n", file, line, call, cudaGetErrorString(err));
        exit(EXIT_FAILURE);
    }
}
#endif

// Kernels are launched through one macro, so that orcu's CPU emulation can compile this file too.
#ifndef ORCU_LAUNCH
#define ORCU_LAUNCH(kernel, grid, block, shared_bytes, stream, ...) \
    kernel<<<(grid), (block), (shared_bytes), (stream)>>>(__VA_ARGS__)
#endif

// A shared-memory tile of the TSG (type, name, dimensions), with the most requests of a warp
// its reads put in one bank (1: none conflict). orcu's emulation checks that figure on every
// access; on the GPU it is a plain __shared__ array, aligned for 16-byte vectors.
#ifndef ORCU_SHARED_TILE
#define ORCU_SHARED_TILE(type, name, dims, ways) __shared__ __align__(16) type name dims
#endif
// The tile's storage, where its fill stores (the emulation checks the conflicts of its reads alone).
#ifndef ORCU_TILE_DATA
#define ORCU_TILE_DATA(name) (name)
#endif
// A vector of a tile's consecutive elements from `index` (`[k][j]`), aligned to its size: one
// shared-memory load (the emulation logs it as one access of the vector's size).
#ifndef ORCU_TILE_VECTOR
#define ORCU_TILE_VECTOR(vector, name, index) (*(const vector *)&(name)index)
#endif

// Elements in [first, end); 0 when empty.
static inline size_t orcu_count(long long first, long long end)
{
    return end > first ? (size_t)(end - first) : 0;
}

// Memory a host function keeps from one call to the next, grown when a call needs more:
// device memory, or pinned host memory the GPU can write too (results, staging). The
// host functions are therefore not reentrant: call each from one thread at a time.
struct orcu_buffer {
    void *host;    // pinned memory: its host address; device memory: NULL
    void *device;  // the address kernels use
    size_t bytes;
};

static inline void *orcu_device_buffer(orcu_buffer *b, size_t bytes)
{
    if (b->device == NULL || bytes > b->bytes) {
        if (b->device != NULL)
            ORCU_CHECK(cudaFree(b->device));
        b->device = NULL;
        b->bytes = 0;
        ORCU_CHECK(cudaMalloc(&b->device, bytes ? bytes : 1));
        b->bytes = bytes;
    }
    return b->device;
}


static inline void orcu_release_buffers(orcu_buffer *buffers, int count)
{
    for (int k = 0; k < count; k++) {
        orcu_buffer *b = &buffers[k];
        if (b->host != NULL)
            ORCU_CHECK(cudaFreeHost(b->host));
        else if (b->device != NULL)
            ORCU_CHECK(cudaFree(b->device));
        b->host = b->device = NULL;
        b->bytes = 0;
    }
}

// Whether two arrays' touched elements [a_first, a_end) and [b_first, b_end) share bytes.
static inline bool orcu_overlap(const void *a_first, const void *a_end, const void *b_first, const void *b_end)
{
    const uintptr_t a0 = (uintptr_t)a_first, a1 = (uintptr_t)a_end, b0 = (uintptr_t)b_first, b1 = (uintptr_t)b_end;
    return a0 < a1 && b0 < b1 && a0 < b1 && b0 < a1;
}

static inline void orcu_aliased(const char *function)
{
    fprintf(stderr, "%s: the arrays it was given overlap, and its GPU kernel reads them as if they did not "
                    "(the loop's result would depend on the order of its iterations); compile with "
                    "-DORCU_ALLOW_ALIASING to run the loop on the host in such calls\n", function);
    exit(EXIT_FAILURE);
}

// The current device's multiprocessors (asked once).
static inline int orcu_multiprocessors(void)
{
    static int multiprocessors = 0;
    if (multiprocessors == 0) {
        int device;
        ORCU_CHECK(cudaGetDevice(&device));
        ORCU_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
    }
    return multiprocessors;
}

// Blocks along one axis of a TSG launch: enough to cover `span` iterations at `per_block` a
// block, at most `most` (the grid-stride loops cover the rest); where the span is not known,
// enough to keep every multiprocessor busy.
static inline unsigned orcu_blocks_along(long long span, long long per_block, long long most)
{
    const long long blocks = span >= 0 ? (span + per_block - 1) / per_block : 8LL * orcu_multiprocessors();
    return (unsigned)(blocks < 1 ? 1 : blocks > most ? most : blocks);
}

// Blocks along y for a sum split over them: enough that the grid holds 2048 threads for every
// multiprocessor (as many as one of compute capability 7.0 to 9.0 runs at once; 8.6 and 8.9 run
// 1536: a wave and a third there), given `across` blocks along x; at most one per `per_block`
// iterations of the span, at least one.
static inline unsigned orcu_blocks_split(long long span, long long per_block, unsigned across, int threads)
{
    const long long fill = (2048LL / threads) * orcu_multiprocessors();
    const long long wanted = (fill + across - 1) / across;
    const long long most = span >= 0 ? (span + per_block - 1) / per_block : wanted;
    const long long blocks = wanted < most ? wanted : most;
    return (unsigned)(blocks < 1 ? 1 : blocks > 65535 ? 65535 : blocks);
}

// A thread's place in its block, and a block's in the grid, counted as warps count them.
__device__ inline unsigned orcu_thread_rank() { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }
__device__ inline unsigned orcu_block_rank() { return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z); }

// Reduction operators: combine two partial results.
struct orcu_sum { template <typename T> __device__ static T combine(T a, T b) { return a + b; } };


// Folds v over one column of the block: the threads along y that share threadIdx.x, through
// `buffer` (blockDim.x * blockDim.y elements of shared memory); the column's thread with
// threadIdx.y == 0 gets the result. Every thread of the block calls it (it waits twice).
template <typename T, typename Op>
__device__ T orcu_column_reduce(T v, T *buffer)
{
    buffer[threadIdx.y * blockDim.x + threadIdx.x] = v;
    __syncthreads();
    if (threadIdx.y == 0)
        for (unsigned k = 1; k < blockDim.y; k++)
            v = Op::combine(v, buffer[k * blockDim.x + threadIdx.x]);
    __syncthreads();  // the buffer is free for the next fold
    return v;
}

// Kernel of the loop at ex/orio/column_sums.c:11 in colsum():
//     for (i = 0; i <= m - 1; i++)
//         for (j = 0; j <= n - 1; j++)
//             s[j] += r[i] * A[i*n + j];
// The TSG's mapping 'x=j y=i(split)': 32 x 2 threads a block; the loops on the
// grid run a whole grid apart, so any grid covers any trip count.
// orcu_index is int, or long long in calls whose iterations or arrays reach past INT_MAX.
#ifndef ORCU_CONSTANT_DOUBLE_R
#define ORCU_CONSTANT_DOUBLE_R
// r (double) for the kernels whose threads all read it alike: in constant memory when it has at
// most 2048 elements (the kernel's r_in_constant), else read from global memory.
__constant__ double orcu_constant_double_r[2048];
#endif
template <typename orcu_index>
__global__ void __launch_bounds__(64) orcu_colsum_1_kernel(
    double *__restrict__ s,
    const double *__restrict__ r,
    const double *__restrict__ A,
    int m,
    int n,
    bool r_in_constant)
{
    orcu_index i;
    __shared__ double orcu_fold_double[64];  // the shares the threads along y fold
    // 'j' (the loop at ex/orio/column_sums.c:12): tiles of 128 iterations over blockIdx.x, a whole grid apart; each thread 4 of them, in groups of 2 consecutive ones (one vector), the groups 64 apart (threadIdx.x)
    for (orcu_index j0 = (orcu_index)blockIdx.x * 128; j0 < n; j0 += (orcu_index)gridDim.x * 128) {
        const orcu_index j_0 = j0 + (orcu_index)(threadIdx.x * 2);
        const orcu_index j_1 = j0 + (orcu_index)(threadIdx.x * 2 + 1);
        const orcu_index j_2 = j0 + (orcu_index)((threadIdx.x + 32) * 2);
        const orcu_index j_3 = j0 + (orcu_index)((threadIdx.x + 32) * 2 + 1);
        // 'i' (the loop at ex/orio/column_sums.c:11): over threadIdx.y and blockIdx.y, a whole grid apart, each thread a share of s[j]
        double s_sum_0 = 0.0;
        double s_sum_1 = 0.0;
        double s_sum_2 = 0.0;
        double s_sum_3 = 0.0;
        for (i = ((orcu_index)blockIdx.y * blockDim.y + threadIdx.y); i < m; i += (orcu_index)gridDim.y * blockDim.y) {
            double2 A_v1;
            if (j_1 < n && (size_t)&A[i * n + j_0] % 16 == 0) A_v1 = *(const double2 *)&A[i * n + j_0];
            else { A_v1.x = j_0 < n ? A[i * n + j_0] : (double)0; A_v1.y = j_1 < n ? A[i * n + j_1] : (double)0; }
            s_sum_0 += (r_in_constant ? orcu_constant_double_r[i] : r[i]) * A_v1.x;
            s_sum_1 += (r_in_constant ? orcu_constant_double_r[i] : r[i]) * A_v1.y;
            double2 A_v2;
            if (j_3 < n && (size_t)&A[i * n + j_2] % 16 == 0) A_v2 = *(const double2 *)&A[i * n + j_2];
            else { A_v2.x = j_2 < n ? A[i * n + j_2] : (double)0; A_v2.y = j_3 < n ? A[i * n + j_3] : (double)0; }
            s_sum_2 += (r_in_constant ? orcu_constant_double_r[i] : r[i]) * A_v2.x;
            s_sum_3 += (r_in_constant ? orcu_constant_double_r[i] : r[i]) * A_v2.y;
        }
        // the column's shares folded (in its thread y 0), the block's sum added to the blocks' along y
        s_sum_0 = orcu_column_reduce<double, orcu_sum>(s_sum_0, orcu_fold_double);
        s_sum_1 = orcu_column_reduce<double, orcu_sum>(s_sum_1, orcu_fold_double);
        s_sum_2 = orcu_column_reduce<double, orcu_sum>(s_sum_2, orcu_fold_double);
        s_sum_3 = orcu_column_reduce<double, orcu_sum>(s_sum_3, orcu_fold_double);
        if (threadIdx.y == 0) {
            if (j_0 < n) atomicAdd(&s[j_0], s_sum_0);
            if (j_1 < n) atomicAdd(&s[j_1], s_sum_1);
            if (j_2 < n) atomicAdd(&s[j_2], s_sum_2);
            if (j_3 < n) atomicAdd(&s[j_3], s_sum_3);
        }
    }
}

#ifdef ORCU_ALLOW_ALIASING
// The loop at ex/orio/column_sums.c:11 as written, on the host: what orcu_colsum_1 runs when the arrays it
// is given overlap.
static void orcu_colsum_1_on_host(int m, int n, double *s, const double *r, const double *A)
{
    int i;
    int j;
    for (i = 0; i < m; i++) {
        for (j = 0; j < n; j++) {
            s[j] += r[i] * A[i * n + j];
        }
    }
}
#endif

// What orcu_colsum_1 keeps from one call to the next: allocating costs more than copying
// small arrays. orcu_release_colsum_1() frees it.
static orcu_buffer orcu_colsum_1_buffers[3];

// Frees what orcu_colsum_1 keeps between calls (nothing is lost: the next call allocates again).
void orcu_release_colsum_1(void)
{
    orcu_release_buffers(orcu_colsum_1_buffers, 3);
}

// Runs the loop at ex/orio/column_sums.c:11 on the GPU (threadCount=64, vectorize=True, mapping='x=j y=i(split)', registerTile={'j': 4}, shared=[], sharedDepth=16, constant=['r']);
// returns when its results are in host memory.
static void orcu_colsum_1(int m, int n, double *s, const double *r, const double *A)
{
    // Each grid loop's most iterations (times its step) over the loops around it: blocks enough to cover them.
    const long long orcu_span_j = (long long)n;
    const long long orcu_span_i = (long long)m;
    if (orcu_span_j <= 0 || orcu_span_i <= 0)
        return;  // no iteration: nothing to compute or move
    // The elements each array's accesses reach: [first, end).
    const long long orcu_s_first = 0LL, orcu_s_end = (long long)n;
    const long long orcu_r_first = 0LL, orcu_r_end = (long long)m;
    const long long orcu_A_first = 0LL, orcu_A_end = (long long)m * n;
    // The iterations run at once, each on its own elements: no array may overlap one that is written.
    if (orcu_overlap(s + orcu_s_first, s + orcu_s_end, r + orcu_r_first, r + orcu_r_end)
        || orcu_overlap(s + orcu_s_first, s + orcu_s_end, A + orcu_A_first, A + orcu_A_end)) {
#ifdef ORCU_ALLOW_ALIASING
        orcu_colsum_1_on_host(m, n, s, r, A);
        return;
#endif
        orcu_aliased("orcu_colsum_1");
    }
    const dim3 orcu_block(32, 2);
    const dim3 orcu_grid(orcu_blocks_along(orcu_span_j, 128LL, 2147483647LL), orcu_blocks_split(orcu_span_i, 2LL, orcu_blocks_along(orcu_span_j, 128LL, 2147483647LL), 64));
    // 32-bit indices unless the grid runs past the last iteration beyond INT_MAX, or an array
    // has more elements than that.
    const bool orcu_wide = (long long)n + (long long)orcu_grid.x * 128 > INT_MAX || (long long)m + (long long)orcu_grid.y * 2 > INT_MAX || orcu_s_end > INT_MAX || orcu_r_end > INT_MAX || orcu_A_end > INT_MAX;
    decltype(&orcu_colsum_1_kernel<int>) const orcu_kernel = orcu_wide ? orcu_colsum_1_kernel<long long> : orcu_colsum_1_kernel<int>;

    // Device copies of the arrays, indexed as on the host so the loop body runs unchanged.
    double *const d_s = (double *)orcu_device_buffer(&orcu_colsum_1_buffers[0], sizeof(double) * orcu_count(0, orcu_s_end));
    double *const d_r = (double *)orcu_device_buffer(&orcu_colsum_1_buffers[1], sizeof(double) * orcu_count(0, orcu_r_end));
    double *const d_A = (double *)orcu_device_buffer(&orcu_colsum_1_buffers[2], sizeof(double) * orcu_count(0, orcu_A_end));

    ORCU_CHECK(cudaMemcpy(d_s + orcu_s_first, s + orcu_s_first, sizeof(double) * orcu_count(orcu_s_first, orcu_s_end), cudaMemcpyHostToDevice));
    ORCU_CHECK(cudaMemcpy(d_r + orcu_r_first, r + orcu_r_first, sizeof(double) * orcu_count(orcu_r_first, orcu_r_end), cudaMemcpyHostToDevice));
    ORCU_CHECK(cudaMemcpy(d_A + orcu_A_first, A + orcu_A_first, sizeof(double) * orcu_count(orcu_A_first, orcu_A_end), cudaMemcpyHostToDevice));

    // r in constant memory when its elements [0, end) fit, copied from its device copy.
    const bool r_in_constant = orcu_r_end <= 2048;
    if (r_in_constant)
        ORCU_CHECK(cudaMemcpyToSymbolAsync(orcu_constant_double_r, d_r, sizeof(double) * orcu_r_end, 0, cudaMemcpyDeviceToDevice, 0));
    ORCU_LAUNCH(orcu_kernel, orcu_grid, orcu_block, 0, 0, d_s, d_r, d_A, m, n, r_in_constant);
    ORCU_CHECK(cudaGetLastError());
    ORCU_CHECK(cudaMemcpy(s + orcu_s_first, d_s + orcu_s_first, sizeof(double) * orcu_count(orcu_s_first, orcu_s_end), cudaMemcpyDeviceToHost));
}

#endif  // ORCU_ORIGINAL
// <<< orcu generated code: end
// >>> orcu generated code: begin
#ifdef __cplusplus
extern "C" void colsum(int m, int n, double *r, double *A, double *s);  // C linkage: C code calls it
#endif
// <<< orcu generated code: end
/* s[j] accumulates over the outer loop 'i': Orio's mapping cannot spread 'i' over threads, but
   'j' is parallel, and the TSG makes it the loop the threads share. */
void colsum(int m, int n, double *r, double *A, double *s) {
    int i, j;
    /*@ begin PerfTuning (
    def performance_params { param TC[] = [32, 64]; }
    def input_params { param m[] = [150]; param n[] = [300]; }
    def input_vars { decl dynamic double r[m] = random; decl dynamic double A[m*n] = random; decl dynamic double s[n] = 0; }
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC, mapping='auto')
    for (i = 0; i <= m - 1; i++)
        for (j = 0; j <= n - 1; j++)
            s[j] += r[i] * A[i*n + j];
    ) @*/
#ifdef ORCU_ORIGINAL
    for (i = 0; i <= m - 1; i++)
        for (j = 0; j <= n - 1; j++)
            s[j] += r[i] * A[i*n + j];
#else
    orcu_colsum_1(m, n, s, r, A);  // the loop above, run on the GPU by orcu
    (void)i; (void)j;  // only the original loops above use them
#endif
/*@ end @*/
    /*@ end @*/
}
