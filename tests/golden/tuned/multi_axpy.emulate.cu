// >>> orcu generated code: begin
/* Written by orcu 0.1.0 from ex/multi_axpy.c.
 * orcu_multi_axpy_1 (line 22): TC=128, BC=1056, UIF=1
 *     input n=50000, nv=4; time 0.007027 ms (GPU kernel time predicted by orcu's performance model, which ranked the variants)
 * orcu_multi_axpy_1 (line 22): TC=128, BC=1056, UIF=1
 *     input n=50000, nv=6; time 0.007394 ms (GPU kernel time predicted by orcu's performance model, which ranked the variants)
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

// Kernel of the loop at ex/multi_axpy.c:23 in multi_axpy():
//     for (i = 0; i <= n-1; i++)
//         for (k = 0; k <= nv-1; k++)
//             y[i] += a[k] * X[i + k*n];
// Each thread runs iterations of 'i' a whole grid apart, so any grid covers any trip count.
// orcu_index is int, or long long in calls whose iterations or arrays reach past INT_MAX.
template <typename orcu_index>
__global__ void __launch_bounds__(128) orcu_multi_axpy_1_kernel(
    long long orcu_lo,
    long long orcu_hi,
    double *__restrict__ y,
    const double *__restrict__ a,
    const double *__restrict__ X,
    int n,
    int nv)
{
    orcu_index i, k;
    const orcu_index orcu_stride = (orcu_index)gridDim.x * blockDim.x;
    for (i = (orcu_index)orcu_lo + ((orcu_index)blockIdx.x * blockDim.x + threadIdx.x); i < (orcu_index)orcu_hi; i += orcu_stride) {
        double y_k_acc = y[i];  // y[i] stays in a register over the loop on k
        for (k = 0; k < nv; k++) {
            y_k_acc += a[k] * X[i + k * n];
        }
        y[i] = y_k_acc;
    }
}

#ifdef ORCU_ALLOW_ALIASING
// The loop at ex/multi_axpy.c:23 as written, on the host: what orcu_multi_axpy_1 runs when the arrays it
// is given overlap.
static void orcu_multi_axpy_1_on_host(int n, int nv, double *y, const double *a, const double *X)
{
    int i;
    int k;
    for (i = 0; i < n; i++) {
        for (k = 0; k < nv; k++) {
            y[i] += a[k] * X[i + k * n];
        }
    }
}
#endif

// What orcu_multi_axpy_1 keeps from one call to the next: allocating costs more than copying
// small arrays. orcu_release_multi_axpy_1() frees it.
static orcu_buffer orcu_multi_axpy_1_buffers[3];

// Frees what orcu_multi_axpy_1 keeps between calls (nothing is lost: the next call allocates again).
void orcu_release_multi_axpy_1(void)
{
    orcu_release_buffers(orcu_multi_axpy_1_buffers, 3);
}

// Runs the loop at ex/multi_axpy.c:23 on the GPU (threadCount=128, blockCount=1056, unrollInner=1);
// returns when its results are in host memory.
static void orcu_multi_axpy_1(int n, int nv, double *y, const double *a, const double *X)
{
    const long long orcu_lo = 0LL, orcu_hi = (long long)n;
    if (orcu_hi <= orcu_lo)
        return;  // no iteration: nothing to compute or move
    // The elements each array's accesses reach: [first, end).
    const long long orcu_y_first = 0LL, orcu_y_end = (long long)n;
    const long long orcu_a_first = 0LL, orcu_a_end = (long long)nv;
    const long long orcu_X_first = 0LL, orcu_X_end = (long long)n * nv;
    // The iterations run at once, each on its own elements: no array may overlap one that is written.
    if (orcu_overlap(y + orcu_y_first, y + orcu_y_end, a + orcu_a_first, a + orcu_a_end)
        || orcu_overlap(y + orcu_y_first, y + orcu_y_end, X + orcu_X_first, X + orcu_X_end)) {
#ifdef ORCU_ALLOW_ALIASING
        orcu_multi_axpy_1_on_host(n, nv, y, a, X);
        return;
#endif
        orcu_aliased("orcu_multi_axpy_1");
    }
    const int orcu_threads = 128;
    const int orcu_blocks = 1056;
    // 32-bit indices unless the grid runs past the last iteration beyond INT_MAX, or an array
    // has more elements than that.
    const bool orcu_wide = orcu_hi + (long long)orcu_blocks * orcu_threads > INT_MAX || orcu_y_end > INT_MAX || orcu_a_end > INT_MAX || orcu_X_end > INT_MAX;
    decltype(&orcu_multi_axpy_1_kernel<int>) const orcu_kernel = orcu_wide ? orcu_multi_axpy_1_kernel<long long> : orcu_multi_axpy_1_kernel<int>;

    // Device copies of the arrays, indexed as on the host so the loop body runs unchanged.
    double *const d_y = (double *)orcu_device_buffer(&orcu_multi_axpy_1_buffers[0], sizeof(double) * orcu_count(0, orcu_y_end));
    double *const d_a = (double *)orcu_device_buffer(&orcu_multi_axpy_1_buffers[1], sizeof(double) * orcu_count(0, orcu_a_end));
    double *const d_X = (double *)orcu_device_buffer(&orcu_multi_axpy_1_buffers[2], sizeof(double) * orcu_count(0, orcu_X_end));

    ORCU_CHECK(cudaMemcpy(d_y + orcu_y_first, y + orcu_y_first, sizeof(double) * orcu_count(orcu_y_first, orcu_y_end), cudaMemcpyHostToDevice));
    ORCU_CHECK(cudaMemcpy(d_a + orcu_a_first, a + orcu_a_first, sizeof(double) * orcu_count(orcu_a_first, orcu_a_end), cudaMemcpyHostToDevice));
    ORCU_CHECK(cudaMemcpy(d_X + orcu_X_first, X + orcu_X_first, sizeof(double) * orcu_count(orcu_X_first, orcu_X_end), cudaMemcpyHostToDevice));

    ORCU_LAUNCH(orcu_kernel, orcu_blocks, orcu_threads, 0, 0, orcu_lo, orcu_hi, d_y, d_a, d_X, n, nv);
    ORCU_CHECK(cudaGetLastError());
    ORCU_CHECK(cudaMemcpy(y + orcu_y_first, d_y + orcu_y_first, sizeof(double) * orcu_count(orcu_y_first, orcu_y_end), cudaMemcpyDeviceToHost));
}

#endif  // ORCU_ORIGINAL
// <<< orcu generated code: end
// >>> orcu generated code: begin
#ifdef __cplusplus
extern "C" void multi_axpy(int n, int nv, const double *a, const double *X, double *y);  // C linkage: C code calls it
#endif
// <<< orcu generated code: end
/* y += sum over k of a[k] * X_k, the nv vectors X_k stored one after another in X:
 * a nested loop whose inner loop is unrolled by the tuner. */
void multi_axpy(int n, int nv, const double *a, const double *X, double *y) {
    int i, k;
    /*@ begin PerfTuning (
    def performance_params {
        param TC[] = [128, 256, 512];
        param BC[] = [device_sms * f for f in [1, 2, 4, 8]];
        param UIF[] = range(1, 5);
        constraint unroll_divides = nv % UIF == 0 or UIF == 1;
    }
    def input_params {
        param n[] = [50000];
        param nv[] = [4, 6];
    }
    def input_vars {
        decl static double a[nv] = random;
        decl static double X[n*nv] = random;
        decl static double y[n] = 0;
    }
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC, blockCount=BC, unrollInner=UIF)
    for (i = 0; i <= n-1; i++)
        for (k = 0; k <= nv-1; k++)
            y[i] += a[k] * X[i + k*n];
    ) @*/
#ifdef ORCU_ORIGINAL
    for (i = 0; i <= n-1; i++)
        for (k = 0; k <= nv-1; k++)
            y[i] += a[k] * X[i + k*n];
#else
    orcu_multi_axpy_1(n, nv, y, a, X);  // the loop above, run on the GPU by orcu
    (void)i; (void)k;  // only the original loops above use them
#endif
    /*@ end @*/
    /*@ end @*/
}
