// >>> orcu generated code: begin
/* Written by orcu 0.1.0 from ex/orio/two_kernels.c.
 * orcu_waxpy_then_scale_1 (line 12): TC1=128
 *     input n=2000; time 0.006894 ms (GPU kernel time predicted by orcu's performance model, which ranked the variants)
 * orcu_waxpy_then_scale_2 (line 15): TC2=64
 *     input n=2000; time 0.006881 ms (GPU kernel time predicted by orcu's performance model, which ranked the variants)
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

// An array a Loop region keeps on the device while its loops run (its host code in between):
// elements [0, count) copied in before the first loop, and back after the last if written.
static void *orcu_resident_in(const void *host, long long count, size_t element)
{
    void *device = NULL;
    if (count > 0) {
        ORCU_CHECK(cudaMalloc(&device, (size_t)count * element));
        ORCU_CHECK(cudaMemcpy(device, host, (size_t)count * element, cudaMemcpyHostToDevice));
    }
    return device;
}

static void orcu_resident_out(void *host, void *device, long long count, size_t element, bool written)
{
    if (device == NULL)
        return;
    if (written)
        ORCU_CHECK(cudaMemcpy(host, device, (size_t)count * element, cudaMemcpyDeviceToHost));
    ORCU_CHECK(cudaFree(device));
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

// blockCount left to orcu: one thread per iteration, at most 32 blocks per multiprocessor
// (the grid-stride loop covers the rest).
static inline int orcu_blocks_for(long long iterations, int threads)
{
    const long long blocks = (iterations + threads - 1) / threads;
    const long long most = 32LL * orcu_multiprocessors();
    return (int)(blocks < most ? blocks : most);
}

// Kernel of the loop at ex/orio/two_kernels.c:12 in waxpy_then_scale():
//     for (i = 0; i <= (n - 1); i++)
//       w[i] = (a * x[i]) + y[i];
// Each thread runs iterations of 'i' a whole grid apart, so any grid covers any trip count.
// orcu_index is int, or long long in calls whose iterations or arrays reach past INT_MAX.
template <typename orcu_index>
__global__ void __launch_bounds__(128) orcu_waxpy_then_scale_1_kernel(
    long long orcu_lo,
    long long orcu_hi,
    double *w,
    const double *x,
    const double *y,
    double a)
{
    orcu_index i;
    const orcu_index orcu_stride = (orcu_index)gridDim.x * blockDim.x;
    for (i = (orcu_index)orcu_lo + ((orcu_index)blockIdx.x * blockDim.x + threadIdx.x); i < (orcu_index)orcu_hi; i += orcu_stride) {
        w[i] = a * x[i] + y[i];
    }
}

// Frees what orcu_waxpy_then_scale_1 keeps between calls (nothing is lost: the next call allocates again).
void orcu_release_waxpy_then_scale_1(void)
{
}

// Runs the loop at ex/orio/two_kernels.c:12 on the GPU (threadCount=128, blockCount=8);
// returns when its results are in device memory.
static void orcu_waxpy_then_scale_1(int n, double *w, double a, const double *x, const double *y)
{
    const long long orcu_lo = 0LL, orcu_hi = (long long)n;
    if (orcu_hi <= orcu_lo)
        return;  // no iteration: nothing to compute or move
    // The elements each array's accesses reach: [first, end).
    const long long orcu_w_first = 0LL, orcu_w_end = (long long)n;
    const long long orcu_x_first = 0LL, orcu_x_end = (long long)n;
    const long long orcu_y_first = 0LL, orcu_y_end = (long long)n;
    // The iterations run at once, each on its own elements: no array may overlap one that is written.
    if (orcu_overlap(w + orcu_w_first, w + orcu_w_end, x + orcu_x_first, x + orcu_x_end)
        || orcu_overlap(w + orcu_w_first, w + orcu_w_end, y + orcu_y_first, y + orcu_y_end)) {
        orcu_aliased("orcu_waxpy_then_scale_1");
    }
    const int orcu_threads = 128;
    const int orcu_blocks = 8;
    // 32-bit indices unless the grid runs past the last iteration beyond INT_MAX, or an array
    // has more elements than that.
    const bool orcu_wide = orcu_hi + (long long)orcu_blocks * orcu_threads > INT_MAX || orcu_w_end > INT_MAX || orcu_x_end > INT_MAX || orcu_y_end > INT_MAX;
    decltype(&orcu_waxpy_then_scale_1_kernel<int>) const orcu_kernel = orcu_wide ? orcu_waxpy_then_scale_1_kernel<long long> : orcu_waxpy_then_scale_1_kernel<int>;

    ORCU_LAUNCH(orcu_kernel, orcu_blocks, orcu_threads, 0, 0, orcu_lo, orcu_hi, w, x, y, a);
    ORCU_CHECK(cudaGetLastError());
    // no wait: the region keeps its arrays on the device, and the next launch or the copy back after the region waits for this kernel
}

// Kernel of the loop at ex/orio/two_kernels.c:15 in waxpy_then_scale():
//     for (j = 0; j <= (n - 1); j++)
//       y[j] = 2.0 * w[j];
// Each thread runs iterations of 'j' a whole grid apart, so any grid covers any trip count.
// orcu_index is int, or long long in calls whose iterations or arrays reach past INT_MAX.
template <typename orcu_index>
__global__ void __launch_bounds__(64) orcu_waxpy_then_scale_2_kernel(
    long long orcu_lo,
    long long orcu_hi,
    const double *w,
    double *y)
{
    orcu_index j;
    const orcu_index orcu_stride = (orcu_index)gridDim.x * blockDim.x;
    for (j = (orcu_index)orcu_lo + ((orcu_index)blockIdx.x * blockDim.x + threadIdx.x); j < (orcu_index)orcu_hi; j += orcu_stride) {
        y[j] = 2.0 * w[j];
    }
}

// Frees what orcu_waxpy_then_scale_2 keeps between calls (nothing is lost: the next call allocates again).
void orcu_release_waxpy_then_scale_2(void)
{
}

// Runs the loop at ex/orio/two_kernels.c:15 on the GPU (threadCount=64);
// returns when its results are in device memory.
static void orcu_waxpy_then_scale_2(int n, const double *w, double *y)
{
    const long long orcu_lo = 0LL, orcu_hi = (long long)n;
    if (orcu_hi <= orcu_lo)
        return;  // no iteration: nothing to compute or move
    // The elements each array's accesses reach: [first, end).
    const long long orcu_w_first = 0LL, orcu_w_end = (long long)n;
    const long long orcu_y_first = 0LL, orcu_y_end = (long long)n;
    // The iterations run at once, each on its own elements: no array may overlap one that is written.
    if (orcu_overlap(w + orcu_w_first, w + orcu_w_end, y + orcu_y_first, y + orcu_y_end)) {
        orcu_aliased("orcu_waxpy_then_scale_2");
    }
    const long long orcu_trip = orcu_hi - orcu_lo;
    const int orcu_threads = 64;
    const int orcu_blocks = orcu_blocks_for(orcu_trip, orcu_threads);
    // 32-bit indices unless the grid runs past the last iteration beyond INT_MAX, or an array
    // has more elements than that.
    const bool orcu_wide = orcu_hi + (long long)orcu_blocks * orcu_threads > INT_MAX || orcu_w_end > INT_MAX || orcu_y_end > INT_MAX;
    decltype(&orcu_waxpy_then_scale_2_kernel<int>) const orcu_kernel = orcu_wide ? orcu_waxpy_then_scale_2_kernel<long long> : orcu_waxpy_then_scale_2_kernel<int>;

    ORCU_LAUNCH(orcu_kernel, orcu_blocks, orcu_threads, 0, 0, orcu_lo, orcu_hi, w, y);
    ORCU_CHECK(cudaGetLastError());
    // no wait: the region keeps its arrays on the device, and the next launch or the copy back after the region waits for this kernel
}

#endif  // ORCU_ORIGINAL
// <<< orcu generated code: end
// >>> orcu generated code: begin
#ifdef __cplusplus
extern "C" void waxpy_then_scale(int n, double a, double *x, double *y, double *w);  // C linkage: C code calls it
#endif
// <<< orcu generated code: end
/* Two loops of one Loop region, each with its own transform (Orio writes them so): each
   becomes a kernel, launched in order, and the arrays stay on the device between them. */
void waxpy_then_scale(int n, double a, double *x, double *y, double *w) {
    int i, j;
    /*@ begin PerfTuning (
    def performance_params { param TC1[] = [32, 128]; param TC2[] = [64, 256]; }
    def input_params { param n[] = [2000]; }
    def input_vars { decl dynamic double x[n] = random; decl dynamic double y[n] = random; decl dynamic double w[n] = 0; decl double a = 1.5; }
    ) @*/
    /*@ begin Loop(
    transform CUDA(threadCount=TC1, blockCount=8)
    for (i = 0; i <= n - 1; i++)
        w[i] = a * x[i] + y[i];
    transform CUDA(threadCount=TC2)
    for (j = 0; j <= n - 1; j++)
        y[j] = 2.0 * w[j];
    ) @*/
#ifdef ORCU_ORIGINAL
    for (i = 0; i <= n - 1; i++)
        w[i] = a * x[i] + y[i];
    for (j = 0; j <= n - 1; j++)
        y[j] = 2.0 * w[j];
#else
    {   // w, x, y stay on the device while the region's loops run: copied in once, back once
        const long long orcu_w_count = (long long)(n);
        void *const orcu_on_device_w = orcu_resident_in(w, orcu_w_count, sizeof(double));
        const long long orcu_x_count = (long long)(n);
        void *const orcu_on_device_x = orcu_resident_in(x, orcu_x_count, sizeof(double));
        const long long orcu_y_count = (long long)(n);
        void *const orcu_on_device_y = orcu_resident_in(y, orcu_y_count, sizeof(double));
        orcu_waxpy_then_scale_1(n, (decltype(&w[0]))orcu_on_device_w, a, (decltype(&x[0]))orcu_on_device_x, (decltype(&y[0]))orcu_on_device_y);  // the loop at line 12, run on the GPU by orcu
        orcu_waxpy_then_scale_2(n, (decltype(&w[0]))orcu_on_device_w, (decltype(&y[0]))orcu_on_device_y);  // the loop at line 15, run on the GPU by orcu
        orcu_resident_out((void *)w, orcu_on_device_w, orcu_w_count, sizeof(double), true);
        orcu_resident_out((void *)x, orcu_on_device_x, orcu_x_count, sizeof(double), false);
        orcu_resident_out((void *)y, orcu_on_device_y, orcu_y_count, sizeof(double), true);
    }
    (void)i; (void)j;  // only the original loops above use them
#endif
/*@ end @*/
    /*@ end @*/
}
