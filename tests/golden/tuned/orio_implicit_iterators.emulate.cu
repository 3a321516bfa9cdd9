// >>> orcu generated code: begin
/* Written by orcu 0.1.0 from ex/orio/implicit_iterators.c.
 * orcu_scale2d_1 (line 8): TC=128
 *     input m=64, n=48; time 0.007286 ms (GPU kernel time predicted by orcu's performance model, which ranked the variants)
 * Device: NVIDIA H100 80GB HBM3 (sm_90, emulated on the CPU). Compiler: g++ (Debian 12.2.0-14+deb12u1) 12.2.0 with orcu's CUDA emulation.
 * Each Loop region runs on the GPU; compile with -DORCU_ORIGINAL for the original C loops.
 * The annotations are kept, so `orcu tune` can tune this file again.
 */
#ifndef ORCU_ORIGINAL
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
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

// Kernel of the loop at ex/orio/implicit_iterators.c:9 in scale2d():
//     for (i = 0; i <= m - 1; i++)
//         for (j = 0; j <= n - 1; j++)
//             A[i*n + j] = a * A[i*n + j];
// Each thread runs iterations of 'i' a whole grid apart, so any grid covers any trip count.
// orcu_index is int, or long long in calls whose iterations or arrays reach past INT_MAX.
template <typename orcu_index>
__global__ void __launch_bounds__(128) orcu_scale2d_1_kernel(
    long long orcu_lo,
    long long orcu_hi,
    double *__restrict__ A,
    int n,
    double a)
{
    orcu_index i, j;
    const orcu_index orcu_stride = (orcu_index)gridDim.x * blockDim.x;
    for (i = (orcu_index)orcu_lo + ((orcu_index)blockIdx.x * blockDim.x + threadIdx.x); i < (orcu_index)orcu_hi; i += orcu_stride) {
        for (j = 0; j < n; j++) {
            A[i * n + j] = a * A[i * n + j];
        }
    }
}

// What orcu_scale2d_1 keeps from one call to the next: allocating costs more than copying
// small arrays. orcu_release_scale2d_1() frees it.
static orcu_buffer orcu_scale2d_1_buffers[1];

// Frees what orcu_scale2d_1 keeps between calls (nothing is lost: the next call allocates again).
void orcu_release_scale2d_1(void)
{
    orcu_release_buffers(orcu_scale2d_1_buffers, 1);
}

// Runs the loop at ex/orio/implicit_iterators.c:9 on the GPU (threadCount=128, blockCount=8);
// returns when its results are in host memory.
static void orcu_scale2d_1(int m, int n, double *A, double a)
{
    const long long orcu_lo = 0LL, orcu_hi = (long long)m;
    if (orcu_hi <= orcu_lo)
        return;  // no iteration: nothing to compute or move
    // The elements each array's accesses reach: [first, end).
    const long long orcu_A_first = 0LL, orcu_A_end = (long long)m * n;
    const int orcu_threads = 128;
    const int orcu_blocks = 8;
    // 32-bit indices unless the grid runs past the last iteration beyond INT_MAX, or an array
    // has more elements than that.
    const bool orcu_wide = orcu_hi + (long long)orcu_blocks * orcu_threads > INT_MAX || orcu_A_end > INT_MAX;
    decltype(&orcu_scale2d_1_kernel<int>) const orcu_kernel = orcu_wide ? orcu_scale2d_1_kernel<long long> : orcu_scale2d_1_kernel<int>;

    // Device copies of the arrays, indexed as on the host so the loop body runs unchanged.
    double *const d_A = (double *)orcu_device_buffer(&orcu_scale2d_1_buffers[0], sizeof(double) * orcu_count(0, orcu_A_end));

    ORCU_CHECK(cudaMemcpy(d_A + orcu_A_first, A + orcu_A_first, sizeof(double) * orcu_count(orcu_A_first, orcu_A_end), cudaMemcpyHostToDevice));

    ORCU_LAUNCH(orcu_kernel, orcu_blocks, orcu_threads, 0, 0, orcu_lo, orcu_hi, d_A, n, a);
    ORCU_CHECK(cudaGetLastError());
    ORCU_CHECK(cudaMemcpy(A + orcu_A_first, d_A + orcu_A_first, sizeof(double) * orcu_count(orcu_A_first, orcu_A_end), cudaMemcpyDeviceToHost));
}

#endif  // ORCU_ORIGINAL
// <<< orcu generated code: end
// >>> orcu generated code: begin
#ifdef __cplusplus
extern "C" void scale2d(int m, int n, double a, double *A);  // C linkage: C code calls it
#endif
// <<< orcu generated code: end
/* Orio's inputs often leave loop iterators undeclared: they are int, as Orio takes them. */
void scale2d(int m, int n, double a, double *A) {
    /*@ begin PerfTuning (
    def performance_params { param TC[] = [32, 128]; }
    def input_params { param m[] = [64]; param n[] = [48]; }
    def input_vars { decl dynamic double A[m*n] = random; decl double a = 1.5; }
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC, blockCount=8)
    for (i = 0; i <= m - 1; i++)
        for (j = 0; j <= n - 1; j++)
            A[i*n + j] = a * A[i*n + j];
    ) @*/
#ifdef ORCU_ORIGINAL
    for (i = 0; i <= m - 1; i++)
        for (j = 0; j <= n - 1; j++)
            A[i*n + j] = a * A[i*n + j];
#else
    orcu_scale2d_1(m, n, A, a);  // the loop above, run on the GPU by orcu
#endif
/*@ end @*/
    /*@ end @*/
}
