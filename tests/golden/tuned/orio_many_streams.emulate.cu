// >>> orcu generated code: begin
/* Written by orcu 0.1.0 from ex/orio/many_streams.c.
 * orcu_vecxpy_1 (line 9): SC=30
 *     input n=3000; time 0.006188 ms (GPU kernel time predicted by orcu's performance model, which ranked the variants)
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

// streamCount: the iterations [lo, hi) of chunk s of `chunks` (its share of `trip` iterations
// of step `step` from `first`); false when it has none.
static inline bool orcu_chunk(long long first, long long trip, int step, int s, int chunks, long long *lo, long long *hi)
{
    const long long begin = trip * s / chunks, end = trip * (s + 1) / chunks;
    *lo = first + begin * step;
    *hi = first + (end - 1) * step + 1;
    return end > begin;
}

// Kernel of the loop at ex/orio/many_streams.c:10 in vecxpy():
//     for (i = 0; i <= n - 1; i++)
//         y[i] = x[i] + y[i];
// Each thread runs iterations of 'i' a whole grid apart, so any grid covers any trip count.
// orcu_index is int, or long long in calls whose iterations or arrays reach past INT_MAX.
template <typename orcu_index>
__global__ void __launch_bounds__(64) orcu_vecxpy_1_kernel(
    long long orcu_lo,
    long long orcu_hi,
    double *__restrict__ y,
    const double *__restrict__ x)
{
    orcu_index i;
    const orcu_index orcu_stride = (orcu_index)gridDim.x * blockDim.x;
    for (i = (orcu_index)orcu_lo + ((orcu_index)blockIdx.x * blockDim.x + threadIdx.x); i < (orcu_index)orcu_hi; i += orcu_stride) {
        y[i] = x[i] + y[i];
    }
}

#ifdef ORCU_ALLOW_ALIASING
// The loop at ex/orio/many_streams.c:10 as written, on the host: what orcu_vecxpy_1 runs when the arrays it
// is given overlap.
static void orcu_vecxpy_1_on_host(int n, double *y, const double *x)
{
    int i;
    for (i = 0; i < n; i++) {
        y[i] = x[i] + y[i];
    }
}
#endif

// What orcu_vecxpy_1 keeps from one call to the next: allocating costs more than copying
// small arrays. orcu_release_vecxpy_1() frees it.
static orcu_buffer orcu_vecxpy_1_buffers[4];
static cudaStream_t orcu_vecxpy_1_streams[30];
static cudaEvent_t orcu_vecxpy_1_ready;

// Frees what orcu_vecxpy_1 keeps between calls (nothing is lost: the next call allocates again).
void orcu_release_vecxpy_1(void)
{
    orcu_release_buffers(orcu_vecxpy_1_buffers, 4);
    if (orcu_vecxpy_1_streams[0] != NULL) {
        for (int orcu_s = 0; orcu_s < 30; orcu_s++) {
            ORCU_CHECK(cudaStreamDestroy(orcu_vecxpy_1_streams[orcu_s]));
            orcu_vecxpy_1_streams[orcu_s] = NULL;
        }
        ORCU_CHECK(cudaEventDestroy(orcu_vecxpy_1_ready));
    }
}

// Runs the loop at ex/orio/many_streams.c:10 on the GPU (threadCount=64, blockCount=30, streamCount=30);
// returns when its results are in host memory.
static void orcu_vecxpy_1(int n, double *y, const double *x)
{
    const long long orcu_lo = 0LL, orcu_hi = (long long)n;
    if (orcu_hi <= orcu_lo)
        return;  // no iteration: nothing to compute or move
    // The elements each array's accesses reach: [first, end) (an array copied in chunks, per stream, may need only its end).
    [[maybe_unused]] const long long orcu_y_first = 0LL, orcu_y_end = (long long)n;
    [[maybe_unused]] const long long orcu_x_first = 0LL, orcu_x_end = (long long)n;
    // The iterations run at once, each on its own elements: no array may overlap one that is written.
    if (orcu_overlap(y + orcu_y_first, y + orcu_y_end, x + orcu_x_first, x + orcu_x_end)) {
#ifdef ORCU_ALLOW_ALIASING
        orcu_vecxpy_1_on_host(n, y, x);
        return;
#endif
        orcu_aliased("orcu_vecxpy_1");
    }
    const long long orcu_trip = orcu_hi - orcu_lo;
    const int orcu_threads = 64;
    const int orcu_blocks = 30;
    // 32-bit indices unless the grid runs past the last iteration beyond INT_MAX, or an array
    // has more elements than that.
    const bool orcu_wide = orcu_hi + (long long)orcu_blocks * orcu_threads > INT_MAX || orcu_y_end > INT_MAX || orcu_x_end > INT_MAX;
    decltype(&orcu_vecxpy_1_kernel<int>) const orcu_kernel = orcu_wide ? orcu_vecxpy_1_kernel<long long> : orcu_vecxpy_1_kernel<int>;

    // Device copies of the arrays, indexed as on the host so the loop body runs unchanged.
    double *const d_y = (double *)orcu_device_buffer(&orcu_vecxpy_1_buffers[0], sizeof(double) * orcu_count(0, orcu_y_end));
    double *const d_x = (double *)orcu_device_buffer(&orcu_vecxpy_1_buffers[2], sizeof(double) * orcu_count(0, orcu_x_end));

    // streamCount=30: chunk s runs iterations [trip*s/30, trip*(s+1)/30) in its own stream, so its
    // copies overlap the other chunks' kernels. Those copies go through pinned staging buffers:
    // pinning the caller's arrays on every call would cost more than it saves.
    cudaStream_t *const orcu_stream = orcu_vecxpy_1_streams;
    if (orcu_stream[0] == NULL) {
        for (int orcu_s = 0; orcu_s < 30; orcu_s++)
            ORCU_CHECK(cudaStreamCreateWithFlags(&orcu_stream[orcu_s], cudaStreamNonBlocking));
        ORCU_CHECK(cudaEventCreateWithFlags(&orcu_vecxpy_1_ready, cudaEventDisableTiming));
    }
    double *const orcu_y_staged = (double *)orcu_pinned_buffer(&orcu_vecxpy_1_buffers[1], sizeof(double) * orcu_count(0, orcu_y_end));
    double *const orcu_x_staged = (double *)orcu_pinned_buffer(&orcu_vecxpy_1_buffers[3], sizeof(double) * orcu_count(0, orcu_x_end));
    for (int orcu_s = 0; orcu_s < 30; orcu_s++) {
        long long orcu_chunk_lo, orcu_chunk_hi;
        if (!orcu_chunk(orcu_lo, orcu_trip, 1, orcu_s, 30, &orcu_chunk_lo, &orcu_chunk_hi))
            continue;  // more streams than iterations
        memcpy(orcu_y_staged + orcu_chunk_lo, y + orcu_chunk_lo, sizeof(double) * orcu_count(orcu_chunk_lo, orcu_chunk_hi));
        ORCU_CHECK(cudaMemcpyAsync(d_y + orcu_chunk_lo, orcu_y_staged + orcu_chunk_lo, sizeof(double) * orcu_count(orcu_chunk_lo, orcu_chunk_hi), cudaMemcpyHostToDevice, orcu_stream[orcu_s]));
        memcpy(orcu_x_staged + orcu_chunk_lo, x + orcu_chunk_lo, sizeof(double) * orcu_count(orcu_chunk_lo, orcu_chunk_hi));
        ORCU_CHECK(cudaMemcpyAsync(d_x + orcu_chunk_lo, orcu_x_staged + orcu_chunk_lo, sizeof(double) * orcu_count(orcu_chunk_lo, orcu_chunk_hi), cudaMemcpyHostToDevice, orcu_stream[orcu_s]));
        ORCU_LAUNCH(orcu_kernel, orcu_blocks, orcu_threads, 0, orcu_stream[orcu_s], orcu_chunk_lo, orcu_chunk_hi, d_y, d_x);
        ORCU_CHECK(cudaGetLastError());
        ORCU_CHECK(cudaMemcpyAsync(orcu_y_staged + orcu_chunk_lo, d_y + orcu_chunk_lo, sizeof(double) * orcu_count(orcu_chunk_lo, orcu_chunk_hi), cudaMemcpyDeviceToHost, orcu_stream[orcu_s]));
    }
    for (int orcu_s = 0; orcu_s < 30; orcu_s++) {
        ORCU_CHECK(cudaStreamSynchronize(orcu_stream[orcu_s]));
        long long orcu_chunk_lo, orcu_chunk_hi;
        if (orcu_chunk(orcu_lo, orcu_trip, 1, orcu_s, 30, &orcu_chunk_lo, &orcu_chunk_hi)) {
            memcpy(y + orcu_chunk_lo, orcu_y_staged + orcu_chunk_lo, sizeof(double) * orcu_count(orcu_chunk_lo, orcu_chunk_hi));
        }
    }
}

#endif  // ORCU_ORIGINAL
// <<< orcu generated code: end
// >>> orcu generated code: begin
#ifdef __cplusplus
extern "C" void vecxpy(int n, double *x, double *y);  // C linkage: C code calls it
#endif
// <<< orcu generated code: end
/* streamCount as Orio's tests set it: any positive number of streams (CUDA sets no limit). */
void vecxpy(int n, double *x, double *y) {
    int i;
    /*@ begin PerfTuning (
    def performance_params { param SC[] = [2, 30]; }
    def input_params { param n[] = [3000]; }
    def input_vars { decl dynamic double x[n] = random; decl dynamic double y[n] = random; }
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=64, blockCount=30, streamCount=SC)
    for (i = 0; i <= n - 1; i++)
        y[i] = x[i] + y[i];
    ) @*/
#ifdef ORCU_ORIGINAL
    for (i = 0; i <= n - 1; i++)
        y[i] = x[i] + y[i];
#else
    orcu_vecxpy_1(n, y, x);  // the loop above, run on the GPU by orcu
    (void)i;  // only the original loops above use it
#endif
/*@ end @*/
    /*@ end @*/
}
