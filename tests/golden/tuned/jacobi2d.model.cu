// >>> orcu generated code: begin
/* Written by orcu 0.1.0 from ex/jacobi2d.c.
 * orcu_jacobi2d_1 (line 17): TC=128, registers_i_1=4, registers_j_1=1, shared_a_1=True, vectorize_1=False
 *     input n=37; time 0.006886 ms (GPU kernel time predicted by orcu's performance model, which ranked the variants)
 * orcu_jacobi2d_1 (line 17): TC=128, registers_i_1=4, registers_j_1=1, shared_a_1=True, vectorize_1=False
 *     input n=66; time 0.006747 ms (GPU kernel time predicted by orcu's performance model, which ranked the variants)
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

// Kernel of the loop at ex/jacobi2d.c:18 in jacobi2d():
//     for (i = 1; i < n - 1; i++)
//         for (j = 1; j < n - 1; j++)
//             b[i*n + j] = 0.2 * (a[i*n + j] + a[i*n + j - 1] + a[i*n + j + 1] + a[(i - 1)*n + j] + a[(i + 1)*n + j]);
// The TSG's mapping 'x=j y=i': 32 x 4 threads a block; the loops on the
// grid run a whole grid apart, so any grid covers any trip count.
// orcu_index is int, or long long in calls whose iterations or arrays reach past INT_MAX.
template <typename orcu_index>
__global__ void __launch_bounds__(128) orcu_jacobi2d_1_kernel(
    double *__restrict__ b,
    const double *__restrict__ a,
    int n)
{
    orcu_index j;
    ORCU_SHARED_TILE(double, a_shared, [18][34], 1);  // free of bank conflicts
    // 'i' (the loop at ex/jacobi2d.c:18): tiles of 16 iterations over blockIdx.y, a whole grid apart; each thread 4 of them, 4 apart (threadIdx.y)
    for (orcu_index i0 = (orcu_index)(1) + (orcu_index)blockIdx.y * 16; i0 < n - 1; i0 += (orcu_index)gridDim.y * 16) {
        // 'j' (the loop at ex/jacobi2d.c:19): tiles of 32 iterations over blockIdx.x, a whole grid apart; each thread 1 of them, 32 apart (threadIdx.x)
        for (orcu_index j0 = (orcu_index)(1) + (orcu_index)blockIdx.x * 32; j0 < n - 1; j0 += (orcu_index)gridDim.x * 32) {
            const orcu_index i_0 = i0 + (orcu_index)threadIdx.y;
            const orcu_index i_1 = i0 + ((orcu_index)threadIdx.y + 4);
            const orcu_index i_2 = i0 + ((orcu_index)threadIdx.y + 8);
            const orcu_index i_3 = i0 + ((orcu_index)threadIdx.y + 12);
            j = j0 + (orcu_index)threadIdx.x;
            // a[(i0 - 1 + orcu_a0)][(j0 - 1 + orcu_a1)]: the block's tile, read once from global memory, consecutive threads on consecutive double2s where its rows allow
            if ((n) % 2 == 0 && (size_t)&a[(i0 - 1) * (n) + (j0 - 1)] % 16 == 0) {  // every row of the tile starts on 16 bytes
                for (orcu_index e = (orcu_index)threadIdx.y * 32 + threadIdx.x; e < 306; e += 128) {
                    const orcu_index orcu_a0 = e / 17;
                    const orcu_index orcu_a1 = (e % 17) * 2;
                    if ((((i0 - 1 + orcu_a0) >= 1 && (i0 - 1 + orcu_a0) <= n - 2 && (j0 - 1 + orcu_a1) >= 1 && (j0 - 1 + orcu_a1) <= n - 2 && (j0 - 1 + orcu_a1 + 1) >= 1 && (j0 - 1 + orcu_a1 + 1) <= n - 2) || ((i0 - 1 + orcu_a0) >= 1 && (i0 - 1 + orcu_a0) <= n - 2 && (j0 - 1 + orcu_a1) >= 0 && (j0 - 1 + orcu_a1) <= n - 3 && (j0 - 1 + orcu_a1 + 1) >= 0 && (j0 - 1 + orcu_a1 + 1) <= n - 3) || ((i0 - 1 + orcu_a0) >= 1 && (i0 - 1 + orcu_a0) <= n - 2 && (j0 - 1 + orcu_a1) >= 2 && (j0 - 1 + orcu_a1) <= n - 1 && (j0 - 1 + orcu_a1 + 1) >= 2 && (j0 - 1 + orcu_a1 + 1) <= n - 1) || ((i0 - 1 + orcu_a0) >= 0 && (i0 - 1 + orcu_a0) <= n - 3 && (j0 - 1 + orcu_a1) >= 1 && (j0 - 1 + orcu_a1) <= n - 2 && (j0 - 1 + orcu_a1 + 1) >= 1 && (j0 - 1 + orcu_a1 + 1) <= n - 2) || ((i0 - 1 + orcu_a0) >= 2 && (i0 - 1 + orcu_a0) <= n - 1 && (j0 - 1 + orcu_a1) >= 1 && (j0 - 1 + orcu_a1) <= n - 2 && (j0 - 1 + orcu_a1 + 1) >= 1 && (j0 - 1 + orcu_a1 + 1) <= n - 2)))
                        *(double2 *)&ORCU_TILE_DATA(a_shared)[orcu_a0][orcu_a1] = *(const double2 *)&a[(i0 - 1 + orcu_a0) * (n) + (j0 - 1 + orcu_a1)];
                    else  // the tile's edge
                        for (int orcu_l = 0; orcu_l < 2; orcu_l++) {
                            ORCU_TILE_DATA(a_shared)[orcu_a0][orcu_a1 + orcu_l] = (((i0 - 1 + orcu_a0) >= 1 && (i0 - 1 + orcu_a0) <= n - 2 && (j0 - 1 + orcu_a1 + orcu_l) >= 1 && (j0 - 1 + orcu_a1 + orcu_l) <= n - 2) || ((i0 - 1 + orcu_a0) >= 1 && (i0 - 1 + orcu_a0) <= n - 2 && (j0 - 1 + orcu_a1 + orcu_l) >= 0 && (j0 - 1 + orcu_a1 + orcu_l) <= n - 3) || ((i0 - 1 + orcu_a0) >= 1 && (i0 - 1 + orcu_a0) <= n - 2 && (j0 - 1 + orcu_a1 + orcu_l) >= 2 && (j0 - 1 + orcu_a1 + orcu_l) <= n - 1) || ((i0 - 1 + orcu_a0) >= 0 && (i0 - 1 + orcu_a0) <= n - 3 && (j0 - 1 + orcu_a1 + orcu_l) >= 1 && (j0 - 1 + orcu_a1 + orcu_l) <= n - 2) || ((i0 - 1 + orcu_a0) >= 2 && (i0 - 1 + orcu_a0) <= n - 1 && (j0 - 1 + orcu_a1 + orcu_l) >= 1 && (j0 - 1 + orcu_a1 + orcu_l) <= n - 2)) ? a[(i0 - 1 + orcu_a0) * (n) + (j0 - 1 + orcu_a1 + orcu_l)] : (double)0;
                        }
                }
            } else {
                for (orcu_index e = (orcu_index)threadIdx.y * 32 + threadIdx.x; e < 612; e += 128) {
                    const orcu_index orcu_a0 = e / 34;
                    const orcu_index orcu_a1 = e % 34;
                    ORCU_TILE_DATA(a_shared)[orcu_a0][orcu_a1] = (((i0 - 1 + orcu_a0) >= 1 && (i0 - 1 + orcu_a0) <= n - 2 && (j0 - 1 + orcu_a1) >= 1 && (j0 - 1 + orcu_a1) <= n - 2) || ((i0 - 1 + orcu_a0) >= 1 && (i0 - 1 + orcu_a0) <= n - 2 && (j0 - 1 + orcu_a1) >= 0 && (j0 - 1 + orcu_a1) <= n - 3) || ((i0 - 1 + orcu_a0) >= 1 && (i0 - 1 + orcu_a0) <= n - 2 && (j0 - 1 + orcu_a1) >= 2 && (j0 - 1 + orcu_a1) <= n - 1) || ((i0 - 1 + orcu_a0) >= 0 && (i0 - 1 + orcu_a0) <= n - 3 && (j0 - 1 + orcu_a1) >= 1 && (j0 - 1 + orcu_a1) <= n - 2) || ((i0 - 1 + orcu_a0) >= 2 && (i0 - 1 + orcu_a0) <= n - 1 && (j0 - 1 + orcu_a1) >= 1 && (j0 - 1 + orcu_a1) <= n - 2)) ? a[(i0 - 1 + orcu_a0) * (n) + (j0 - 1 + orcu_a1)] : (double)0;
                }
            }
            __syncthreads();  // the tiles are whole before any thread reads them
            if (i_0 < n - 1 && j < n - 1) {
                b[i_0 * n + j] = 0.2 * (a_shared[i_0 - i0 + 1][j - j0 + 1] + a_shared[i_0 - i0 + 1][j - j0] + a_shared[i_0 - i0 + 1][j - j0 + 2] + a_shared[i_0 - i0][j - j0 + 1] + a_shared[i_0 - i0 + 2][j - j0 + 1]);
            }
            if (i_1 < n - 1 && j < n - 1) {
                b[i_1 * n + j] = 0.2 * (a_shared[i_1 - i0 + 1][j - j0 + 1] + a_shared[i_1 - i0 + 1][j - j0] + a_shared[i_1 - i0 + 1][j - j0 + 2] + a_shared[i_1 - i0][j - j0 + 1] + a_shared[i_1 - i0 + 2][j - j0 + 1]);
            }
            if (i_2 < n - 1 && j < n - 1) {
                b[i_2 * n + j] = 0.2 * (a_shared[i_2 - i0 + 1][j - j0 + 1] + a_shared[i_2 - i0 + 1][j - j0] + a_shared[i_2 - i0 + 1][j - j0 + 2] + a_shared[i_2 - i0][j - j0 + 1] + a_shared[i_2 - i0 + 2][j - j0 + 1]);
            }
            if (i_3 < n - 1 && j < n - 1) {
                b[i_3 * n + j] = 0.2 * (a_shared[i_3 - i0 + 1][j - j0 + 1] + a_shared[i_3 - i0 + 1][j - j0] + a_shared[i_3 - i0 + 1][j - j0 + 2] + a_shared[i_3 - i0][j - j0 + 1] + a_shared[i_3 - i0 + 2][j - j0 + 1]);
            }
            __syncthreads();  // every thread has read the tiles before the next block tile fills them
        }
    }
}

#ifdef ORCU_ALLOW_ALIASING
// The loop at ex/jacobi2d.c:18 as written, on the host: what orcu_jacobi2d_1 runs when the arrays it
// is given overlap.
static void orcu_jacobi2d_1_on_host(int n, double *b, const double *a)
{
    int i;
    int j;
    for (i = 1; i < n - 1; i++) {
        for (j = 1; j < n - 1; j++) {
            b[i * n + j] = 0.2 * (a[i * n + j] + a[i * n + j - 1] + a[i * n + j + 1] + a[(i - 1) * n + j] + a[(i + 1) * n + j]);
        }
    }
}
#endif

// What orcu_jacobi2d_1 keeps from one call to the next: allocating costs more than copying
// small arrays. orcu_release_jacobi2d_1() frees it.
static orcu_buffer orcu_jacobi2d_1_buffers[2];

// Frees what orcu_jacobi2d_1 keeps between calls (nothing is lost: the next call allocates again).
void orcu_release_jacobi2d_1(void)
{
    orcu_release_buffers(orcu_jacobi2d_1_buffers, 2);
}

// Runs the loop at ex/jacobi2d.c:18 on the GPU (threadCount=128, vectorize=False, mapping='x=j y=i', threadLoops=['j', 'i'], registerTile={'i': 4, 'j': 1}, shared=['a']);
// returns when its results are in host memory.
static void orcu_jacobi2d_1(int n, double *b, const double *a)
{
    // Each grid loop's most iterations (times its step) over the loops around it: blocks enough to cover them.
    const long long orcu_span_i = (long long)n - 2;
    const long long orcu_span_j = (long long)n - 2;
    if (orcu_span_i <= 0 || orcu_span_j <= 0)
        return;  // no iteration: nothing to compute or move
    // The elements each array's accesses reach: [first, end).
    const long long orcu_b_first = (long long)n + 1, orcu_b_end = (long long)n * n - n - 1;
    const long long orcu_a_first = 0LL, orcu_a_end = (long long)n * n;
    // The iterations run at once, each on its own elements: no array may overlap one that is written.
    if (orcu_overlap(b + orcu_b_first, b + orcu_b_end, a + orcu_a_first, a + orcu_a_end)) {
#ifdef ORCU_ALLOW_ALIASING
        orcu_jacobi2d_1_on_host(n, b, a);
        return;
#endif
        orcu_aliased("orcu_jacobi2d_1");
    }
    const dim3 orcu_block(32, 4);
    const dim3 orcu_grid(orcu_blocks_along(orcu_span_j, 32LL, 2147483647LL), orcu_blocks_along(orcu_span_i, 16LL, 65535LL));
    // 32-bit indices unless the grid runs past the last iteration beyond INT_MAX, or an array
    // has more elements than that.
    const bool orcu_wide = (long long)n - 1 + (long long)orcu_grid.y * 16 > INT_MAX || (long long)n - 1 + (long long)orcu_grid.x * 32 > INT_MAX || orcu_b_end > INT_MAX || orcu_a_end > INT_MAX;
    decltype(&orcu_jacobi2d_1_kernel<int>) const orcu_kernel = orcu_wide ? orcu_jacobi2d_1_kernel<long long> : orcu_jacobi2d_1_kernel<int>;

    // Device copies of the arrays, indexed as on the host so the loop body runs unchanged.
    double *const d_b = (double *)orcu_device_buffer(&orcu_jacobi2d_1_buffers[0], sizeof(double) * orcu_count(0, orcu_b_end));
    double *const d_a = (double *)orcu_device_buffer(&orcu_jacobi2d_1_buffers[1], sizeof(double) * orcu_count(0, orcu_a_end));

    ORCU_CHECK(cudaMemcpy(d_b + orcu_b_first, b + orcu_b_first, sizeof(double) * orcu_count(orcu_b_first, orcu_b_end), cudaMemcpyHostToDevice));
    ORCU_CHECK(cudaMemcpy(d_a + orcu_a_first, a + orcu_a_first, sizeof(double) * orcu_count(orcu_a_first, orcu_a_end), cudaMemcpyHostToDevice));

    ORCU_LAUNCH(orcu_kernel, orcu_grid, orcu_block, 0, 0, d_b, d_a, n);
    ORCU_CHECK(cudaGetLastError());
    ORCU_CHECK(cudaMemcpy(b + orcu_b_first, d_b + orcu_b_first, sizeof(double) * orcu_count(orcu_b_first, orcu_b_end), cudaMemcpyDeviceToHost));
}

#endif  // ORCU_ORIGINAL
// <<< orcu generated code: end
// >>> orcu generated code: begin
#ifdef __cplusplus
extern "C" void jacobi2d(int n, const double *a, double *b);  // C linkage: C code calls it
#endif
// <<< orcu generated code: end
/* One sweep of the 2-D 5-point Jacobi stencil on an n x n row-major grid: b from a.
 * A 2-D grid of threads, thread x along the rows, asked for by hand (threadLoops). */
void jacobi2d(int n, const double *a, double *b) {
    int i, j;
    /*@ begin PerfTuning (
    def performance_params {
        param TC[] = [64, 128, 256];
    }
    def input_params {
        param n[] = [37, 66];
    }
    def input_vars {
        decl dynamic double a[n*n] = random;
        decl dynamic double b[n*n] = 0;
    }
    ) @*/
    /*@ begin Loop(transform CUDA(threadLoops=['j', 'i'], threadCount=TC)
    for (i = 1; i < n - 1; i++)
        for (j = 1; j < n - 1; j++)
            b[i*n + j] = 0.2 * (a[i*n + j] + a[i*n + j - 1] + a[i*n + j + 1] + a[(i - 1)*n + j] + a[(i + 1)*n + j]);
    ) @*/
#ifdef ORCU_ORIGINAL
    for (i = 1; i < n - 1; i++)
        for (j = 1; j < n - 1; j++)
            b[i*n + j] = 0.2 * (a[i*n + j] + a[i*n + j - 1] + a[i*n + j + 1] + a[(i - 1)*n + j] + a[(i + 1)*n + j]);
#else
    orcu_jacobi2d_1(n, b, a);  // the loop above, run on the GPU by orcu
    (void)i; (void)j;  // only the original loops above use them
#endif
    /*@ end @*/
    /*@ end @*/
}
