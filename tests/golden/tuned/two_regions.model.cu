// >>> orcu generated code: begin
/* Written by orcu 0.1.0 from ex/two_regions.c.
 * orcu_scale_and_max_1 (line 25): TC1=512, BC1=264
 *     input n=12345; time 0.006201 ms (GPU kernel time predicted by orcu's performance model, which ranked the variants)
 * orcu_scale_and_max_2 (line 33): TC2=1024, BC2=66
 *     input n=12345; time 0.006157 ms (GPU kernel time predicted by orcu's performance model, which ranked the variants)
 * Device: NVIDIA H100 80GB HBM3 (sm_90, predicted by orcu's performance model). Compiler: none (orcu's performance model).
 * Each Loop region runs on the GPU; compile with -DORCU_ORIGINAL for the original C loops.
 * The annotations are kept, so `orcu tune` can tune this file again.
 */
#ifndef ORCU_ORIGINAL
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
// C's library as this file's C calls it: each argument converted to C's parameter type before
// C++ (and CUDA) pick an overload by it, as C does (abs() of a double truncates, exp() of a float
// is exp() of a double).
#define fmax(orcu_0, orcu_1) fmax((double)(orcu_0), (double)(orcu_1))
#endif
// <<< orcu generated code: end
/* Two Loop regions under one spec: an elementwise update, then a max reduction of
 * its result. Each region has its own threads and blocks. */
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

// An array one Loop region leaves on the device for the next: its host and device addresses,
// the elements [first, end) the device holds, and whether they still have to be copied back.
struct orcu_handoff {
    void *host;
    void *device;
    long long first, end;
    size_t element;
    bool pending;
};

static inline orcu_handoff orcu_handoff_of(const void *host, const void *device, long long first, long long end, size_t element, bool pending)
{
    orcu_handoff h = {(void *)host, (void *)device, first, end, element, pending};
    return h;
}

// Takes what the last region left (it is there once).
static inline orcu_handoff orcu_take(orcu_handoff *slot)
{
    const orcu_handoff h = *slot;
    slot->host = NULL;
    return h;
}

// Whether the device copy covers the elements [first, end) of the array at host.
static inline bool orcu_kept(const orcu_handoff *h, const void *host, long long first, long long end)
{
    return h->host != NULL && h->host == host && h->first <= first && end <= h->end;
}

// Copies back to the host the elements that were left pending on the device.
static inline void orcu_flush(const orcu_handoff *h)
{
    if (h->host != NULL && h->pending && h->end > h->first)
        ORCU_CHECK(cudaMemcpy((char *)h->host + h->first * h->element, (char *)h->device + h->first * h->element,
                              (size_t)(h->end - h->first) * h->element, cudaMemcpyDeviceToHost));
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

// A thread's place in its block, and a block's in the grid, counted as warps count them.
__device__ inline unsigned orcu_thread_rank() { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }
__device__ inline unsigned orcu_block_rank() { return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z); }

// Reduction operators: combine two partial results.
struct orcu_fmax { template <typename T> __device__ static T combine(T a, T b) { return fmax(a, b); } };  // NaN gives way


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

// Arrays orcu_scale_and_max_1 leaves on the device for orcu_scale_and_max_2, which runs next (z).
static orcu_handoff orcu_handoff_scale_and_max_1[1];

// Kernel of the loop at ex/two_regions.c:26 in scale_and_max():
//     for (i = 0; i < n; i++)
//         z[i] = alpha * x[i] + 1.0;
// Each thread runs iterations of 'i' a whole grid apart, so any grid covers any trip count.
// orcu_index is int, or long long in calls whose iterations or arrays reach past INT_MAX.
template <typename orcu_index>
__global__ void __launch_bounds__(512) orcu_scale_and_max_1_kernel(
    long long orcu_lo,
    long long orcu_hi,
    double *__restrict__ z,
    const double *__restrict__ x,
    double alpha)
{
    orcu_index i;
    const orcu_index orcu_stride = (orcu_index)gridDim.x * blockDim.x;
    for (i = (orcu_index)orcu_lo + ((orcu_index)blockIdx.x * blockDim.x + threadIdx.x); i < (orcu_index)orcu_hi; i += orcu_stride) {
        z[i] = alpha * x[i] + 1.0;
    }
}

#ifdef ORCU_ALLOW_ALIASING
// The loop at ex/two_regions.c:26 as written, on the host: what orcu_scale_and_max_1 runs when the arrays it
// is given overlap.
static void orcu_scale_and_max_1_on_host(int n, double *z, double alpha, const double *x)
{
    int i;
    for (i = 0; i < n; i++) {
        z[i] = alpha * x[i] + 1.0;
    }
}
#endif

// What orcu_scale_and_max_1 keeps from one call to the next: allocating costs more than copying
// small arrays. orcu_release_scale_and_max_1() frees it.
static orcu_buffer orcu_scale_and_max_1_buffers[2];

// Frees what orcu_scale_and_max_1 keeps between calls (nothing is lost: the next call allocates again).
void orcu_release_scale_and_max_1(void)
{
    orcu_release_buffers(orcu_scale_and_max_1_buffers, 2);
}

// Runs the loop at ex/two_regions.c:26 on the GPU (threadCount=512, blockCount=264);
// returns when its results are in host memory.
static void orcu_scale_and_max_1(int n, double *z, double alpha, const double *x)
{
    const long long orcu_lo = 0LL, orcu_hi = (long long)n;
    if (orcu_hi <= orcu_lo)
        return;  // no iteration: nothing to compute or move
    // The elements each array's accesses reach: [first, end).
    const long long orcu_z_first = 0LL, orcu_z_end = (long long)n;
    const long long orcu_x_first = 0LL, orcu_x_end = (long long)n;
    // The iterations run at once, each on its own elements: no array may overlap one that is written.
    if (orcu_overlap(z + orcu_z_first, z + orcu_z_end, x + orcu_x_first, x + orcu_x_end)) {
#ifdef ORCU_ALLOW_ALIASING
        orcu_scale_and_max_1_on_host(n, z, alpha, x);
        return;
#endif
        orcu_aliased("orcu_scale_and_max_1");
    }
    const int orcu_threads = 512;
    const int orcu_blocks = 264;
    // 32-bit indices unless the grid runs past the last iteration beyond INT_MAX, or an array
    // has more elements than that.
    const bool orcu_wide = orcu_hi + (long long)orcu_blocks * orcu_threads > INT_MAX || orcu_z_end > INT_MAX || orcu_x_end > INT_MAX;
    decltype(&orcu_scale_and_max_1_kernel<int>) const orcu_kernel = orcu_wide ? orcu_scale_and_max_1_kernel<long long> : orcu_scale_and_max_1_kernel<int>;

    // Device copies of the arrays, indexed as on the host so the loop body runs unchanged.
    double *const d_z = (double *)orcu_device_buffer(&orcu_scale_and_max_1_buffers[0], sizeof(double) * orcu_count(0, orcu_z_end));
    double *const d_x = (double *)orcu_device_buffer(&orcu_scale_and_max_1_buffers[1], sizeof(double) * orcu_count(0, orcu_x_end));

    ORCU_CHECK(cudaMemcpy(d_x + orcu_x_first, x + orcu_x_first, sizeof(double) * orcu_count(orcu_x_first, orcu_x_end), cudaMemcpyHostToDevice));

    ORCU_LAUNCH(orcu_kernel, orcu_blocks, orcu_threads, 0, 0, orcu_lo, orcu_hi, d_z, d_x, alpha);
    ORCU_CHECK(cudaGetLastError());
    ORCU_CHECK(cudaMemcpy(z + orcu_z_first, d_z + orcu_z_first, sizeof(double) * orcu_count(orcu_z_first, orcu_z_end), cudaMemcpyDeviceToHost));
    // For the region that runs next: z on the device.
    orcu_handoff_scale_and_max_1[0] = orcu_handoff_of(z, d_z, orcu_z_first, orcu_z_end, sizeof(double), false);
}

// Kernel of the loop at ex/two_regions.c:34 in scale_and_max():
//     for (i = 0; i < n; i++)
//         zmax = fmax(zmax, z[i]);
// Each thread runs iterations of 'i' a whole grid apart, so any grid covers any trip count.
// orcu_index is int, or long long in calls whose iterations or arrays reach past INT_MAX.
template <typename orcu_index>
__global__ void __launch_bounds__(1024) orcu_scale_and_max_2_kernel(
    long long orcu_lo,
    long long orcu_hi,
    const double *__restrict__ z,
    double *__restrict__ orcu_zmax_partial,
    double orcu_zmax_before,
    double *orcu_zmax_result,
    unsigned int *orcu_arrived,
    int orcu_first_block,
    int orcu_all_blocks)
{
    orcu_index i;
    double zmax = NAN;  // this thread's share of the 'max' reduction of zmax
    const orcu_index orcu_stride = (orcu_index)gridDim.x * blockDim.x;
    for (i = (orcu_index)orcu_lo + ((orcu_index)blockIdx.x * blockDim.x + threadIdx.x); i < (orcu_index)orcu_hi; i += orcu_stride) {
        zmax = fmax(zmax, z[i]);
    }
    zmax = orcu_block_reduce<double, orcu_fmax, 1024>(zmax);
    if (orcu_thread_rank() == 0)
        orcu_zmax_partial[orcu_first_block + orcu_block_rank()] = zmax;
    // The block that finishes last folds every block's partial result into the final value.
    if (orcu_arrived_last(orcu_arrived, orcu_all_blocks)) {
        zmax = orcu_fold<double, orcu_fmax, 1024>(orcu_zmax_partial, orcu_all_blocks, NAN);
        if (orcu_thread_rank() == 0)
            *orcu_zmax_result = orcu_fmax::combine(orcu_zmax_before, zmax);
    }
}

// What orcu_scale_and_max_2 keeps from one call to the next: allocating costs more than copying
// small arrays. orcu_release_scale_and_max_2() frees it.
static orcu_buffer orcu_scale_and_max_2_buffers[4];

// Frees what orcu_scale_and_max_2 keeps between calls (nothing is lost: the next call allocates again).
void orcu_release_scale_and_max_2(void)
{
    orcu_release_buffers(orcu_scale_and_max_2_buffers, 4);
}

// Runs the loop at ex/two_regions.c:34 on the GPU (threadCount=1024, blockCount=66);
// returns when its results are in host memory.
static void orcu_scale_and_max_2(int n, double *zmax, const double *z)
{
    // What the region before this one left on the device: used where it covers what this loop
    // touches; its elements not yet copied back to the host are, whatever happens.
    const orcu_handoff orcu_z_handed = orcu_take(&orcu_handoff_scale_and_max_1[0]);
    const long long orcu_lo = 0LL, orcu_hi = (long long)n;
    if (orcu_hi <= orcu_lo) {  // no iteration: nothing to compute or move
        orcu_flush(&orcu_z_handed);
        return;
    }
    // The elements each array's accesses reach: [first, end).
    const long long orcu_z_first = 0LL, orcu_z_end = (long long)n;
    const int orcu_threads = 1024;
    const int orcu_blocks = 66;
    // 32-bit indices unless the grid runs past the last iteration beyond INT_MAX, or an array
    // has more elements than that.
    const bool orcu_wide = orcu_hi + (long long)orcu_blocks * orcu_threads > INT_MAX || orcu_z_end > INT_MAX;
    decltype(&orcu_scale_and_max_2_kernel<int>) const orcu_kernel = orcu_wide ? orcu_scale_and_max_2_kernel<long long> : orcu_scale_and_max_2_kernel<int>;
    const bool orcu_z_kept = orcu_kept(&orcu_z_handed, z, orcu_z_first, orcu_z_end);
    if (!orcu_z_kept)
        orcu_flush(&orcu_z_handed);

    // Device copies of the arrays, indexed as on the host so the loop body runs unchanged.
    double *const d_z = orcu_z_kept ? (double *)orcu_z_handed.device
        : (double *)orcu_device_buffer(&orcu_scale_and_max_2_buffers[0], sizeof(double) * orcu_count(0, orcu_z_end));

    // Per reduction: one partial result per block, and the final value,
    // which the last block writes straight into pinned host memory.
    const int orcu_all_blocks = orcu_blocks;
    unsigned int *const orcu_arrived = orcu_block_counter(&orcu_scale_and_max_2_buffers[3]);
    double *const orcu_zmax_partial = (double *)orcu_device_buffer(&orcu_scale_and_max_2_buffers[1], sizeof(double) * orcu_all_blocks);
    orcu_pinned_buffer(&orcu_scale_and_max_2_buffers[2], sizeof(double));

    if (!orcu_z_kept)
        ORCU_CHECK(cudaMemcpy(d_z + orcu_z_first, z + orcu_z_first, sizeof(double) * orcu_count(orcu_z_first, orcu_z_end), cudaMemcpyHostToDevice));

    ORCU_LAUNCH(orcu_kernel, orcu_blocks, orcu_threads, 0, 0, orcu_lo, orcu_hi, d_z, orcu_zmax_partial, *zmax, (double *)orcu_buffer_device(&orcu_scale_and_max_2_buffers[2]), orcu_arrived, 0, orcu_all_blocks);
    ORCU_CHECK(cudaGetLastError());
    if (orcu_z_kept)
        orcu_flush(&orcu_z_handed);  // before this loop's own copies: they may overlap
    ORCU_CHECK(cudaStreamSynchronize(0));  // the results are in pinned host memory once the kernel is done
    *zmax = *(double *)orcu_buffer_host(&orcu_scale_and_max_2_buffers[2]);
}

#endif  // ORCU_ORIGINAL
// <<< orcu generated code: end
// >>> orcu generated code: begin
#ifdef __cplusplus
extern "C" double scale_and_max(int n, double alpha, const double *x, double *z);  // C linkage: C code calls it
#endif
// <<< orcu generated code: end
double scale_and_max(int n, double alpha, const double *x, double *z) {
    double zmax;
    int i;
    /*@ begin PerfTuning (
    def performance_params {
        param TC1[] = [128, 256, 512];
        param BC1[] = [device_sms, 2 * device_sms];
        param TC2[] = [256, 1024];
        param BC2[] = [device_sms // 2, device_sms];
        constraint same_work = TC2 * BC2 <= 2 * TC1 * BC1;
    }
    def input_params {
        param n[] = [12345];
    }
    def input_vars {
        decl dynamic double x[n] = random;
        decl dynamic double z[n] = 0;
        decl double alpha = -1.5;
    }
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC1, blockCount=BC1)
    for (i = 0; i < n; i++)
        z[i] = alpha * x[i] + 1.0;
    ) @*/
#ifdef ORCU_ORIGINAL
    for (i = 0; i < n; i++)
        z[i] = alpha * x[i] + 1.0;
#else
    orcu_scale_and_max_1(n, z, alpha, x);  // the loop above, run on the GPU by orcu
    (void)i;  // only the original loops above use it
#endif
    /*@ end @*/
    zmax = z[0];
    /*@ begin Loop(transform CUDA(threadCount=TC2, blockCount=BC2)
    for (i = 0; i < n; i++)
        zmax = fmax(zmax, z[i]);
    ) @*/
#ifdef ORCU_ORIGINAL
    for (i = 0; i < n; i++)
        zmax = fmax(zmax, z[i]);
#else
    orcu_scale_and_max_2(n, &zmax, z);  // the loop above, run on the GPU by orcu
    (void)i;  // only the original loops above use it
#endif
    /*@ end @*/
    /*@ end @*/
    return zmax;
}
