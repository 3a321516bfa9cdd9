// >>> orcu generated code: begin
/* Written by orcu 0.1.0 from ex/spmv_dia.c.
 * orcu_MatMult_SeqDia_1 (line 37): TC=384, BC=528, UIF=1, PL=48, CFLAGS=' -O2'
 *     input m=32, n=32, nos=5, dof=1; time 0.006143 ms (GPU kernel time predicted by orcu's performance model, which ranked the variants)
 * orcu_MatMult_SeqDia_1 (line 37): TC=384, BC=528, UIF=1, PL=48, CFLAGS=' -O2'
 *     input m=64, n=64, nos=5, dof=1; time 0.006244 ms (GPU kernel time predicted by orcu's performance model, which ranked the variants)
 * orcu_MatMult_SeqDia_1 (line 37): TC=384, BC=528, UIF=1, PL=48, CFLAGS=' -O2'
 *     input m=128, n=128, nos=5, dof=1; time 0.006647 ms (GPU kernel time predicted by orcu's performance model, which ranked the variants)
 * orcu_MatMult_SeqDia_1 (line 37): TC=384, BC=528, UIF=1, PL=48, CFLAGS=' -O2'
 *     input m=256, n=256, nos=5, dof=1; time 0.007792 ms (GPU kernel time predicted by orcu's performance model, which ranked the variants)
 * orcu_MatMult_SeqDia_1 (line 37): TC=384, BC=528, UIF=1, PL=48, CFLAGS=' -O2'
 *     input m=512, n=512, nos=5, dof=1; time 0.01284 ms (GPU kernel time predicted by orcu's performance model, which ranked the variants)
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

// Kernel of the loop at ex/spmv_dia.c:39 in MatMult_SeqDia():
//     
//     for (i = 0; i <= nrows-1; i++) {
//         for (j = 0; j <= ndiags-1; j++) {
//             col = i + offsets[j];
//             if (col >= 0 && col < nrows)
//                 y[i] += A[i + j*nrows] * x[col];
//         }
//     }
// Each thread runs iterations of 'i' a whole grid apart, so any grid covers any trip count.
// orcu_index is int, or long long in calls whose iterations or arrays reach past INT_MAX.
template <typename orcu_index>
__global__ void __launch_bounds__(384) orcu_MatMult_SeqDia_1_kernel(
    long long orcu_lo,
    long long orcu_hi,
    const int *__restrict__ offsets,
    double *__restrict__ y,
    const double *__restrict__ A,
    const double *__restrict__ x,
    int nrows,
    int ndiags)
{
    orcu_index i, j;
    int col;
    const orcu_index orcu_stride = (orcu_index)gridDim.x * blockDim.x;
    for (i = (orcu_index)orcu_lo + ((orcu_index)blockIdx.x * blockDim.x + threadIdx.x); i < (orcu_index)orcu_hi; i += orcu_stride) {
        double y_j_acc = y[i];  // y[i] stays in a register over the loop on j
        for (j = 0; j < ndiags; j++) {
            col = i + offsets[j];
            if (col >= 0 && col < nrows)
                y_j_acc += A[i + j * nrows] * x[col];
        }
        y[i] = y_j_acc;
    }
}

#ifdef ORCU_ALLOW_ALIASING
// The loop at ex/spmv_dia.c:39 as written, on the host: what orcu_MatMult_SeqDia_1 runs when the arrays it
// is given overlap.
static void orcu_MatMult_SeqDia_1_on_host(
    int nrows,
    int ndiags,
    const int *offsets,
    double *y,
    const double *A,
    const double *x,
    int m,
    int n,
    int dof)
{
    int i;
    int col;
    int j;
    for (i = 0; i < nrows; i++) {
        for (j = 0; j < ndiags; j++) {
            col = i + offsets[j];
            if (col >= 0 && col < nrows)
                y[i] += A[i + j * nrows] * x[col];
        }
    }
}
#endif

// What orcu_MatMult_SeqDia_1 keeps from one call to the next: allocating costs more than copying
// small arrays. orcu_release_MatMult_SeqDia_1() frees it.
static orcu_buffer orcu_MatMult_SeqDia_1_buffers[4];

// Frees what orcu_MatMult_SeqDia_1 keeps between calls (nothing is lost: the next call allocates again).
void orcu_release_MatMult_SeqDia_1(void)
{
    orcu_release_buffers(orcu_MatMult_SeqDia_1_buffers, 4);
}

// Runs the loop at ex/spmv_dia.c:39 on the GPU (threadCount=384, blockCount=528, preferL1Size=48, unrollInner=1);
// returns when its results are in host memory.
static void orcu_MatMult_SeqDia_1(
    int nrows,
    int ndiags,
    const int *offsets,
    double *y,
    const double *A,
    const double *x,
    int m,
    int n,
    int dof)
{
    const long long orcu_lo = 0LL, orcu_hi = (long long)nrows;
    if (orcu_hi <= orcu_lo)
        return;  // no iteration: nothing to compute or move
    // The elements each array's accesses reach: [first, end).
    const long long orcu_offsets_first = 0LL, orcu_offsets_end = (long long)ndiags;
    const long long orcu_y_first = 0LL, orcu_y_end = (long long)nrows;
    const long long orcu_A_first = 0LL, orcu_A_end = (long long)ndiags * nrows;
    const long long orcu_x_first = 0LL, orcu_x_end = (long long)m * n * dof;
    // The iterations run at once, each on its own elements: no array may overlap one that is written.
    if (orcu_overlap(offsets + orcu_offsets_first, offsets + orcu_offsets_end, y + orcu_y_first, y + orcu_y_end)
        || orcu_overlap(y + orcu_y_first, y + orcu_y_end, A + orcu_A_first, A + orcu_A_end)
        || orcu_overlap(y + orcu_y_first, y + orcu_y_end, x + orcu_x_first, x + orcu_x_end)) {
#ifdef ORCU_ALLOW_ALIASING
        orcu_MatMult_SeqDia_1_on_host(nrows, ndiags, offsets, y, A, x, m, n, dof);
        return;
#endif
        orcu_aliased("orcu_MatMult_SeqDia_1");
    }
    const int orcu_threads = 384;
    const int orcu_blocks = 528;
    // 32-bit indices unless the grid runs past the last iteration beyond INT_MAX, or an array
    // has more elements than that.
    const bool orcu_wide = orcu_hi + (long long)orcu_blocks * orcu_threads > INT_MAX || orcu_offsets_end > INT_MAX || orcu_y_end > INT_MAX || orcu_A_end > INT_MAX || orcu_x_end > INT_MAX;
    decltype(&orcu_MatMult_SeqDia_1_kernel<int>) const orcu_kernel = orcu_wide ? orcu_MatMult_SeqDia_1_kernel<long long> : orcu_MatMult_SeqDia_1_kernel<int>;

    // Device copies of the arrays, indexed as on the host so the loop body runs unchanged.
    int *const d_offsets = (int *)orcu_device_buffer(&orcu_MatMult_SeqDia_1_buffers[0], sizeof(int) * orcu_count(0, orcu_offsets_end));
    double *const d_y = (double *)orcu_device_buffer(&orcu_MatMult_SeqDia_1_buffers[1], sizeof(double) * orcu_count(0, orcu_y_end));
    double *const d_A = (double *)orcu_device_buffer(&orcu_MatMult_SeqDia_1_buffers[2], sizeof(double) * orcu_count(0, orcu_A_end));
    double *const d_x = (double *)orcu_device_buffer(&orcu_MatMult_SeqDia_1_buffers[3], sizeof(double) * orcu_count(0, orcu_x_end));

    // preferL1Size=48: prefer a larger L1 cache for this kernel (restored below).
    ORCU_CHECK(cudaFuncSetCacheConfig(orcu_kernel, cudaFuncCachePreferL1));
    ORCU_CHECK(cudaFuncSetAttribute(orcu_kernel, cudaFuncAttributePreferredSharedMemoryCarveout, cudaSharedmemCarveoutMaxL1));

    ORCU_CHECK(cudaMemcpy(d_offsets + orcu_offsets_first, offsets + orcu_offsets_first, sizeof(int) * orcu_count(orcu_offsets_first, orcu_offsets_end), cudaMemcpyHostToDevice));
    ORCU_CHECK(cudaMemcpy(d_y + orcu_y_first, y + orcu_y_first, sizeof(double) * orcu_count(orcu_y_first, orcu_y_end), cudaMemcpyHostToDevice));
    ORCU_CHECK(cudaMemcpy(d_A + orcu_A_first, A + orcu_A_first, sizeof(double) * orcu_count(orcu_A_first, orcu_A_end), cudaMemcpyHostToDevice));
    ORCU_CHECK(cudaMemcpy(d_x + orcu_x_first, x + orcu_x_first, sizeof(double) * orcu_count(orcu_x_first, orcu_x_end), cudaMemcpyHostToDevice));

    ORCU_LAUNCH(orcu_kernel, orcu_blocks, orcu_threads, 0, 0, orcu_lo, orcu_hi, d_offsets, d_y, d_A, d_x, nrows, ndiags);
    ORCU_CHECK(cudaGetLastError());
    ORCU_CHECK(cudaMemcpy(y + orcu_y_first, d_y + orcu_y_first, sizeof(double) * orcu_count(orcu_y_first, orcu_y_end), cudaMemcpyDeviceToHost));

    ORCU_CHECK(cudaFuncSetCacheConfig(orcu_kernel, cudaFuncCachePreferNone));
    ORCU_CHECK(cudaFuncSetAttribute(orcu_kernel, cudaFuncAttributePreferredSharedMemoryCarveout, cudaSharedmemCarveoutDefault));
}

#endif  // ORCU_ORIGINAL
// <<< orcu generated code: end
// >>> orcu generated code: begin
#ifdef __cplusplus
extern "C" void MatMult_SeqDia(double *A, double *x, double *y, int *offsets, int m, int n, int nos, int dof);  // C linkage: C code calls it
#endif
// <<< orcu generated code: end
/* Sparse matrix-vector product y += A*x with A in DIA format: the annotated
 * example of the OrCuda paper (Mametjanov et al., Figure 3), for current GPUs. */
void MatMult_SeqDia(double* A, double* x, double* y, int* offsets,
                    int m, int n, int nos, int dof) {
    int i, j, col;
    /*@ begin PerfTuning (
    def performance_params {
        param TC[] = range(32, 1025, 32);
        param BC[] = [device_sms * k for k in [1, 2, 4, 8]];  # Fermi had 14 SMs; the GPU's own count
        param UIF[] = range(1, 6);
        param PL[] = [16, 48];
        param CFLAGS[] = map(join, product(['', '-use_fast_math'],
                                           ['', '-O1', '-O2', '-O3']));
    }
    def input_params {
        param m[] = [32, 64, 128, 256, 512];
        param n[] = [32, 64, 128, 256, 512];
        param nos = 5;
        param dof = 1;
        constraint sq = (m == n);
    }
    def input_vars {
        decl static double A[m*n*nos*dof] = random;
        decl static double x[m*n*dof] = random;
        decl static double y[m*n*dof] = 0;
        decl static int offsets[nos] = {-m*dof, -dof, 0, dof, m*dof};
    }
    def build {
        arg build_command = 'nvcc -O3 @CFLAGS';
    }
    def performance_counter {
        arg repetitions = 5;
    }
    ) @*/
    int nrows = m*n;
    int ndiags = nos;
    /*@ begin Loop(transform CUDA(threadCount=TC, blockCount=BC,
                                  preferL1Size=PL, unrollInner=UIF)
    for (i = 0; i <= nrows-1; i++) {
        for (j = 0; j <= ndiags-1; j++) {
            col = i + offsets[j];
            if (col >= 0 && col < nrows)
                y[i] += A[i + j*nrows] * x[col];
        }
    }
    ) @*/
#ifdef ORCU_ORIGINAL
    for (i = 0; i <= nrows-1; i++) {
        for (j = 0; j <= ndiags-1; j++) {
            col = i + offsets[j];
            if (col >= 0 && col < nrows)
                y[i] += A[i + j*nrows] * x[col];
        }
    }
#else
    orcu_MatMult_SeqDia_1(nrows, ndiags, offsets, y, A, x, m, n, dof);  // the loop above, run on the GPU by orcu
    (void)col; (void)i; (void)j;  // only the original loops above use them
#endif
    /*@ end @*/
    /*@ end @*/
}
