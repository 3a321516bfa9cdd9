// >>> orcu generated code: begin
/* Written by orcu 0.1.0 from ex/orio/time_steps.c.
 * orcu_jacobi1d_1 (line 13): TC=128
 *     input T=6, n=3000; time 0.04136 ms (GPU kernel time predicted by orcu's performance model, which ranked the variants)
 * orcu_jacobi1d_2 (line 16): TC=128
 *     input T=6, n=3000; time 0.04136 ms (GPU kernel time predicted by orcu's performance model, which ranked the variants)
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

// Kernel of the loop at ex/orio/time_steps.c:13 in jacobi1d():
//     for (i = 1; i <= (n - 2); i++)
//       b[i] = 0.33333 * ((a[i - 1] + a[i]) + a[i + 1]);
// Each thread runs iterations of 'i' a whole grid apart, so any grid covers any trip count.
// orcu_index is int, or long long in calls whose iterations or arrays reach past INT_MAX.
template <typename orcu_index>
__global__ void __launch_bounds__(128) orcu_jacobi1d_1_kernel(
    long long orcu_lo,
    long long orcu_hi,
    double *b,
    const double *a)
{
    orcu_index i;
    const orcu_index orcu_stride = (orcu_index)gridDim.x * blockDim.x;
    for (i = (orcu_index)orcu_lo + ((orcu_index)blockIdx.x * blockDim.x + threadIdx.x); i < (orcu_index)orcu_hi; i += orcu_stride) {
        b[i] = 0.33333 * (a[i - 1] + a[i] + a[i + 1]);
    }
}

// Frees what orcu_jacobi1d_1 keeps between calls (nothing is lost: the next call allocates again).
void orcu_release_jacobi1d_1(void)
{
}

// Runs the loop at ex/orio/time_steps.c:13 on the GPU (threadCount=128, blockCount=16);
// returns when its results are in device memory.
static void orcu_jacobi1d_1(int n, double *b, const double *a)
{
    const long long orcu_lo = 1LL, orcu_hi = (long long)n - 2 + 1;
    if (orcu_hi <= orcu_lo)
        return;  // no iteration: nothing to compute or move
    // The elements each array's accesses reach: [first, end).
    const long long orcu_b_first = 1LL, orcu_b_end = (long long)n - 1;
    const long long orcu_a_first = 0LL, orcu_a_end = (long long)n;
    // The iterations run at once, each on its own elements: no array may overlap one that is written.
    if (orcu_overlap(b + orcu_b_first, b + orcu_b_end, a + orcu_a_first, a + orcu_a_end)) {
        orcu_aliased("orcu_jacobi1d_1");
    }
    const int orcu_threads = 128;
    const int orcu_blocks = 16;
    // 32-bit indices unless the grid runs past the last iteration beyond INT_MAX, or an array
    // has more elements than that.
    const bool orcu_wide = orcu_hi + (long long)orcu_blocks * orcu_threads > INT_MAX || orcu_b_end > INT_MAX || orcu_a_end > INT_MAX;
    decltype(&orcu_jacobi1d_1_kernel<int>) const orcu_kernel = orcu_wide ? orcu_jacobi1d_1_kernel<long long> : orcu_jacobi1d_1_kernel<int>;

    ORCU_LAUNCH(orcu_kernel, orcu_blocks, orcu_threads, 0, 0, orcu_lo, orcu_hi, b, a);
    ORCU_CHECK(cudaGetLastError());
    // no wait: the region keeps its arrays on the device, and the next launch or the copy back after the region waits for this kernel
}

// Kernel of the loop at ex/orio/time_steps.c:16 in jacobi1d():
//     for (j = 1; j <= (n - 2); j++)
//       a[j] = b[j];
// Each thread runs iterations of 'j' a whole grid apart, so any grid covers any trip count.
// orcu_index is int, or long long in calls whose iterations or arrays reach past INT_MAX.
template <typename orcu_index>
__global__ void __launch_bounds__(128) orcu_jacobi1d_2_kernel(
    long long orcu_lo,
    long long orcu_hi,
    const double *b,
    double *a)
{
    orcu_index j;
    const orcu_index orcu_stride = (orcu_index)gridDim.x * blockDim.x;
    for (j = (orcu_index)orcu_lo + ((orcu_index)blockIdx.x * blockDim.x + threadIdx.x); j < (orcu_index)orcu_hi; j += orcu_stride) {
        a[j] = b[j];
    }
}

// Frees what orcu_jacobi1d_2 keeps between calls (nothing is lost: the next call allocates again).
void orcu_release_jacobi1d_2(void)
{
}

// Runs the loop at ex/orio/time_steps.c:16 on the GPU (threadCount=128, blockCount=16);
// returns when its results are in device memory.
static void orcu_jacobi1d_2(int n, const double *b, double *a)
{
    const long long orcu_lo = 1LL, orcu_hi = (long long)n - 2 + 1;
    if (orcu_hi <= orcu_lo)
        return;  // no iteration: nothing to compute or move
    // The elements each array's accesses reach: [first, end).
    const long long orcu_b_first = 1LL, orcu_b_end = (long long)n - 1;
    const long long orcu_a_first = 1LL, orcu_a_end = (long long)n - 1;
    // The iterations run at once, each on its own elements: no array may overlap one that is written.
    if (orcu_overlap(b + orcu_b_first, b + orcu_b_end, a + orcu_a_first, a + orcu_a_end)) {
        orcu_aliased("orcu_jacobi1d_2");
    }
    const int orcu_threads = 128;
    const int orcu_blocks = 16;
    // 32-bit indices unless the grid runs past the last iteration beyond INT_MAX, or an array
    // has more elements than that.
    const bool orcu_wide = orcu_hi + (long long)orcu_blocks * orcu_threads > INT_MAX || orcu_b_end > INT_MAX || orcu_a_end > INT_MAX;
    decltype(&orcu_jacobi1d_2_kernel<int>) const orcu_kernel = orcu_wide ? orcu_jacobi1d_2_kernel<long long> : orcu_jacobi1d_2_kernel<int>;

    ORCU_LAUNCH(orcu_kernel, orcu_blocks, orcu_threads, 0, 0, orcu_lo, orcu_hi, b, a);
    ORCU_CHECK(cudaGetLastError());
    // no wait: the region keeps its arrays on the device, and the next launch or the copy back after the region waits for this kernel
}

#endif  // ORCU_ORIGINAL
// <<< orcu generated code: end
// >>> orcu generated code: begin
#ifdef __cplusplus
extern "C" void jacobi1d(int T, int n, double *a, double *b);  // C linkage: C code calls it
#endif
// <<< orcu generated code: end
/* A time-stepped stencil: the loop over t stays on the host and launches both kernels at every
   step; the arrays go to the device once before the steps and come back once after them. */
void jacobi1d(int T, int n, double *a, double *b) {
    int t, i, j;
    /*@ begin PerfTuning (
    def performance_params { param TC[] = [32, 128]; }
    def input_params { param T[] = [6]; param n[] = [3000]; }
    def input_vars { decl dynamic double a[n] = random; decl dynamic double b[n] = 0; }
    ) @*/
    /*@ begin Loop(
    for (t = 0; t <= T - 1; t++) {
        transform CUDA(threadCount=TC, blockCount=16)
        for (i = 1; i <= n - 2; i++)
            b[i] = 0.33333 * (a[i - 1] + a[i] + a[i + 1]);
        transform CUDA(threadCount=TC, blockCount=16)
        for (j = 1; j <= n - 2; j++)
            a[j] = b[j];
    }
    ) @*/
#ifdef ORCU_ORIGINAL
    for (t = 0; t <= T - 1; t++) {
        for (i = 1; i <= n - 2; i++)
            b[i] = 0.33333 * (a[i - 1] + a[i] + a[i + 1]);
        for (j = 1; j <= n - 2; j++)
            a[j] = b[j];
    }
#else
    {   // b, a stay on the device while the region's loops run: copied in once, back once
        const long long orcu_b_count = (long long)(n - 1);
        void *const orcu_on_device_b = orcu_resident_in(b, orcu_b_count, sizeof(double));
        const long long orcu_a_count = ((long long)(n) > (long long)(n - 1) ? (long long)(n) : (long long)(n - 1));
        void *const orcu_on_device_a = orcu_resident_in(a, orcu_a_count, sizeof(double));
        for (t = 0; t <= (T - 1); t++)
        {
          orcu_jacobi1d_1(n, (decltype(&b[0]))orcu_on_device_b, (decltype(&a[0]))orcu_on_device_a);  // the loop at line 13, run on the GPU by orcu
          orcu_jacobi1d_2(n, (decltype(&b[0]))orcu_on_device_b, (decltype(&a[0]))orcu_on_device_a);  // the loop at line 16, run on the GPU by orcu
        }
        orcu_resident_out((void *)b, orcu_on_device_b, orcu_b_count, sizeof(double), true);
        orcu_resident_out((void *)a, orcu_on_device_a, orcu_a_count, sizeof(double), true);
    }
    (void)i; (void)j;  // only the original loops above use them
#endif
/*@ end @*/
    /*@ end @*/
}
