// >>> orcu generated code: begin
/* Written by orcu 0.1.0 from ex/norm2.c.
 * orcu_dnrm2_1 (line 27): TC=1024, BC=264
 *     input n=999; time 0.006122 ms (GPU kernel time predicted by orcu's performance model, which ranked the variants)
 * orcu_dnrm2_1 (line 27): TC=1024, BC=132
 *     input n=4000037; time 0.02078 ms (GPU kernel time predicted by orcu's performance model, which ranked the variants)
 * Device: NVIDIA H100 80GB HBM3 (sm_90, emulated on the CPU). Compiler: g++ (Debian 12.2.0-14+deb12u1) 12.2.0 with orcu's CUDA emulation.
 * Each Loop region runs on the GPU; compile with -DORCU_ORIGINAL for the original C loops.
 * The annotations are kept, so `orcu tune` can tune this file again.
 */
#ifndef ORCU_ORIGINAL
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <math.h>
// C's library as this file's C calls it: each argument converted to C's parameter type before
// C++ (and CUDA) pick an overload by it, as C does (abs() of a double truncates, exp() of a float
// is exp() of a double).
#define sqrt(orcu_0) sqrt((double)(orcu_0))
#endif
// <<< orcu generated code: end
/* Euclidean norm: the sum of squares is tuned on the GPU, the square root stays on the host. */
#include <math.h>

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


// Returns the host address; kernels write through orcu_buffer_device(b).
static inline void *orcu_pinned_buffer(orcu_buffer *b, size_t bytes)
{
    if (b->host == NULL || bytes > b->bytes) {
        if (b->host != NULL)
            ORCU_CHECK(cudaFreeHost(b->host));
        b->host = b->device = NULL;
        b->bytes = 0;
        ORCU_CHECK(cudaHostAlloc(&b->host, bytes ? bytes : 1, cudaHostAllocMapped));
        ORCU_CHECK(cudaHostGetDevicePointer(&b->device, b->host, 0));
        b->bytes = bytes;
    }
    return b->host;
}

// The two sides of a pinned buffer: a region may use either or both.
[[maybe_unused]] static inline void *orcu_buffer_host(orcu_buffer *b) { return b->host; }
[[maybe_unused]] static inline void *orcu_buffer_device(orcu_buffer *b) { return b->device; }

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

// A thread's place in its block, and a block's in the grid, counted as warps count them.
__device__ inline unsigned orcu_thread_rank() { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }
__device__ inline unsigned orcu_block_rank() { return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z); }

// Reduction operators: combine two partial results.
struct orcu_sum { template <typename T> __device__ static T combine(T a, T b) { return a + b; } };


// Folds v over the first `lanes` lanes of the calling warp (all of them must call); lane 0
// gets the result. `lanes` is known when compiling, so the mask is a constant.
template <typename T, typename Op, int lanes>
__device__ T orcu_warp_reduce(T v)
{
    const unsigned mask = lanes >= 32 ? 0xffffffffu : (1u << lanes) - 1u;
    const int lane = orcu_thread_rank() % 32;
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2) {
        const T other = __shfl_down_sync(mask, v, offset);
        if (lanes == 32 || lane + offset < lanes)
            v = Op::combine(v, other);
    }
    return v;
}

// Folds v over a block of `threads` threads (every thread must call); thread 0 gets the
// result. Any block size works: the last warp may be partial.
template <typename T, typename Op, int threads>
__device__ T orcu_block_reduce(T v)
{
    const int warps = (threads + 31) / 32;
    __shared__ T warp_result[warps];
    const int lane = orcu_thread_rank() % 32, warp = orcu_thread_rank() / 32;
    if (threads % 32 == 0 || warp < threads / 32)
        v = orcu_warp_reduce<T, Op, 32>(v);
    else
        v = orcu_warp_reduce<T, Op, (threads % 32 ? threads % 32 : 32)>(v);
    if (lane == 0)
        warp_result[warp] = v;
    __syncthreads();
    if (warp == 0 && lane < warps)
        v = orcu_warp_reduce<T, Op, warps>(warp_result[lane]);
    __syncthreads();  // warp_result may be reused by the next reduction
    return v;
}

// A counter of the blocks that finished, zero between launches, kept by a host function.
static inline unsigned int *orcu_block_counter(orcu_buffer *b)
{
    if (b->device == NULL) {
        orcu_device_buffer(b, sizeof(unsigned int));
        ORCU_CHECK(cudaMemset(b->device, 0, sizeof(unsigned int)));
    }
    return (unsigned int *)b->device;
}

// Called by every thread once the block's partial results are stored: true in the block
// that finishes last of `blocks`, which then sees every block's partial results.
__device__ bool orcu_arrived_last(unsigned int *arrived, int blocks)
{
    __shared__ bool last;
    __threadfence();  // this block's partial results are visible before its arrival is
    __syncthreads();
    if (orcu_thread_rank() == 0) {
        last = atomicAdd(arrived, 1u) == (unsigned int)blocks - 1;
        if (last)
            *arrived = 0;  // every block has arrived: ready for the next launch
    }
    __syncthreads();
    return last;
}

// The last block's fold of the blocks' partial results (read past L1, which may hold stale lines).
template <typename T, typename Op, int threads>
__device__ T orcu_fold(const T *partial, int count, T identity)
{
    T v = identity;
    for (int k = orcu_thread_rank(); k < count; k += threads)
        v = Op::combine(v, __ldcg(partial + k));
    return orcu_block_reduce<T, Op, threads>(v);
}

// Kernel of the loop at ex/norm2.c:28 in dnrm2():
//     for (i = 0; i <= n-1; i++)
//         s += x[i] * x[i];
// Each thread runs iterations of 'i' a whole grid apart, so any grid covers any trip count.
// orcu_index is int, or long long in calls whose iterations or arrays reach past INT_MAX.
template <typename orcu_index>
__global__ void __launch_bounds__(1024) orcu_dnrm2_1_v1_kernel(
    long long orcu_lo,
    long long orcu_hi,
    const double *__restrict__ x,
    double *__restrict__ orcu_s_partial,
    double orcu_s_before,
    double *orcu_s_result,
    unsigned int *orcu_arrived,
    int orcu_first_block,
    int orcu_all_blocks)
{
    orcu_index i;
    double s = 0.0;  // this thread's share of the '+' reduction of s
    const orcu_index orcu_stride = (orcu_index)gridDim.x * blockDim.x;
    for (i = (orcu_index)orcu_lo + ((orcu_index)blockIdx.x * blockDim.x + threadIdx.x); i < (orcu_index)orcu_hi; i += orcu_stride) {
        s += x[i] * x[i];
    }
    s = orcu_block_reduce<double, orcu_sum, 1024>(s);
    if (orcu_thread_rank() == 0)
        orcu_s_partial[orcu_first_block + orcu_block_rank()] = s;
    // The block that finishes last folds every block's partial result into the final value.
    if (orcu_arrived_last(orcu_arrived, orcu_all_blocks)) {
        s = orcu_fold<double, orcu_sum, 1024>(orcu_s_partial, orcu_all_blocks, 0.0);
        if (orcu_thread_rank() == 0)
            *orcu_s_result = orcu_sum::combine(orcu_s_before, s);
    }
}

// What orcu_dnrm2_1_v1 keeps from one call to the next: allocating costs more than copying
// small arrays. orcu_release_dnrm2_1_v1() frees it.
static orcu_buffer orcu_dnrm2_1_v1_buffers[4];

// Frees what orcu_dnrm2_1_v1 keeps between calls (nothing is lost: the next call allocates again).
void orcu_release_dnrm2_1_v1(void)
{
    orcu_release_buffers(orcu_dnrm2_1_v1_buffers, 4);
}

// Runs the loop at ex/norm2.c:28 on the GPU (threadCount=1024, blockCount=264);
// returns when its results are in host memory.
static void orcu_dnrm2_1_v1(int n, double *s, const double *x)
{
    const long long orcu_lo = 0LL, orcu_hi = (long long)n;
    if (orcu_hi <= orcu_lo)
        return;  // no iteration: nothing to compute or move
    // The elements each array's accesses reach: [first, end).
    const long long orcu_x_first = 0LL, orcu_x_end = (long long)n;
    const int orcu_threads = 1024;
    const int orcu_blocks = 264;
    // 32-bit indices unless the grid runs past the last iteration beyond INT_MAX, or an array
    // has more elements than that.
    const bool orcu_wide = orcu_hi + (long long)orcu_blocks * orcu_threads > INT_MAX || orcu_x_end > INT_MAX;
    decltype(&orcu_dnrm2_1_v1_kernel<int>) const orcu_kernel = orcu_wide ? orcu_dnrm2_1_v1_kernel<long long> : orcu_dnrm2_1_v1_kernel<int>;

    // Device copies of the arrays, indexed as on the host so the loop body runs unchanged.
    double *const d_x = (double *)orcu_device_buffer(&orcu_dnrm2_1_v1_buffers[0], sizeof(double) * orcu_count(0, orcu_x_end));

    // Per reduction: one partial result per block, and the final value,
    // which the last block writes straight into pinned host memory.
    const int orcu_all_blocks = orcu_blocks;
    unsigned int *const orcu_arrived = orcu_block_counter(&orcu_dnrm2_1_v1_buffers[3]);
    double *const orcu_s_partial = (double *)orcu_device_buffer(&orcu_dnrm2_1_v1_buffers[1], sizeof(double) * orcu_all_blocks);
    orcu_pinned_buffer(&orcu_dnrm2_1_v1_buffers[2], sizeof(double));

    ORCU_CHECK(cudaMemcpy(d_x + orcu_x_first, x + orcu_x_first, sizeof(double) * orcu_count(orcu_x_first, orcu_x_end), cudaMemcpyHostToDevice));

    ORCU_LAUNCH(orcu_kernel, orcu_blocks, orcu_threads, 0, 0, orcu_lo, orcu_hi, d_x, orcu_s_partial, *s, (double *)orcu_buffer_device(&orcu_dnrm2_1_v1_buffers[2]), orcu_arrived, 0, orcu_all_blocks);
    ORCU_CHECK(cudaGetLastError());
    ORCU_CHECK(cudaStreamSynchronize(0));  // the results are in pinned host memory once the kernel is done
    *s = *(double *)orcu_buffer_host(&orcu_dnrm2_1_v1_buffers[2]);
}

// Kernel of the loop at ex/norm2.c:28 in dnrm2():
//     for (i = 0; i <= n-1; i++)
//         s += x[i] * x[i];
// Each thread runs iterations of 'i' a whole grid apart, so any grid covers any trip count.
// orcu_index is int, or long long in calls whose iterations or arrays reach past INT_MAX.
template <typename orcu_index>
__global__ void __launch_bounds__(1024) orcu_dnrm2_1_v2_kernel(
    long long orcu_lo,
    long long orcu_hi,
    const double *__restrict__ x,
    double *__restrict__ orcu_s_partial,
    double orcu_s_before,
    double *orcu_s_result,
    unsigned int *orcu_arrived,
    int orcu_first_block,
    int orcu_all_blocks)
{
    orcu_index i;
    double s = 0.0;  // this thread's share of the '+' reduction of s
    const orcu_index orcu_stride = (orcu_index)gridDim.x * blockDim.x;
    for (i = (orcu_index)orcu_lo + ((orcu_index)blockIdx.x * blockDim.x + threadIdx.x); i < (orcu_index)orcu_hi; i += orcu_stride) {
        s += x[i] * x[i];
    }
    s = orcu_block_reduce<double, orcu_sum, 1024>(s);
    if (orcu_thread_rank() == 0)
        orcu_s_partial[orcu_first_block + orcu_block_rank()] = s;
    // The block that finishes last folds every block's partial result into the final value.
    if (orcu_arrived_last(orcu_arrived, orcu_all_blocks)) {
        s = orcu_fold<double, orcu_sum, 1024>(orcu_s_partial, orcu_all_blocks, 0.0);
        if (orcu_thread_rank() == 0)
            *orcu_s_result = orcu_sum::combine(orcu_s_before, s);
    }
}

// What orcu_dnrm2_1_v2 keeps from one call to the next: allocating costs more than copying
// small arrays. orcu_release_dnrm2_1_v2() frees it.
static orcu_buffer orcu_dnrm2_1_v2_buffers[4];

// Frees what orcu_dnrm2_1_v2 keeps between calls (nothing is lost: the next call allocates again).
void orcu_release_dnrm2_1_v2(void)
{
    orcu_release_buffers(orcu_dnrm2_1_v2_buffers, 4);
}

// Runs the loop at ex/norm2.c:28 on the GPU (threadCount=1024, blockCount=132);
// returns when its results are in host memory.
static void orcu_dnrm2_1_v2(int n, double *s, const double *x)
{
    const long long orcu_lo = 0LL, orcu_hi = (long long)n;
    if (orcu_hi <= orcu_lo)
        return;  // no iteration: nothing to compute or move
    // The elements each array's accesses reach: [first, end).
    const long long orcu_x_first = 0LL, orcu_x_end = (long long)n;
    const int orcu_threads = 1024;
    const int orcu_blocks = 132;
    // 32-bit indices unless the grid runs past the last iteration beyond INT_MAX, or an array
    // has more elements than that.
    const bool orcu_wide = orcu_hi + (long long)orcu_blocks * orcu_threads > INT_MAX || orcu_x_end > INT_MAX;
    decltype(&orcu_dnrm2_1_v2_kernel<int>) const orcu_kernel = orcu_wide ? orcu_dnrm2_1_v2_kernel<long long> : orcu_dnrm2_1_v2_kernel<int>;

    // Device copies of the arrays, indexed as on the host so the loop body runs unchanged.
    double *const d_x = (double *)orcu_device_buffer(&orcu_dnrm2_1_v2_buffers[0], sizeof(double) * orcu_count(0, orcu_x_end));

    // Per reduction: one partial result per block, and the final value,
    // which the last block writes straight into pinned host memory.
    const int orcu_all_blocks = orcu_blocks;
    unsigned int *const orcu_arrived = orcu_block_counter(&orcu_dnrm2_1_v2_buffers[3]);
    double *const orcu_s_partial = (double *)orcu_device_buffer(&orcu_dnrm2_1_v2_buffers[1], sizeof(double) * orcu_all_blocks);
    orcu_pinned_buffer(&orcu_dnrm2_1_v2_buffers[2], sizeof(double));

    ORCU_CHECK(cudaMemcpy(d_x + orcu_x_first, x + orcu_x_first, sizeof(double) * orcu_count(orcu_x_first, orcu_x_end), cudaMemcpyHostToDevice));

    ORCU_LAUNCH(orcu_kernel, orcu_blocks, orcu_threads, 0, 0, orcu_lo, orcu_hi, d_x, orcu_s_partial, *s, (double *)orcu_buffer_device(&orcu_dnrm2_1_v2_buffers[2]), orcu_arrived, 0, orcu_all_blocks);
    ORCU_CHECK(cudaGetLastError());
    ORCU_CHECK(cudaStreamSynchronize(0));  // the results are in pinned host memory once the kernel is done
    *s = *(double *)orcu_buffer_host(&orcu_dnrm2_1_v2_buffers[2]);
}

// Runs the loop at ex/norm2.c:27 with the configuration tuned for the input size at hand,
// or for the nearest tuned size (relative distance) when this size was not tuned.
static void orcu_dnrm2_1(int n, double *s, const double *x)
{
    if (n == 999) {
        orcu_dnrm2_1_v1(n, s, x);
        return;
    }
    if (n == 4000037) {
        orcu_dnrm2_1_v2(n, s, x);
        return;
    }
    const double orcu_distance[2] = {
        fabs(((double)n - 999) / 999),
        fabs(((double)n - 4000037) / 4000037),
    };
    int orcu_nearest = 0;
    for (int k = 1; k < 2; k++)
        if (orcu_distance[k] < orcu_distance[orcu_nearest])
            orcu_nearest = k;
    switch (orcu_nearest) {
    case 0:
        orcu_dnrm2_1_v1(n, s, x);
        break;
    case 1:
        orcu_dnrm2_1_v2(n, s, x);
        break;
    }
}

// Frees what the configurations of orcu_dnrm2_1 keep between calls.
void orcu_release_dnrm2_1(void)
{
    orcu_release_dnrm2_1_v1();
    orcu_release_dnrm2_1_v2();
}

#endif  // ORCU_ORIGINAL
// <<< orcu generated code: end
// >>> orcu generated code: begin
#ifdef __cplusplus
extern "C" double dnrm2(int n, const double *x);  // C linkage: C code calls it
#endif
// <<< orcu generated code: end
double dnrm2(int n, const double *x) {
    double s;
    int i;
    /*@ begin PerfTuning (
    def performance_params {
        param TC[] = range(32, 1025, 32);
        param BC[] = [device_sms * k for k in [1, 2, 3, 4, 8]];
        constraint occupancy = TC * BC <= 1024 * 132 * 2;
    }
    def input_params {
        param n[] = [999, 4000037];
    }
    def input_vars {
        decl dynamic double x[n] = random;
    }
    def search {
        arg algorithm = 'Simplex';
        arg total_runs = 40;
        arg simplex_reflection_coef = 1.0;
        arg simplex_expansion_coef = 2.0;
    }
    ) @*/
    s = 0.0;
    /*@ begin Loop(transform CUDA(threadCount=TC, blockCount=BC)
    for (i = 0; i <= n-1; i++)
        s += x[i] * x[i];
    ) @*/
#ifdef ORCU_ORIGINAL
    for (i = 0; i <= n-1; i++)
        s += x[i] * x[i];
#else
    orcu_dnrm2_1(n, &s, x);  // the loop above, run on the GPU by orcu
    (void)i;  // only the original loops above use it
#endif
    /*@ end @*/
    /*@ end @*/
    return sqrt(s);
}
