// >>> orcu generated code: begin
/* Written by orcu 0.1.0 from ex/gemv_t.c.
 * orcu_gemv_t_1 (line 19): TC=256, mapping_1='x=j', registers_j_1=4, shared_x_1=False, constant_x_1=True, sharedDepth_1=16, vectorize_1=False
 *     input n=41, m=37; time 0.007163 ms (GPU kernel time predicted by orcu's performance model, which ranked the variants)
 * orcu_gemv_t_1 (line 19): TC=256, mapping_1='x=j', registers_j_1=4, shared_x_1=False, constant_x_1=True, sharedDepth_1=16, vectorize_1=False
 *     input n=41, m=64; time 0.007163 ms (GPU kernel time predicted by orcu's performance model, which ranked the variants)
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

// Kernel of the loop at ex/gemv_t.c:20 in gemv_t():
//     for (i = 0; i < n; i++)
//         for (j = 0; j < m; j++)
//             y[j] += A[i*m + j] * x[i];
// The TSG's mapping 'x=j': 256 x 1 threads a block; the loops on the
// grid run a whole grid apart, so any grid covers any trip count.
// orcu_index is int, or long long in calls whose iterations or arrays reach past INT_MAX.
#ifndef ORCU_CONSTANT_DOUBLE_X
#define ORCU_CONSTANT_DOUBLE_X
// x (double) for the kernels whose threads all read it alike: in constant memory when it has at
// most 2048 elements (the kernel's x_in_constant), else read from global memory.
__constant__ double orcu_constant_double_x[2048];
#endif
template <typename orcu_index>
__global__ void __launch_bounds__(256) orcu_gemv_t_1_kernel(
    double *__restrict__ y,
    const double *__restrict__ A,
    const double *__restrict__ x,
    int n,
    int m,
    bool x_in_constant)
{
    orcu_index i;
    // 'j' (the loop at ex/gemv_t.c:21): tiles of 1024 iterations over blockIdx.x, a whole grid apart; each thread 4 of them, 256 apart (threadIdx.x)
    for (orcu_index j0 = (orcu_index)blockIdx.x * 1024; j0 < m; j0 += (orcu_index)gridDim.x * 1024) {
        const orcu_index j_0 = j0 + (orcu_index)threadIdx.x;
        const orcu_index j_1 = j0 + ((orcu_index)threadIdx.x + 256);
        const orcu_index j_2 = j0 + ((orcu_index)threadIdx.x + 512);
        const orcu_index j_3 = j0 + ((orcu_index)threadIdx.x + 768);
        double y_i_acc_0 = j_0 < m ? y[j_0] : (double)0;  // y[j_0] stays in a register over the loop on i
        double y_i_acc_1 = j_1 < m ? y[j_1] : (double)0;  // y[j_1] stays in a register over the loop on i
        double y_i_acc_2 = j_2 < m ? y[j_2] : (double)0;  // y[j_2] stays in a register over the loop on i
        double y_i_acc_3 = j_3 < m ? y[j_3] : (double)0;  // y[j_3] stays in a register over the loop on i
        for (i = 0; i < n; i++) {
            if (j_0 < m) {
                y_i_acc_0 += A[i * m + j_0] * (x_in_constant ? orcu_constant_double_x[i] : x[i]);
            }
            if (j_1 < m) {
                y_i_acc_1 += A[i * m + j_1] * (x_in_constant ? orcu_constant_double_x[i] : x[i]);
            }
            if (j_2 < m) {
                y_i_acc_2 += A[i * m + j_2] * (x_in_constant ? orcu_constant_double_x[i] : x[i]);
            }
            if (j_3 < m) {
                y_i_acc_3 += A[i * m + j_3] * (x_in_constant ? orcu_constant_double_x[i] : x[i]);
            }
        }
        if (j_0 < m) y[j_0] = y_i_acc_0;
        if (j_1 < m) y[j_1] = y_i_acc_1;
        if (j_2 < m) y[j_2] = y_i_acc_2;
        if (j_3 < m) y[j_3] = y_i_acc_3;
    }
}

#ifdef ORCU_ALLOW_ALIASING
// The loop at ex/gemv_t.c:20 as written, on the host: what orcu_gemv_t_1 runs when the arrays it
// is given overlap.
static void orcu_gemv_t_1_on_host(int n, int m, double *y, const double *A, const double *x)
{
    int i;
    int j;
    for (i = 0; i < n; i++) {
        for (j = 0; j < m; j++) {
            y[j] += A[i * m + j] * x[i];
        }
    }
}
#endif

// What orcu_gemv_t_1 keeps from one call to the next: allocating costs more than copying
// small arrays. orcu_release_gemv_t_1() frees it.
static orcu_buffer orcu_gemv_t_1_buffers[3];

// Frees what orcu_gemv_t_1 keeps between calls (nothing is lost: the next call allocates again).
void orcu_release_gemv_t_1(void)
{
    orcu_release_buffers(orcu_gemv_t_1_buffers, 3);
}

// Runs the loop at ex/gemv_t.c:20 on the GPU (threadCount=256, vectorize=False, mapping='x=j', registerTile={'j': 4}, shared=[], sharedDepth=16, constant=['x']);
// returns when its results are in host memory.
static void orcu_gemv_t_1(int n, int m, double *y, const double *A, const double *x)
{
    // Each grid loop's most iterations (times its step) over the loops around it: blocks enough to cover them.
    const long long orcu_span_j = (long long)m;
    if (orcu_span_j <= 0)
        return;  // no iteration: nothing to compute or move
    // The elements each array's accesses reach: [first, end).
    const long long orcu_y_first = 0LL, orcu_y_end = (long long)m;
    const long long orcu_A_first = 0LL, orcu_A_end = (long long)m * n;
    const long long orcu_x_first = 0LL, orcu_x_end = (long long)n;
    // The iterations run at once, each on its own elements: no array may overlap one that is written.
    if (orcu_overlap(y + orcu_y_first, y + orcu_y_end, A + orcu_A_first, A + orcu_A_end)
        || orcu_overlap(y + orcu_y_first, y + orcu_y_end, x + orcu_x_first, x + orcu_x_end)) {
#ifdef ORCU_ALLOW_ALIASING
        orcu_gemv_t_1_on_host(n, m, y, A, x);
        return;
#endif
        orcu_aliased("orcu_gemv_t_1");
    }
    const dim3 orcu_block(256, 1);
    const dim3 orcu_grid(orcu_blocks_along(orcu_span_j, 1024LL, 2147483647LL), 1);
    // 32-bit indices unless the grid runs past the last iteration beyond INT_MAX, or an array
    // has more elements than that.
    const bool orcu_wide = (long long)m + (long long)orcu_grid.x * 1024 > INT_MAX || orcu_y_end > INT_MAX || orcu_A_end > INT_MAX || orcu_x_end > INT_MAX;
    decltype(&orcu_gemv_t_1_kernel<int>) const orcu_kernel = orcu_wide ? orcu_gemv_t_1_kernel<long long> : orcu_gemv_t_1_kernel<int>;

    // Device copies of the arrays, indexed as on the host so the loop body runs unchanged.
    double *const d_y = (double *)orcu_device_buffer(&orcu_gemv_t_1_buffers[0], sizeof(double) * orcu_count(0, orcu_y_end));
    double *const d_A = (double *)orcu_device_buffer(&orcu_gemv_t_1_buffers[1], sizeof(double) * orcu_count(0, orcu_A_end));
    double *const d_x = (double *)orcu_device_buffer(&orcu_gemv_t_1_buffers[2], sizeof(double) * orcu_count(0, orcu_x_end));

    ORCU_CHECK(cudaMemcpy(d_y + orcu_y_first, y + orcu_y_first, sizeof(double) * orcu_count(orcu_y_first, orcu_y_end), cudaMemcpyHostToDevice));
    ORCU_CHECK(cudaMemcpy(d_A + orcu_A_first, A + orcu_A_first, sizeof(double) * orcu_count(orcu_A_first, orcu_A_end), cudaMemcpyHostToDevice));
    ORCU_CHECK(cudaMemcpy(d_x + orcu_x_first, x + orcu_x_first, sizeof(double) * orcu_count(orcu_x_first, orcu_x_end), cudaMemcpyHostToDevice));

    // x in constant memory when its elements [0, end) fit, copied from its device copy.
    const bool x_in_constant = orcu_x_end <= 2048;
    if (x_in_constant)
        ORCU_CHECK(cudaMemcpyToSymbolAsync(orcu_constant_double_x, d_x, sizeof(double) * orcu_x_end, 0, cudaMemcpyDeviceToDevice, 0));
    ORCU_LAUNCH(orcu_kernel, orcu_grid, orcu_block, 0, 0, d_y, d_A, d_x, n, m, x_in_constant);
    ORCU_CHECK(cudaGetLastError());
    ORCU_CHECK(cudaMemcpy(y + orcu_y_first, d_y + orcu_y_first, sizeof(double) * orcu_count(orcu_y_first, orcu_y_end), cudaMemcpyDeviceToHost));
}

#endif  // ORCU_ORIGINAL
// <<< orcu generated code: end
// >>> orcu generated code: begin
#ifdef __cplusplus
extern "C" void gemv_t(int n, int m, const double *A, const double *x, double *y);  // C linkage: C code calls it
#endif
// <<< orcu generated code: end
/* y = A^T x with A row-major (n rows of m): each thread computes one y[j], walking down a
 * column, while the threads of a warp read consecutive elements of each row. */
void gemv_t(int n, int m, const double *A, const double *x, double *y) {
    int i, j;
    /*@ begin PerfTuning (
    def performance_params {
        param TC[] = [64, 128, 256];
    }
    def input_params {
        param n[] = [41];
        param m[] = [37, 64];
    }
    def input_vars {
        decl dynamic double A[n*m] = random;
        decl dynamic double x[n] = random;
        decl dynamic double y[m] = 0;
    }
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto', threadCount=TC)
    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++)
            y[j] += A[i*m + j] * x[i];
    ) @*/
#ifdef ORCU_ORIGINAL
    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++)
            y[j] += A[i*m + j] * x[i];
#else
    orcu_gemv_t_1(n, m, y, A, x);  // the loop above, run on the GPU by orcu
    (void)i; (void)j;  // only the original loops above use them
#endif
    /*@ end @*/
    /*@ end @*/
}
