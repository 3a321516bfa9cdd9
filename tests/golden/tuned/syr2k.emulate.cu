// >>> orcu generated code: begin
/* Written by orcu 0.1.0 from ex/syr2k.c.
 * orcu_syr2k_1 (line 21): TC=64, mapping_1='x=j y=i', registers_i_1=2, registers_j_1=1, vectorize_1=False
 *     input n=37, m=29; time 0.01386 ms (GPU kernel time predicted by orcu's performance model, which ranked the variants)
 * orcu_syr2k_1 (line 21): TC=64, mapping_1='x=j y=i', registers_i_1=2, registers_j_1=1, vectorize_1=False
 *     input n=64, m=29; time 0.01648 ms (GPU kernel time predicted by orcu's performance model, which ranked the variants)
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

// Kernel of the loop at ex/syr2k.c:22 in syr2k():
//     for (i = 0; i < n; i++)
//         for (j = 0; j <= i; j++) {
//             C[i*n + j] *= beta;
//             for (k = 0; k < m; k++)
//                 C[i*n + j] += A[j*m + k] * alpha * B[i*m + k] + B[j*m + k] * alpha * A[i*m + k];
//         }
// The TSG's mapping 'x=j y=i': 32 x 2 threads a block; the loops on the
// grid run a whole grid apart, so any grid covers any trip count.
// orcu_index is int, or long long in calls whose iterations or arrays reach past INT_MAX.
template <typename orcu_index>
__global__ void __launch_bounds__(64) orcu_syr2k_1_kernel(
    double *__restrict__ C,
    const double *__restrict__ A,
    const double *__restrict__ B,
    int n,
    double beta,
    int m,
    double alpha)
{
    orcu_index j, k;
    // 'i' (the loop at ex/syr2k.c:22): tiles of 4 iterations over blockIdx.y, a whole grid apart; each thread 2 of them, 2 apart (threadIdx.y)
    for (orcu_index i0 = (orcu_index)blockIdx.y * 4; i0 < n; i0 += (orcu_index)gridDim.y * 4) {
        // 'j' (the loop at ex/syr2k.c:23): tiles of 32 iterations over blockIdx.x, a whole grid apart; each thread 1 of them, 32 apart (threadIdx.x)
        for (orcu_index j0 = (orcu_index)blockIdx.x * 32; j0 < (i0 + 3) + 1; j0 += (orcu_index)gridDim.x * 32) {
            const orcu_index i_0 = i0 + (orcu_index)threadIdx.y;
            const orcu_index i_1 = i0 + ((orcu_index)threadIdx.y + 2);
            j = j0 + (orcu_index)threadIdx.x;
            if (i_0 < n && j < i_0 + 1) {
                C[i_0 * n + j] *= beta;
            }
            if (i_1 < n && j < i_1 + 1) {
                C[i_1 * n + j] *= beta;
            }
            double C_k_acc_0 = i_0 < n && j < i_0 + 1 ? C[i_0 * n + j] : (double)0;  // C[i_0 * n + j] stays in a register over the loop on k
            double C_k_acc_1 = i_1 < n && j < i_1 + 1 ? C[i_1 * n + j] : (double)0;  // C[i_1 * n + j] stays in a register over the loop on k
            for (k = 0; k < m; k++) {
                if (i_0 < n && j < i_0 + 1) {
                    C_k_acc_0 += A[j * m + k] * alpha * B[i_0 * m + k] + B[j * m + k] * alpha * A[i_0 * m + k];
                }
                if (i_1 < n && j < i_1 + 1) {
                    C_k_acc_1 += A[j * m + k] * alpha * B[i_1 * m + k] + B[j * m + k] * alpha * A[i_1 * m + k];
                }
            }
            if (i_0 < n && j < i_0 + 1) C[i_0 * n + j] = C_k_acc_0;
            if (i_1 < n && j < i_1 + 1) C[i_1 * n + j] = C_k_acc_1;
        }
    }
}

#ifdef ORCU_ALLOW_ALIASING
// The loop at ex/syr2k.c:22 as written, on the host: what orcu_syr2k_1 runs when the arrays it
// is given overlap.
static void orcu_syr2k_1_on_host(
    int n,
    double *C,
    double beta,
    int m,
    const double *A,
    double alpha,
    const double *B)
{
    int i;
    int j;
    int k;
    for (i = 0; i < n; i++) {
        for (j = 0; j < i + 1; j++) {
            C[i * n + j] *= beta;
            for (k = 0; k < m; k++) {
                C[i * n + j] += A[j * m + k] * alpha * B[i * m + k] + B[j * m + k] * alpha * A[i * m + k];
            }
        }
    }
}
#endif

// What orcu_syr2k_1 keeps from one call to the next: allocating costs more than copying
// small arrays. orcu_release_syr2k_1() frees it.
static orcu_buffer orcu_syr2k_1_buffers[3];

// Frees what orcu_syr2k_1 keeps between calls (nothing is lost: the next call allocates again).
void orcu_release_syr2k_1(void)
{
    orcu_release_buffers(orcu_syr2k_1_buffers, 3);
}

// Runs the loop at ex/syr2k.c:22 on the GPU (threadCount=64, vectorize=False, mapping='x=j y=i', registerTile={'i': 2, 'j': 1});
// returns when its results are in host memory.
static void orcu_syr2k_1(
    int n,
    double *C,
    double beta,
    int m,
    const double *A,
    double alpha,
    const double *B)
{
    // Each grid loop's most iterations (times its step) over the loops around it: blocks enough to cover them.
    const long long orcu_span_i = (long long)n;
    const long long orcu_span_j = (long long)n;
    if (orcu_span_i <= 0 || orcu_span_j <= 0)
        return;  // no iteration: nothing to compute or move
    // The elements each array's accesses reach: [first, end).
    const long long orcu_C_first = 0LL, orcu_C_end = (long long)n * n;
    const long long orcu_A_first = 0LL, orcu_A_end = (long long)m * n;
    const long long orcu_B_first = 0LL, orcu_B_end = (long long)m * n;
    // The iterations run at once, each on its own elements: no array may overlap one that is written.
    if (orcu_overlap(C + orcu_C_first, C + orcu_C_end, A + orcu_A_first, A + orcu_A_end)
        || orcu_overlap(C + orcu_C_first, C + orcu_C_end, B + orcu_B_first, B + orcu_B_end)) {
#ifdef ORCU_ALLOW_ALIASING
        orcu_syr2k_1_on_host(n, C, beta, m, A, alpha, B);
        return;
#endif
        orcu_aliased("orcu_syr2k_1");
    }
    const dim3 orcu_block(32, 2);
    const dim3 orcu_grid(orcu_blocks_along(orcu_span_j, 32LL, 2147483647LL), orcu_blocks_along(orcu_span_i, 4LL, 65535LL));
    // 32-bit indices unless the grid runs past the last iteration beyond INT_MAX, or an array
    // has more elements than that.
    const bool orcu_wide = (long long)n + (long long)orcu_grid.y * 4 > INT_MAX || (long long)n + (long long)orcu_grid.x * 32 > INT_MAX || orcu_C_end > INT_MAX || orcu_A_end > INT_MAX || orcu_B_end > INT_MAX;
    decltype(&orcu_syr2k_1_kernel<int>) const orcu_kernel = orcu_wide ? orcu_syr2k_1_kernel<long long> : orcu_syr2k_1_kernel<int>;

    // Device copies of the arrays, indexed as on the host so the loop body runs unchanged.
    double *const d_C = (double *)orcu_device_buffer(&orcu_syr2k_1_buffers[0], sizeof(double) * orcu_count(0, orcu_C_end));
    double *const d_A = (double *)orcu_device_buffer(&orcu_syr2k_1_buffers[1], sizeof(double) * orcu_count(0, orcu_A_end));
    double *const d_B = (double *)orcu_device_buffer(&orcu_syr2k_1_buffers[2], sizeof(double) * orcu_count(0, orcu_B_end));

    ORCU_CHECK(cudaMemcpy(d_C + orcu_C_first, C + orcu_C_first, sizeof(double) * orcu_count(orcu_C_first, orcu_C_end), cudaMemcpyHostToDevice));
    ORCU_CHECK(cudaMemcpy(d_A + orcu_A_first, A + orcu_A_first, sizeof(double) * orcu_count(orcu_A_first, orcu_A_end), cudaMemcpyHostToDevice));
    ORCU_CHECK(cudaMemcpy(d_B + orcu_B_first, B + orcu_B_first, sizeof(double) * orcu_count(orcu_B_first, orcu_B_end), cudaMemcpyHostToDevice));

    ORCU_LAUNCH(orcu_kernel, orcu_grid, orcu_block, 0, 0, d_C, d_A, d_B, n, beta, m, alpha);
    ORCU_CHECK(cudaGetLastError());
    ORCU_CHECK(cudaMemcpy(C + orcu_C_first, d_C + orcu_C_first, sizeof(double) * orcu_count(orcu_C_first, orcu_C_end), cudaMemcpyDeviceToHost));
}

#endif  // ORCU_ORIGINAL
// <<< orcu generated code: end
// >>> orcu generated code: begin
#ifdef __cplusplus
extern "C" void syr2k(int n, int m, double alpha, double beta, const double *A, const double *B, double *C);  // C linkage: C code calls it
#endif
// <<< orcu generated code: end
/* PolyBench syr2k: the lower triangle of C = alpha (A B^T + B A^T) + beta C, C n x n and
 * A, B n x m, row-major. The inner loop's bound j <= i makes the grid triangular. */
void syr2k(int n, int m, double alpha, double beta, const double *A, const double *B, double *C) {
    int i, j, k;
    /*@ begin PerfTuning (
    def performance_params {
        param TC[] = [64, 128];
    }
    def input_params {
        param n[] = [37, 64];
        param m[] = [29];
    }
    def input_vars {
        decl dynamic double A[n*m] = random;
        decl dynamic double B[n*m] = random;
        decl dynamic double C[n*n] = random;
        decl double alpha = 1.5;
        decl double beta = 1.2;
    }
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto', threadCount=TC)
    for (i = 0; i < n; i++)
        for (j = 0; j <= i; j++) {
            C[i*n + j] *= beta;
            for (k = 0; k < m; k++)
                C[i*n + j] += A[j*m + k] * alpha * B[i*m + k] + B[j*m + k] * alpha * A[i*m + k];
        }
    ) @*/
#ifdef ORCU_ORIGINAL
    for (i = 0; i < n; i++)
        for (j = 0; j <= i; j++) {
            C[i*n + j] *= beta;
            for (k = 0; k < m; k++)
                C[i*n + j] += A[j*m + k] * alpha * B[i*m + k] + B[j*m + k] * alpha * A[i*m + k];
        }
#else
    orcu_syr2k_1(n, C, beta, m, A, alpha, B);  // the loop above, run on the GPU by orcu
    (void)i; (void)j; (void)k;  // only the original loops above use them
#endif
    /*@ end @*/
    /*@ end @*/
}
