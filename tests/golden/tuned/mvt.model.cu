// >>> orcu generated code: begin
/* Written by orcu 0.1.0 from ex/mvt.c.
 * orcu_mvt_1 (line 19): TC=64, mapping_1='x=j(threads) y=i'
 *     input n=37; time 0.006894 ms (GPU kernel time predicted by orcu's performance model, which ranked the variants)
 * orcu_mvt_1 (line 19): TC=64, mapping_1='x=j(threads) y=i'
 *     input n=64; time 0.006894 ms (GPU kernel time predicted by orcu's performance model, which ranked the variants)
 * orcu_mvt_2 (line 28): TC=128, mapping_2='x=i', registers_i_2=4, shared_y2_2=False, constant_y2_2=True, sharedDepth_2=16, vectorize_2=False
 *     input n=37; time 0.00802 ms (GPU kernel time predicted by orcu's performance model, which ranked the variants)
 * orcu_mvt_2 (line 28): TC=128, mapping_2='x=i', registers_i_2=4, shared_y2_2=False, constant_y2_2=True, sharedDepth_2=16, vectorize_2=False
 *     input n=64; time 0.009343 ms (GPU kernel time predicted by orcu's performance model, which ranked the variants)
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

// Arrays orcu_mvt_1 leaves on the device for orcu_mvt_2, which runs next (A).
static orcu_handoff orcu_handoff_mvt_1[1];

// Kernel of the loop at ex/mvt.c:20 in mvt():
//     for (i = 0; i < n; i++)
//         for (j = 0; j < n; j++)
//             x1[i] = x1[i] + A[i*n + j] * y1[j];
// The TSG's mapping 'x=j(threads) y=i': 32 x 2 threads a block; the loops on the
// grid run a whole grid apart, so any grid covers any trip count.
// orcu_index is int, or long long in calls whose iterations or arrays reach past INT_MAX.
template <typename orcu_index>
__global__ void __launch_bounds__(64) orcu_mvt_1_kernel(
    double *__restrict__ x1,
    const double *__restrict__ A,
    const double *__restrict__ y1,
    int n)
{
    orcu_index i, j;
    // 'i' (the loop at ex/mvt.c:20): over threadIdx.y and blockIdx.y, a whole grid apart
    for (i = ((orcu_index)blockIdx.y * blockDim.y + threadIdx.y); i < n; i += (orcu_index)gridDim.y * blockDim.y) {
        // 'j' (the loop at ex/mvt.c:21): over threadIdx.x, each thread a share; the row of threads then folds the shares
        {
            double x1_sum = 0.0;
            for (j = (orcu_index)threadIdx.x; j < n; j += (orcu_index)blockDim.x) {
                x1_sum = x1_sum + A[i * n + j] * y1[j];
            }
            x1_sum = orcu_row_reduce<double, orcu_sum, 32>(x1_sum);
            if (threadIdx.x == 0) {
                x1[i] = orcu_sum::combine(x1[i], x1_sum);
            }
        }
    }
}

#ifdef ORCU_ALLOW_ALIASING
// The loop at ex/mvt.c:20 as written, on the host: what orcu_mvt_1 runs when the arrays it
// is given overlap.
static void orcu_mvt_1_on_host(int n, double *x1, const double *A, const double *y1)
{
    int i;
    int j;
    for (i = 0; i < n; i++) {
        for (j = 0; j < n; j++) {
            x1[i] = x1[i] + A[i * n + j] * y1[j];
        }
    }
}
#endif

// What orcu_mvt_1 keeps from one call to the next: allocating costs more than copying
// small arrays. orcu_release_mvt_1() frees it.
static orcu_buffer orcu_mvt_1_buffers[3];

// Frees what orcu_mvt_1 keeps between calls (nothing is lost: the next call allocates again).
void orcu_release_mvt_1(void)
{
    orcu_release_buffers(orcu_mvt_1_buffers, 3);
}

// Runs the loop at ex/mvt.c:20 on the GPU (threadCount=64, mapping='x=j(threads) y=i');
// returns when its results are in host memory.
static void orcu_mvt_1(int n, double *x1, const double *A, const double *y1)
{
    // Each grid loop's most iterations (times its step) over the loops around it: blocks enough to cover them.
    const long long orcu_span_i = (long long)n;
    if (orcu_span_i <= 0)
        return;  // no iteration: nothing to compute or move
    // The elements each array's accesses reach: [first, end).
    const long long orcu_x1_first = 0LL, orcu_x1_end = (long long)n;
    const long long orcu_A_first = 0LL, orcu_A_end = (long long)n * n;
    const long long orcu_y1_first = 0LL, orcu_y1_end = (long long)n;
    // The iterations run at once, each on its own elements: no array may overlap one that is written.
    if (orcu_overlap(x1 + orcu_x1_first, x1 + orcu_x1_end, A + orcu_A_first, A + orcu_A_end)
        || orcu_overlap(x1 + orcu_x1_first, x1 + orcu_x1_end, y1 + orcu_y1_first, y1 + orcu_y1_end)) {
#ifdef ORCU_ALLOW_ALIASING
        orcu_mvt_1_on_host(n, x1, A, y1);
        return;
#endif
        orcu_aliased("orcu_mvt_1");
    }
    const dim3 orcu_block(32, 2);
    const dim3 orcu_grid(1, orcu_blocks_along(orcu_span_i, 2LL, 65535LL));
    // 32-bit indices unless the grid runs past the last iteration beyond INT_MAX, or an array
    // has more elements than that.
    const bool orcu_wide = (long long)n + (long long)orcu_grid.y * 2 > INT_MAX || orcu_x1_end > INT_MAX || orcu_A_end > INT_MAX || orcu_y1_end > INT_MAX;
    decltype(&orcu_mvt_1_kernel<int>) const orcu_kernel = orcu_wide ? orcu_mvt_1_kernel<long long> : orcu_mvt_1_kernel<int>;

    // Device copies of the arrays, indexed as on the host so the loop body runs unchanged.
    double *const d_x1 = (double *)orcu_device_buffer(&orcu_mvt_1_buffers[0], sizeof(double) * orcu_count(0, orcu_x1_end));
    double *const d_A = (double *)orcu_device_buffer(&orcu_mvt_1_buffers[1], sizeof(double) * orcu_count(0, orcu_A_end));
    double *const d_y1 = (double *)orcu_device_buffer(&orcu_mvt_1_buffers[2], sizeof(double) * orcu_count(0, orcu_y1_end));

    ORCU_CHECK(cudaMemcpy(d_x1 + orcu_x1_first, x1 + orcu_x1_first, sizeof(double) * orcu_count(orcu_x1_first, orcu_x1_end), cudaMemcpyHostToDevice));
    ORCU_CHECK(cudaMemcpy(d_A + orcu_A_first, A + orcu_A_first, sizeof(double) * orcu_count(orcu_A_first, orcu_A_end), cudaMemcpyHostToDevice));
    ORCU_CHECK(cudaMemcpy(d_y1 + orcu_y1_first, y1 + orcu_y1_first, sizeof(double) * orcu_count(orcu_y1_first, orcu_y1_end), cudaMemcpyHostToDevice));

    ORCU_LAUNCH(orcu_kernel, orcu_grid, orcu_block, 0, 0, d_x1, d_A, d_y1, n);
    ORCU_CHECK(cudaGetLastError());
    ORCU_CHECK(cudaMemcpy(x1 + orcu_x1_first, d_x1 + orcu_x1_first, sizeof(double) * orcu_count(orcu_x1_first, orcu_x1_end), cudaMemcpyDeviceToHost));
    // For the region that runs next: A on the device.
    orcu_handoff_mvt_1[0] = orcu_handoff_of(A, d_A, orcu_A_first, orcu_A_end, sizeof(double), false);
}

// Kernel of the loop at ex/mvt.c:29 in mvt():
//     for (i = 0; i < n; i++)
//         for (j = 0; j < n; j++)
//             x2[i] = x2[i] + A[j*n + i] * y2[j];
// The TSG's mapping 'x=i': 128 x 1 threads a block; the loops on the
// grid run a whole grid apart, so any grid covers any trip count.
// orcu_index is int, or long long in calls whose iterations or arrays reach past INT_MAX.
#ifndef ORCU_CONSTANT_DOUBLE_Y2
#define ORCU_CONSTANT_DOUBLE_Y2
// y2 (double) for the kernels whose threads all read it alike: in constant memory when it has at
// most 2048 elements (the kernel's y2_in_constant), else read from global memory.
__constant__ double orcu_constant_double_y2[2048];
#endif
template <typename orcu_index>
__global__ void __launch_bounds__(128) orcu_mvt_2_kernel(
    double *__restrict__ x2,
    const double *__restrict__ A,
    const double *__restrict__ y2,
    int n,
    bool y2_in_constant)
{
    orcu_index j;
    // 'i' (the loop at ex/mvt.c:29): tiles of 512 iterations over blockIdx.x, a whole grid apart; each thread 4 of them, 128 apart (threadIdx.x)
    for (orcu_index i0 = (orcu_index)blockIdx.x * 512; i0 < n; i0 += (orcu_index)gridDim.x * 512) {
        const orcu_index i_0 = i0 + (orcu_index)threadIdx.x;
        const orcu_index i_1 = i0 + ((orcu_index)threadIdx.x + 128);
        const orcu_index i_2 = i0 + ((orcu_index)threadIdx.x + 256);
        const orcu_index i_3 = i0 + ((orcu_index)threadIdx.x + 384);
        double x2_j_acc_0 = i_0 < n ? x2[i_0] : (double)0;  // x2[i_0] stays in a register over the loop on j
        double x2_j_acc_1 = i_1 < n ? x2[i_1] : (double)0;  // x2[i_1] stays in a register over the loop on j
        double x2_j_acc_2 = i_2 < n ? x2[i_2] : (double)0;  // x2[i_2] stays in a register over the loop on j
        double x2_j_acc_3 = i_3 < n ? x2[i_3] : (double)0;  // x2[i_3] stays in a register over the loop on j
        for (j = 0; j < n; j++) {
            if (i_0 < n) {
                x2_j_acc_0 = x2_j_acc_0 + A[j * n + i_0] * (y2_in_constant ? orcu_constant_double_y2[j] : y2[j]);
            }
            if (i_1 < n) {
                x2_j_acc_1 = x2_j_acc_1 + A[j * n + i_1] * (y2_in_constant ? orcu_constant_double_y2[j] : y2[j]);
            }
            if (i_2 < n) {
                x2_j_acc_2 = x2_j_acc_2 + A[j * n + i_2] * (y2_in_constant ? orcu_constant_double_y2[j] : y2[j]);
            }
            if (i_3 < n) {
                x2_j_acc_3 = x2_j_acc_3 + A[j * n + i_3] * (y2_in_constant ? orcu_constant_double_y2[j] : y2[j]);
            }
        }
        if (i_0 < n) x2[i_0] = x2_j_acc_0;
        if (i_1 < n) x2[i_1] = x2_j_acc_1;
        if (i_2 < n) x2[i_2] = x2_j_acc_2;
        if (i_3 < n) x2[i_3] = x2_j_acc_3;
    }
}

#ifdef ORCU_ALLOW_ALIASING
// The loop at ex/mvt.c:29 as written, on the host: what orcu_mvt_2 runs when the arrays it
// is given overlap.
static void orcu_mvt_2_on_host(int n, double *x2, const double *A, const double *y2)
{
    int i;
    int j;
    for (i = 0; i < n; i++) {
        for (j = 0; j < n; j++) {
            x2[i] = x2[i] + A[j * n + i] * y2[j];
        }
    }
}
#endif

// What orcu_mvt_2 keeps from one call to the next: allocating costs more than copying
// small arrays. orcu_release_mvt_2() frees it.
static orcu_buffer orcu_mvt_2_buffers[3];

// Frees what orcu_mvt_2 keeps between calls (nothing is lost: the next call allocates again).
void orcu_release_mvt_2(void)
{
    orcu_release_buffers(orcu_mvt_2_buffers, 3);
}

// Runs the loop at ex/mvt.c:29 on the GPU (threadCount=128, vectorize=False, mapping='x=i', registerTile={'i': 4}, shared=[], sharedDepth=16, constant=['y2']);
// returns when its results are in host memory.
static void orcu_mvt_2(int n, double *x2, const double *A, const double *y2)
{
    // What the region before this one left on the device: used where it covers what this loop
    // touches; its elements not yet copied back to the host are, whatever happens.
    const orcu_handoff orcu_A_handed = orcu_take(&orcu_handoff_mvt_1[0]);
    // Each grid loop's most iterations (times its step) over the loops around it: blocks enough to cover them.
    const long long orcu_span_i = (long long)n;
    if (orcu_span_i <= 0) {  // no iteration: nothing to compute or move
        orcu_flush(&orcu_A_handed);
        return;
    }
    // The elements each array's accesses reach: [first, end).
    const long long orcu_x2_first = 0LL, orcu_x2_end = (long long)n;
    const long long orcu_A_first = 0LL, orcu_A_end = (long long)n * n;
    const long long orcu_y2_first = 0LL, orcu_y2_end = (long long)n;
    // The iterations run at once, each on its own elements: no array may overlap one that is written.
    if (orcu_overlap(x2 + orcu_x2_first, x2 + orcu_x2_end, A + orcu_A_first, A + orcu_A_end)
        || orcu_overlap(x2 + orcu_x2_first, x2 + orcu_x2_end, y2 + orcu_y2_first, y2 + orcu_y2_end)) {
#ifdef ORCU_ALLOW_ALIASING
        orcu_flush(&orcu_A_handed);
        orcu_mvt_2_on_host(n, x2, A, y2);
        return;
#endif
        orcu_aliased("orcu_mvt_2");
    }
    const dim3 orcu_block(128, 1);
    const dim3 orcu_grid(orcu_blocks_along(orcu_span_i, 512LL, 2147483647LL), 1);
    // 32-bit indices unless the grid runs past the last iteration beyond INT_MAX, or an array
    // has more elements than that.
    const bool orcu_wide = (long long)n + (long long)orcu_grid.x * 512 > INT_MAX || orcu_x2_end > INT_MAX || orcu_A_end > INT_MAX || orcu_y2_end > INT_MAX;
    decltype(&orcu_mvt_2_kernel<int>) const orcu_kernel = orcu_wide ? orcu_mvt_2_kernel<long long> : orcu_mvt_2_kernel<int>;
    const bool orcu_A_kept = orcu_kept(&orcu_A_handed, A, orcu_A_first, orcu_A_end);
    if (!orcu_A_kept)
        orcu_flush(&orcu_A_handed);

    // Device copies of the arrays, indexed as on the host so the loop body runs unchanged.
    double *const d_x2 = (double *)orcu_device_buffer(&orcu_mvt_2_buffers[0], sizeof(double) * orcu_count(0, orcu_x2_end));
    double *const d_A = orcu_A_kept ? (double *)orcu_A_handed.device
        : (double *)orcu_device_buffer(&orcu_mvt_2_buffers[1], sizeof(double) * orcu_count(0, orcu_A_end));
    double *const d_y2 = (double *)orcu_device_buffer(&orcu_mvt_2_buffers[2], sizeof(double) * orcu_count(0, orcu_y2_end));

    ORCU_CHECK(cudaMemcpy(d_x2 + orcu_x2_first, x2 + orcu_x2_first, sizeof(double) * orcu_count(orcu_x2_first, orcu_x2_end), cudaMemcpyHostToDevice));
    if (!orcu_A_kept)
        ORCU_CHECK(cudaMemcpy(d_A + orcu_A_first, A + orcu_A_first, sizeof(double) * orcu_count(orcu_A_first, orcu_A_end), cudaMemcpyHostToDevice));
    ORCU_CHECK(cudaMemcpy(d_y2 + orcu_y2_first, y2 + orcu_y2_first, sizeof(double) * orcu_count(orcu_y2_first, orcu_y2_end), cudaMemcpyHostToDevice));

    // y2 in constant memory when its elements [0, end) fit, copied from its device copy.
    const bool y2_in_constant = orcu_y2_end <= 2048;
    if (y2_in_constant)
        ORCU_CHECK(cudaMemcpyToSymbolAsync(orcu_constant_double_y2, d_y2, sizeof(double) * orcu_y2_end, 0, cudaMemcpyDeviceToDevice, 0));
    ORCU_LAUNCH(orcu_kernel, orcu_grid, orcu_block, 0, 0, d_x2, d_A, d_y2, n, y2_in_constant);
    ORCU_CHECK(cudaGetLastError());
    if (orcu_A_kept)
        orcu_flush(&orcu_A_handed);  // before this loop's own copies: they may overlap
    ORCU_CHECK(cudaMemcpy(x2 + orcu_x2_first, d_x2 + orcu_x2_first, sizeof(double) * orcu_count(orcu_x2_first, orcu_x2_end), cudaMemcpyDeviceToHost));
}

#endif  // ORCU_ORIGINAL
// <<< orcu generated code: end
// >>> orcu generated code: begin
#ifdef __cplusplus
extern "C" void mvt(int n, const double *A, double *x1, double *x2, const double *y1, const double *y2);  // C linkage: C code calls it
#endif
// <<< orcu generated code: end
/* PolyBench mvt: x1 += A y1 and x2 += A^T y2, A row-major n x n, one nest each. */
void mvt(int n, const double *A, double *x1, double *x2, const double *y1, const double *y2) {
    int i, j;
    /*@ begin PerfTuning (
    def performance_params {
        param TC[] = [64, 128];
    }
    def input_params {
        param n[] = [37, 64];
    }
    def input_vars {
        decl dynamic double A[n*n] = random;
        decl dynamic double x1[n] = random;
        decl dynamic double x2[n] = random;
        decl dynamic double y1[n] = random;
        decl dynamic double y2[n] = random;
    }
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto', threadCount=TC)
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            x1[i] = x1[i] + A[i*n + j] * y1[j];
    ) @*/
#ifdef ORCU_ORIGINAL
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            x1[i] = x1[i] + A[i*n + j] * y1[j];
#else
    orcu_mvt_1(n, x1, A, y1);  // the loop above, run on the GPU by orcu
    (void)i; (void)j;  // only the original loops above use them
#endif
    /*@ end @*/
    /*@ begin Loop(transform CUDA(mapping='auto', threadCount=TC)
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            x2[i] = x2[i] + A[j*n + i] * y2[j];
    ) @*/
#ifdef ORCU_ORIGINAL
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            x2[i] = x2[i] + A[j*n + i] * y2[j];
#else
    orcu_mvt_2(n, x2, A, y2);  // the loop above, run on the GPU by orcu
    (void)i; (void)j;  // only the original loops above use them
#endif
    /*@ end @*/
    /*@ end @*/
}
