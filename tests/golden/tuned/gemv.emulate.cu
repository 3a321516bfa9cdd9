// >>> orcu generated code: begin
/* Written by orcu 0.1.0 from ex/gemv.c.
 * orcu_gemv_1 (line 19): TC=64, mapping_1='x=j(threads) y=i'
 *     input n=37, m=45; time 0.006894 ms (GPU kernel time predicted by orcu's performance model, which ranked the variants)
 * orcu_gemv_1 (line 19): TC=64, mapping_1='x=j(threads) y=i'
 *     input n=64, m=45; time 0.006894 ms (GPU kernel time predicted by orcu's performance model, which ranked the variants)
 * Device: NVIDIA H100 80GB HBM3 (sm_90, emulated on the CPU). Compiler: g++ (Debian 12.2.0-14+deb12u1) 12.2.0 with orcu's CUDA emulation.
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

// A thread's place in its block, and a block's in the grid, counted as warps count them.
__device__ inline unsigned orcu_thread_rank() { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }
__device__ inline unsigned orcu_block_rank() { return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z); }

// Reduction operators: combine two partial results.
struct orcu_sum { template <typename T> __device__ static T combine(T a, T b) { return a + b; } };


// Folds v over one row of the block: the `width` threads along x that share threadIdx.y
// (width a power of two up to 32, so a row lies in one warp and rows fold independently);
// the row's thread with threadIdx.x == 0 gets the result.
template <typename T, typename Op, int width>
__device__ T orcu_row_reduce(T v)
{
    const unsigned lane = orcu_thread_rank() % 32;
    const unsigned mask = width >= 32 ? 0xffffffffu : ((1u << width) - 1u) << (lane / width * width);
#pragma unroll
    for (int offset = width / 2; offset > 0; offset /= 2)
        v = Op::combine(v, __shfl_down_sync(mask, v, offset, width));
    return v;
}

// Kernel of the loop at ex/gemv.c:20 in gemv():
//     for (i = 0; i < n; i++) {
//         y[i] = 0.0;
//         for (j = 0; j < m; j++)
//             y[i] += A[i*m + j] * x[j];
//     }
// The TSG's mapping 'x=j(threads) y=i': 32 x 2 threads a block; the loops on the
// grid run a whole grid apart, so any grid covers any trip count.
// orcu_index is int, or long long in calls whose iterations or arrays reach past INT_MAX.
template <typename orcu_index>
__global__ void __launch_bounds__(64) orcu_gemv_1_kernel(
    double *__restrict__ y,
    const double *__restrict__ A,
    const double *__restrict__ x,
    int n,
    int m)
{
    orcu_index i, j;
    // 'i' (the loop at ex/gemv.c:20): over threadIdx.y and blockIdx.y, a whole grid apart
    for (i = ((orcu_index)blockIdx.y * blockDim.y + threadIdx.y); i < n; i += (orcu_index)gridDim.y * blockDim.y) {
        if (threadIdx.x == 0) {  // once per row of threads
            y[i] = 0.0;
        }
        // 'j' (the loop at ex/gemv.c:22): over threadIdx.x, each thread a share; the row of threads then folds the shares
        {
            double y_sum = 0.0;
            for (j = (orcu_index)threadIdx.x; j < m; j += (orcu_index)blockDim.x) {
                y_sum += A[i * m + j] * x[j];
            }
            y_sum = orcu_row_reduce<double, orcu_sum, 32>(y_sum);
            if (threadIdx.x == 0) {
                y[i] = orcu_sum::combine(y[i], y_sum);
            }
        }
    }
}

#ifdef ORCU_ALLOW_ALIASING
// The loop at ex/gemv.c:20 as written, on the host: what orcu_gemv_1 runs when the arrays it
// is given overlap.
static void orcu_gemv_1_on_host(int n, double *y, int m, const double *A, const double *x)
{
    int i;
    int j;
    for (i = 0; i < n; i++) {
        y[i] = 0.0;
        for (j = 0; j < m; j++) {
            y[i] += A[i * m + j] * x[j];
        }
    }
}
#endif

// What orcu_gemv_1 keeps from one call to the next: allocating costs more than copying
// small arrays. orcu_release_gemv_1() frees it.
static orcu_buffer orcu_gemv_1_buffers[3];

// Frees what orcu_gemv_1 keeps between calls (nothing is lost: the next call allocates again).
void orcu_release_gemv_1(void)
{
    orcu_release_buffers(orcu_gemv_1_buffers, 3);
}

// Runs the loop at ex/gemv.c:20 on the GPU (threadCount=64, mapping='x=j(threads) y=i');
// returns when its results are in host memory.
static void orcu_gemv_1(int n, double *y, int m, const double *A, const double *x)
{
    // Each grid loop's most iterations (times its step) over the loops around it: blocks enough to cover them.
    const long long orcu_span_i = (long long)n;
    if (orcu_span_i <= 0)
        return;  // no iteration: nothing to compute or move
    // The elements each array's accesses reach: [first, end).
    const long long orcu_y_first = 0LL, orcu_y_end = (long long)n;
    const long long orcu_A_first = 0LL, orcu_A_end = (long long)m * n;
    const long long orcu_x_first = 0LL, orcu_x_end = (long long)m;
    // The iterations run at once, each on its own elements: no array may overlap one that is written.
    if (orcu_overlap(y + orcu_y_first, y + orcu_y_end, A + orcu_A_first, A + orcu_A_end)
        || orcu_overlap(y + orcu_y_first, y + orcu_y_end, x + orcu_x_first, x + orcu_x_end)) {
#ifdef ORCU_ALLOW_ALIASING
        orcu_gemv_1_on_host(n, y, m, A, x);
        return;
#endif
        orcu_aliased("orcu_gemv_1");
    }
    const dim3 orcu_block(32, 2);
    const dim3 orcu_grid(1, orcu_blocks_along(orcu_span_i, 2LL, 65535LL));
    // 32-bit indices unless the grid runs past the last iteration beyond INT_MAX, or an array
    // has more elements than that.
    const bool orcu_wide = (long long)n + (long long)orcu_grid.y * 2 > INT_MAX || orcu_y_end > INT_MAX || orcu_A_end > INT_MAX || orcu_x_end > INT_MAX;
    decltype(&orcu_gemv_1_kernel<int>) const orcu_kernel = orcu_wide ? orcu_gemv_1_kernel<long long> : orcu_gemv_1_kernel<int>;

    // Device copies of the arrays, indexed as on the host so the loop body runs unchanged.
    double *const d_y = (double *)orcu_device_buffer(&orcu_gemv_1_buffers[0], sizeof(double) * orcu_count(0, orcu_y_end));
    double *const d_A = (double *)orcu_device_buffer(&orcu_gemv_1_buffers[1], sizeof(double) * orcu_count(0, orcu_A_end));
    double *const d_x = (double *)orcu_device_buffer(&orcu_gemv_1_buffers[2], sizeof(double) * orcu_count(0, orcu_x_end));

    ORCU_CHECK(cudaMemcpy(d_y + orcu_y_first, y + orcu_y_first, sizeof(double) * orcu_count(orcu_y_first, orcu_y_end), cudaMemcpyHostToDevice));
    ORCU_CHECK(cudaMemcpy(d_A + orcu_A_first, A + orcu_A_first, sizeof(double) * orcu_count(orcu_A_first, orcu_A_end), cudaMemcpyHostToDevice));
    ORCU_CHECK(cudaMemcpy(d_x + orcu_x_first, x + orcu_x_first, sizeof(double) * orcu_count(orcu_x_first, orcu_x_end), cudaMemcpyHostToDevice));

    ORCU_LAUNCH(orcu_kernel, orcu_grid, orcu_block, 0, 0, d_y, d_A, d_x, n, m);
    ORCU_CHECK(cudaGetLastError());
    ORCU_CHECK(cudaMemcpy(y + orcu_y_first, d_y + orcu_y_first, sizeof(double) * orcu_count(orcu_y_first, orcu_y_end), cudaMemcpyDeviceToHost));
}

#endif  // ORCU_ORIGINAL
// <<< orcu generated code: end
// >>> orcu generated code: begin
#ifdef __cplusplus
extern "C" void gemv(int n, int m, const double *A, const double *x, double *y);  // C linkage: C code calls it
#endif
// <<< orcu generated code: end
/* y = A x with A row-major (n rows of m): the TSG spreads each row over a warp of threads,
 * which read consecutive elements of the row, and folds their partial sums. */
void gemv(int n, int m, const double *A, const double *x, double *y) {
    int i, j;
    /*@ begin PerfTuning (
    def performance_params {
        param TC[] = [64, 128, 256];
    }
    def input_params {
        param n[] = [37, 64];
        param m[] = [45];
    }
    def input_vars {
        decl dynamic double A[n*m] = random;
        decl dynamic double x[m] = random;
        decl dynamic double y[n] = 0;
    }
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto', threadCount=TC)
    for (i = 0; i < n; i++) {
        y[i] = 0.0;
        for (j = 0; j < m; j++)
            y[i] += A[i*m + j] * x[j];
    }
    ) @*/
#ifdef ORCU_ORIGINAL
    for (i = 0; i < n; i++) {
        y[i] = 0.0;
        for (j = 0; j < m; j++)
            y[i] += A[i*m + j] * x[j];
    }
#else
    orcu_gemv_1(n, y, m, A, x);  // the loop above, run on the GPU by orcu
    (void)i; (void)j;  // only the original loops above use them
#endif
    /*@ end @*/
    /*@ end @*/
}
