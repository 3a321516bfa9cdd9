// >>> orcu generated code: begin
/* Written by orcu 0.1.0 from ex/orio/dia_bands.c.
 * orcu_tridiag_1 (line 10): TC=64
 *     input n=1000; time 0.01003 ms (GPU kernel time predicted by orcu's performance model, which ranked the variants)
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

// Kernel of the loop at ex/orio/dia_bands.c:11 in tridiag():
//     for (i = 0; i <= n - 1; i++) {
//         y[i] = dia[i] * x[i];
//         y[i + n] = dia[i + n] * x[i];
//         y[i + 2*n] = y[i] + y[i + n] + dia[i + 2*n];
//     }
// Each thread runs iterations of 'i' a whole grid apart, so any grid covers any trip count.
// orcu_index is int, or long long in calls whose iterations or arrays reach past INT_MAX.
template <typename orcu_index>
__global__ void __launch_bounds__(64) orcu_tridiag_1_kernel(
    long long orcu_lo,
    long long orcu_hi,
    double *__restrict__ y,
    const double *__restrict__ dia,
    const double *__restrict__ x,
    int n)
{
    orcu_index i;
    const orcu_index orcu_stride = (orcu_index)gridDim.x * blockDim.x;
    for (i = (orcu_index)orcu_lo + ((orcu_index)blockIdx.x * blockDim.x + threadIdx.x); i < (orcu_index)orcu_hi; i += orcu_stride) {
        y[i] = dia[i] * x[i];
        y[i + n] = dia[i + n] * x[i];
        y[i + 2 * n] = y[i] + y[i + n] + dia[i + 2 * n];
    }
}

#ifdef ORCU_ALLOW_ALIASING
// The loop at ex/orio/dia_bands.c:11 as written, on the host: what orcu_tridiag_1 runs when the arrays it
// is given overlap.
static void orcu_tridiag_1_on_host(int n, double *y, const double *dia, const double *x)
{
    int i;
    for (i = 0; i < n; i++) {
        y[i] = dia[i] * x[i];
        y[i + n] = dia[i + n] * x[i];
        y[i + 2 * n] = y[i] + y[i + n] + dia[i + 2 * n];
    }
}
#endif

// What orcu_tridiag_1 keeps from one call to the next: allocating costs more than copying
// small arrays. orcu_release_tridiag_1() frees it.
static orcu_buffer orcu_tridiag_1_buffers[3];

// Frees what orcu_tridiag_1 keeps between calls (nothing is lost: the next call allocates again).
void orcu_release_tridiag_1(void)
{
    orcu_release_buffers(orcu_tridiag_1_buffers, 3);
}

// Runs the loop at ex/orio/dia_bands.c:11 on the GPU (threadCount=64, blockCount=4);
// returns when its results are in host memory.
static void orcu_tridiag_1(int n, double *y, const double *dia, const double *x)
{
    const long long orcu_lo = 0LL, orcu_hi = (long long)n;
    if (orcu_hi <= orcu_lo)
        return;  // no iteration: nothing to compute or move
    // The elements each array's accesses reach: [first, end).
    const long long orcu_y_first = 0LL, orcu_y_end = 3LL * n;
    const long long orcu_dia_first = 0LL, orcu_dia_end = 3LL * n;
    const long long orcu_x_first = 0LL, orcu_x_end = (long long)n;
    // The iterations run at once, each on its own elements: no array may overlap one that is written.
    if (orcu_overlap(y + orcu_y_first, y + orcu_y_end, dia + orcu_dia_first, dia + orcu_dia_end)
        || orcu_overlap(y + orcu_y_first, y + orcu_y_end, x + orcu_x_first, x + orcu_x_end)) {
#ifdef ORCU_ALLOW_ALIASING
        orcu_tridiag_1_on_host(n, y, dia, x);
        return;
#endif
        orcu_aliased("orcu_tridiag_1");
    }
    const int orcu_threads = 64;
    const int orcu_blocks = 4;
    // 32-bit indices unless the grid runs past the last iteration beyond INT_MAX, or an array
    // has more elements than that.
    const bool orcu_wide = orcu_hi + (long long)orcu_blocks * orcu_threads > INT_MAX || orcu_y_end > INT_MAX || orcu_dia_end > INT_MAX || orcu_x_end > INT_MAX;
    decltype(&orcu_tridiag_1_kernel<int>) const orcu_kernel = orcu_wide ? orcu_tridiag_1_kernel<long long> : orcu_tridiag_1_kernel<int>;

    // Device copies of the arrays, indexed as on the host so the loop body runs unchanged.
    double *const d_y = (double *)orcu_device_buffer(&orcu_tridiag_1_buffers[0], sizeof(double) * orcu_count(0, orcu_y_end));
    double *const d_dia = (double *)orcu_device_buffer(&orcu_tridiag_1_buffers[1], sizeof(double) * orcu_count(0, orcu_dia_end));
    double *const d_x = (double *)orcu_device_buffer(&orcu_tridiag_1_buffers[2], sizeof(double) * orcu_count(0, orcu_x_end));

    ORCU_CHECK(cudaMemcpy(d_y + orcu_y_first, y + orcu_y_first, sizeof(double) * orcu_count(orcu_y_first, orcu_y_end), cudaMemcpyHostToDevice));
    ORCU_CHECK(cudaMemcpy(d_dia + orcu_dia_first, dia + orcu_dia_first, sizeof(double) * orcu_count(orcu_dia_first, orcu_dia_end), cudaMemcpyHostToDevice));
    ORCU_CHECK(cudaMemcpy(d_x + orcu_x_first, x + orcu_x_first, sizeof(double) * orcu_count(orcu_x_first, orcu_x_end), cudaMemcpyHostToDevice));

    ORCU_LAUNCH(orcu_kernel, orcu_blocks, orcu_threads, 0, 0, orcu_lo, orcu_hi, d_y, d_dia, d_x, n);
    ORCU_CHECK(cudaGetLastError());
    ORCU_CHECK(cudaMemcpy(y + orcu_y_first, d_y + orcu_y_first, sizeof(double) * orcu_count(orcu_y_first, orcu_y_end), cudaMemcpyDeviceToHost));
}

#endif  // ORCU_ORIGINAL
// <<< orcu generated code: end
// >>> orcu generated code: begin
#ifdef __cplusplus
extern "C" void tridiag(int n, double *dia, double *x, double *y);  // C linkage: C code calls it
#endif
// <<< orcu generated code: end
/* Three diagonals stored one after another (dia[i], dia[i + n], dia[i + 2*n]): for 0 <= i < n
   the bands never meet, so every iteration of 'i' writes elements of its own. */
void tridiag(int n, double *dia, double *x, double *y) {
    int i;
    /*@ begin PerfTuning (
    def performance_params { param TC[] = [32, 64]; }
    def input_params { param n[] = [1000]; }
    def input_vars { decl dynamic double dia[3*n] = random; decl dynamic double x[n] = random; decl dynamic double y[3*n] = 0; }
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC, blockCount=4)
    for (i = 0; i <= n - 1; i++) {
        y[i] = dia[i] * x[i];
        y[i + n] = dia[i + n] * x[i];
        y[i + 2*n] = y[i] + y[i + n] + dia[i + 2*n];
    }
    ) @*/
#ifdef ORCU_ORIGINAL
    for (i = 0; i <= n - 1; i++) {
        y[i] = dia[i] * x[i];
        y[i + n] = dia[i + n] * x[i];
        y[i + 2*n] = y[i] + y[i + n] + dia[i + 2*n];
    }
#else
    orcu_tridiag_1(n, y, dia, x);  // the loop above, run on the GPU by orcu
    (void)i;  // only the original loops above use it
#endif
/*@ end @*/
    /*@ end @*/
}
