// >>> orcu generated code: begin
/* Written by orcu 0.1.0 from ex/orio/loop_under_if.c.
 * orcu_blockdia_1 (line 17): TC=64
 *     input nrows=600, ndofs=3, ndiags=3; time 0.008669 ms (GPU kernel time predicted by orcu's performance model, which ranked the variants)
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

// Kernel of the loop at ex/orio/loop_under_if.c:18 in blockdia():
//     for (i = 0; i <= nrows - 1; i++) {
//         ysum = 0.0;
//         for (j = 0; j <= ndiags - 1; j++) {
//             row = i + j * nrows * ndofs;
//             col = (i / ndofs + offsets[j]) * ndofs;
//             if (col >= 0 && col < nrows)
//                 for (k = 0; k <= ndofs - 1 && col + k < nrows; k++)
//                     ysum += A[row + k * nrows] * x[col + k];
//         }
//         y[i] = ysum;
//     }
// Each thread runs iterations of 'i' a whole grid apart, so any grid covers any trip count.
// orcu_index is int, or long long in calls whose iterations or arrays reach past INT_MAX.
template <typename orcu_index>
__global__ void __launch_bounds__(64) orcu_blockdia_1_kernel(
    long long orcu_lo,
    long long orcu_hi,
    const int *__restrict__ offsets,
    const double *__restrict__ A,
    const double *__restrict__ x,
    double *__restrict__ y,
    int nrows,
    int ndiags,
    int ndofs)
{
    orcu_index i, j;
    int col, k, row;
    double ysum;
    const orcu_index orcu_stride = (orcu_index)gridDim.x * blockDim.x;
    for (i = (orcu_index)orcu_lo + ((orcu_index)blockIdx.x * blockDim.x + threadIdx.x); i < (orcu_index)orcu_hi; i += orcu_stride) {
        ysum = 0.0;
        for (j = 0; j < ndiags; j++) {
            row = i + j * nrows * ndofs;
            col = (i / ndofs + offsets[j]) * ndofs;
            if (col >= 0 && col < nrows)
                for (k = 0; k <= ndofs - 1 && col + k < nrows; k++)
                    ysum += A[row + k * nrows] * x[col + k];
        }
        y[i] = ysum;
    }
}

#ifdef ORCU_ALLOW_ALIASING
// The loop at ex/orio/loop_under_if.c:18 as written, on the host: what orcu_blockdia_1 runs when the arrays it
// is given overlap.
static void orcu_blockdia_1_on_host(
    int nrows,
    int ndiags,
    int ndofs,
    const int *offsets,
    const double *A,
    const double *x,
    double *y)
{
    int i;
    int col;
    int j;
    int k;
    int row;
    double ysum;
    for (i = 0; i < nrows; i++) {
        ysum = 0.0;
        for (j = 0; j < ndiags; j++) {
            row = i + j * nrows * ndofs;
            col = (i / ndofs + offsets[j]) * ndofs;
            if (col >= 0 && col < nrows)
                for (k = 0; k <= ndofs - 1 && col + k < nrows; k++)
                    ysum += A[row + k * nrows] * x[col + k];
        }
        y[i] = ysum;
    }
}
#endif

// What orcu_blockdia_1 keeps from one call to the next: allocating costs more than copying
// small arrays. orcu_release_blockdia_1() frees it.
static orcu_buffer orcu_blockdia_1_buffers[4];

// Frees what orcu_blockdia_1 keeps between calls (nothing is lost: the next call allocates again).
void orcu_release_blockdia_1(void)
{
    orcu_release_buffers(orcu_blockdia_1_buffers, 4);
}

// Runs the loop at ex/orio/loop_under_if.c:18 on the GPU (threadCount=64, blockCount=8);
// returns when its results are in host memory.
static void orcu_blockdia_1(
    int nrows,
    int ndiags,
    int ndofs,
    const int *offsets,
    const double *A,
    const double *x,
    double *y)
{
    const long long orcu_lo = 0LL, orcu_hi = (long long)nrows;
    if (orcu_hi <= orcu_lo)
        return;  // no iteration: nothing to compute or move
    // The elements each array's accesses reach: [first, end).
    const long long orcu_offsets_first = 0LL, orcu_offsets_end = (long long)ndiags;
    const long long orcu_A_first = 0LL, orcu_A_end = (long long)nrows * ndofs * ndiags;
    const long long orcu_x_first = 0LL, orcu_x_end = (long long)nrows;
    const long long orcu_y_first = 0LL, orcu_y_end = (long long)nrows;
    // The iterations run at once, each on its own elements: no array may overlap one that is written.
    if (orcu_overlap(offsets + orcu_offsets_first, offsets + orcu_offsets_end, y + orcu_y_first, y + orcu_y_end)
        || orcu_overlap(A + orcu_A_first, A + orcu_A_end, y + orcu_y_first, y + orcu_y_end)
        || orcu_overlap(x + orcu_x_first, x + orcu_x_end, y + orcu_y_first, y + orcu_y_end)) {
#ifdef ORCU_ALLOW_ALIASING
        orcu_blockdia_1_on_host(nrows, ndiags, ndofs, offsets, A, x, y);
        return;
#endif
        orcu_aliased("orcu_blockdia_1");
    }
    const int orcu_threads = 64;
    const int orcu_blocks = 8;
    // 32-bit indices unless the grid runs past the last iteration beyond INT_MAX, or an array
    // has more elements than that.
    const bool orcu_wide = orcu_hi + (long long)orcu_blocks * orcu_threads > INT_MAX || orcu_offsets_end > INT_MAX || orcu_A_end > INT_MAX || orcu_x_end > INT_MAX || orcu_y_end > INT_MAX;
    decltype(&orcu_blockdia_1_kernel<int>) const orcu_kernel = orcu_wide ? orcu_blockdia_1_kernel<long long> : orcu_blockdia_1_kernel<int>;

    // Device copies of the arrays, indexed as on the host so the loop body runs unchanged.
    int *const d_offsets = (int *)orcu_device_buffer(&orcu_blockdia_1_buffers[0], sizeof(int) * orcu_count(0, orcu_offsets_end));
    double *const d_A = (double *)orcu_device_buffer(&orcu_blockdia_1_buffers[1], sizeof(double) * orcu_count(0, orcu_A_end));
    double *const d_x = (double *)orcu_device_buffer(&orcu_blockdia_1_buffers[2], sizeof(double) * orcu_count(0, orcu_x_end));
    double *const d_y = (double *)orcu_device_buffer(&orcu_blockdia_1_buffers[3], sizeof(double) * orcu_count(0, orcu_y_end));

    ORCU_CHECK(cudaMemcpy(d_offsets + orcu_offsets_first, offsets + orcu_offsets_first, sizeof(int) * orcu_count(orcu_offsets_first, orcu_offsets_end), cudaMemcpyHostToDevice));
    ORCU_CHECK(cudaMemcpy(d_A + orcu_A_first, A + orcu_A_first, sizeof(double) * orcu_count(orcu_A_first, orcu_A_end), cudaMemcpyHostToDevice));
    ORCU_CHECK(cudaMemcpy(d_x + orcu_x_first, x + orcu_x_first, sizeof(double) * orcu_count(orcu_x_first, orcu_x_end), cudaMemcpyHostToDevice));

    ORCU_LAUNCH(orcu_kernel, orcu_blocks, orcu_threads, 0, 0, orcu_lo, orcu_hi, d_offsets, d_A, d_x, d_y, nrows, ndiags, ndofs);
    ORCU_CHECK(cudaGetLastError());
    ORCU_CHECK(cudaMemcpy(y + orcu_y_first, d_y + orcu_y_first, sizeof(double) * orcu_count(orcu_y_first, orcu_y_end), cudaMemcpyDeviceToHost));
}

#endif  // ORCU_ORIGINAL
// <<< orcu generated code: end
// >>> orcu generated code: begin
#ifdef __cplusplus
extern "C" void blockdia(int nrows, int ndofs, int ndiags, const int *offsets, double *A, double *x, double *y);  // C linkage: C code calls it
#endif
// <<< orcu generated code: end
/* A block-diagonal product in Orio's DIA style: an inner loop under an 'if'. Its iterator k and
   the scalars row and col are set before they are read in every iteration of 'i' (on every
   path that reads them), so they are private to it. */
void blockdia(int nrows, int ndofs, int ndiags, const int *offsets, double *A, double *x, double *y) {
    int i, j, k, row, col;
    double ysum;
    /*@ begin PerfTuning (
    def performance_params { param TC[] = [32, 64]; }
    def input_params { param nrows[] = [600]; param ndofs[] = [3]; param ndiags[] = [3]; }
    def input_vars {
        decl dynamic double A[nrows*ndofs*ndiags] = random;
        decl dynamic double x[nrows] = random;
        decl dynamic double y[nrows] = 0;
        decl static int offsets[ndiags] = [-1, 0, 1];
    }
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC, blockCount=8)
    for (i = 0; i <= nrows - 1; i++) {
        ysum = 0.0;
        for (j = 0; j <= ndiags - 1; j++) {
            row = i + j * nrows * ndofs;
            col = (i / ndofs + offsets[j]) * ndofs;
            if (col >= 0 && col < nrows)
                for (k = 0; k <= ndofs - 1 && col + k < nrows; k++)
                    ysum += A[row + k * nrows] * x[col + k];
        }
        y[i] = ysum;
    }
    ) @*/
#ifdef ORCU_ORIGINAL
    for (i = 0; i <= nrows - 1; i++) {
        ysum = 0.0;
        for (j = 0; j <= ndiags - 1; j++) {
            row = i + j * nrows * ndofs;
            col = (i / ndofs + offsets[j]) * ndofs;
            if (col >= 0 && col < nrows)
                for (k = 0; k <= ndofs - 1 && col + k < nrows; k++)
                    ysum += A[row + k * nrows] * x[col + k];
        }
        y[i] = ysum;
    }
#else
    orcu_blockdia_1(nrows, ndiags, ndofs, offsets, A, x, y);  // the loop above, run on the GPU by orcu
    (void)col; (void)i; (void)j; (void)k; (void)row; (void)ysum;  // only the original loops above use them
#endif
/*@ end @*/
    /*@ end @*/
}
