// >>> orcu generated code: begin
/* Written by orcu 0.1.0 from ex/conv2d.c.
 * orcu_conv2d_1 (line 21): TC=256, mapping_1='x=j y=i', registers_i_1=4, registers_j_1=4, shared_in_1=True, shared_mask_1=False, constant_mask_1=True, sharedDepth_1=32, vectorize_1=False, minBlocks_1=4
 *     input n=33, m=45, k=5; time 0.01036 ms (GPU kernel time predicted by orcu's performance model, which ranked the variants)
 * orcu_conv2d_1 (line 21): TC=256, mapping_1='x=j y=i', registers_i_1=4, registers_j_1=4, shared_in_1=True, shared_mask_1=False, constant_mask_1=True, sharedDepth_1=32, vectorize_1=False, minBlocks_1=4
 *     input n=64, m=45, k=5; time 0.01074 ms (GPU kernel time predicted by orcu's performance model, which ranked the variants)
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

// Kernel of the loop at ex/conv2d.c:22 in conv2d():
//     for (i = 0; i < n; i++)
//         for (j = 0; j < m; j++) {
//             acc = 0.0f;
//             for (p = 0; p < k; p++)
//                 for (q = 0; q < k; q++)
//                     acc += in[(i + p)*(m + k - 1) + j + q] * mask[p*k + q];
//             out[i*m + j] = acc;
//         }
// The TSG's mapping 'x=j y=i': 32 x 8 threads a block; the loops on the
// grid run a whole grid apart, so any grid covers any trip count.
// orcu_index is int, or long long in calls whose iterations or arrays reach past INT_MAX.
#ifndef ORCU_CONSTANT_FLOAT_MASK
#define ORCU_CONSTANT_FLOAT_MASK
// mask (float) for the kernels whose threads all read it alike: in constant memory when it has at
// most 4096 elements (the kernel's mask_in_constant), else read from global memory.
__constant__ float orcu_constant_float_mask[4096];
#endif
template <typename orcu_index>
__global__ void __launch_bounds__(256, 4) orcu_conv2d_1_kernel(
    const float *__restrict__ in,
    const float *__restrict__ mask,
    float *__restrict__ out,
    int n,
    int m,
    int k,
    bool mask_in_constant)
{
    orcu_index p, q;
    ORCU_SHARED_TILE(float, in_shared, [63][159], 1);  // free of bank conflicts
    // 'i' (the loop at ex/conv2d.c:22): tiles of 32 iterations over blockIdx.y, a whole grid apart; each thread 4 of them, 8 apart (threadIdx.y)
    for (orcu_index i0 = (orcu_index)blockIdx.y * 32; i0 < n; i0 += (orcu_index)gridDim.y * 32) {
        // 'j' (the loop at ex/conv2d.c:23): tiles of 128 iterations over blockIdx.x, a whole grid apart; each thread 4 of them, 32 apart (threadIdx.x)
        for (orcu_index j0 = (orcu_index)blockIdx.x * 128; j0 < m; j0 += (orcu_index)gridDim.x * 128) {
            const orcu_index i_0 = i0 + (orcu_index)threadIdx.y;
            const orcu_index i_1 = i0 + ((orcu_index)threadIdx.y + 8);
            const orcu_index i_2 = i0 + ((orcu_index)threadIdx.y + 16);
            const orcu_index i_3 = i0 + ((orcu_index)threadIdx.y + 24);
            const orcu_index j_0 = j0 + (orcu_index)threadIdx.x;
            const orcu_index j_1 = j0 + ((orcu_index)threadIdx.x + 32);
            const orcu_index j_2 = j0 + ((orcu_index)threadIdx.x + 64);
            const orcu_index j_3 = j0 + ((orcu_index)threadIdx.x + 96);
            float acc_0_0, acc_0_1, acc_0_2, acc_0_3, acc_1_0, acc_1_1, acc_1_2, acc_1_3, acc_2_0, acc_2_1, acc_2_2, acc_2_3, acc_3_0, acc_3_1, acc_3_2, acc_3_3;
            acc_0_0 = 0.0f;
            acc_0_1 = 0.0f;
            acc_0_2 = 0.0f;
            acc_0_3 = 0.0f;
            acc_1_0 = 0.0f;
            acc_1_1 = 0.0f;
            acc_1_2 = 0.0f;
            acc_1_3 = 0.0f;
            acc_2_0 = 0.0f;
            acc_2_1 = 0.0f;
            acc_2_2 = 0.0f;
            acc_2_3 = 0.0f;
            acc_3_0 = 0.0f;
            acc_3_1 = 0.0f;
            acc_3_2 = 0.0f;
            acc_3_3 = 0.0f;
            // 'p' and 'q' (the loops at ex/conv2d.c:25 and 26) in strips of 32 x 32: in copied to shared memory per pair of strips, the copy reused by both loops
            for (orcu_index p0 = 0; p0 < k; p0 += 32) {
                for (orcu_index q0 = 0; q0 < k; q0 += 32) {
                    // in[(i0 + p0 + orcu_a0)][(j0 + q0 + orcu_a1)]: the block's tile, read once from global memory, consecutive threads on consecutive elements
                    for (orcu_index e = (orcu_index)threadIdx.y * 32 + threadIdx.x; e < 10017; e += 256) {
                        const orcu_index orcu_a0 = e / 159;
                        const orcu_index orcu_a1 = e % 159;
                        ORCU_TILE_DATA(in_shared)[orcu_a0][orcu_a1] = ((i0 + p0 + orcu_a0) >= 0 && (i0 + p0 + orcu_a0) <= k + n - 2 && (j0 + q0 + orcu_a1) >= 0 && (j0 + q0 + orcu_a1) <= k + m - 2) ? in[(i0 + p0 + orcu_a0) * (k + m - 1) + (j0 + q0 + orcu_a1)] : (float)0;
                    }
                    __syncthreads();  // the tiles are whole before any thread reads them
                    for (p = p0; p < p0 + 32 && p < k; p++) {
                        if (q0 + 32 <= k) {
                            #pragma unroll
                            for (q = q0; q < q0 + 32; q++) {
                                acc_0_0 += in_shared[i_0 - i0 + p - p0][j_0 - j0 + q - q0] * (mask_in_constant ? orcu_constant_float_mask[p * k + q] : mask[p * k + q]);
                                acc_0_1 += in_shared[i_0 - i0 + p - p0][j_1 - j0 + q - q0] * (mask_in_constant ? orcu_constant_float_mask[p * k + q] : mask[p * k + q]);
                                acc_0_2 += in_shared[i_0 - i0 + p - p0][j_2 - j0 + q - q0] * (mask_in_constant ? orcu_constant_float_mask[p * k + q] : mask[p * k + q]);
                                acc_0_3 += in_shared[i_0 - i0 + p - p0][j_3 - j0 + q - q0] * (mask_in_constant ? orcu_constant_float_mask[p * k + q] : mask[p * k + q]);
                                acc_1_0 += in_shared[i_1 - i0 + p - p0][j_0 - j0 + q - q0] * (mask_in_constant ? orcu_constant_float_mask[p * k + q] : mask[p * k + q]);
                                acc_1_1 += in_shared[i_1 - i0 + p - p0][j_1 - j0 + q - q0] * (mask_in_constant ? orcu_constant_float_mask[p * k + q] : mask[p * k + q]);
                                acc_1_2 += in_shared[i_1 - i0 + p - p0][j_2 - j0 + q - q0] * (mask_in_constant ? orcu_constant_float_mask[p * k + q] : mask[p * k + q]);
                                acc_1_3 += in_shared[i_1 - i0 + p - p0][j_3 - j0 + q - q0] * (mask_in_constant ? orcu_constant_float_mask[p * k + q] : mask[p * k + q]);
                                acc_2_0 += in_shared[i_2 - i0 + p - p0][j_0 - j0 + q - q0] * (mask_in_constant ? orcu_constant_float_mask[p * k + q] : mask[p * k + q]);
                                acc_2_1 += in_shared[i_2 - i0 + p - p0][j_1 - j0 + q - q0] * (mask_in_constant ? orcu_constant_float_mask[p * k + q] : mask[p * k + q]);
                                acc_2_2 += in_shared[i_2 - i0 + p - p0][j_2 - j0 + q - q0] * (mask_in_constant ? orcu_constant_float_mask[p * k + q] : mask[p * k + q]);
                                acc_2_3 += in_shared[i_2 - i0 + p - p0][j_3 - j0 + q - q0] * (mask_in_constant ? orcu_constant_float_mask[p * k + q] : mask[p * k + q]);
                                acc_3_0 += in_shared[i_3 - i0 + p - p0][j_0 - j0 + q - q0] * (mask_in_constant ? orcu_constant_float_mask[p * k + q] : mask[p * k + q]);
                                acc_3_1 += in_shared[i_3 - i0 + p - p0][j_1 - j0 + q - q0] * (mask_in_constant ? orcu_constant_float_mask[p * k + q] : mask[p * k + q]);
                                acc_3_2 += in_shared[i_3 - i0 + p - p0][j_2 - j0 + q - q0] * (mask_in_constant ? orcu_constant_float_mask[p * k + q] : mask[p * k + q]);
                                acc_3_3 += in_shared[i_3 - i0 + p - p0][j_3 - j0 + q - q0] * (mask_in_constant ? orcu_constant_float_mask[p * k + q] : mask[p * k + q]);
                            }
                        } else {
                            for (q = q0; q < k; q++) {
                                acc_0_0 += in_shared[i_0 - i0 + p - p0][j_0 - j0 + q - q0] * (mask_in_constant ? orcu_constant_float_mask[p * k + q] : mask[p * k + q]);
                                acc_0_1 += in_shared[i_0 - i0 + p - p0][j_1 - j0 + q - q0] * (mask_in_constant ? orcu_constant_float_mask[p * k + q] : mask[p * k + q]);
                                acc_0_2 += in_shared[i_0 - i0 + p - p0][j_2 - j0 + q - q0] * (mask_in_constant ? orcu_constant_float_mask[p * k + q] : mask[p * k + q]);
                                acc_0_3 += in_shared[i_0 - i0 + p - p0][j_3 - j0 + q - q0] * (mask_in_constant ? orcu_constant_float_mask[p * k + q] : mask[p * k + q]);
                                acc_1_0 += in_shared[i_1 - i0 + p - p0][j_0 - j0 + q - q0] * (mask_in_constant ? orcu_constant_float_mask[p * k + q] : mask[p * k + q]);
                                acc_1_1 += in_shared[i_1 - i0 + p - p0][j_1 - j0 + q - q0] * (mask_in_constant ? orcu_constant_float_mask[p * k + q] : mask[p * k + q]);
                                acc_1_2 += in_shared[i_1 - i0 + p - p0][j_2 - j0 + q - q0] * (mask_in_constant ? orcu_constant_float_mask[p * k + q] : mask[p * k + q]);
                                acc_1_3 += in_shared[i_1 - i0 + p - p0][j_3 - j0 + q - q0] * (mask_in_constant ? orcu_constant_float_mask[p * k + q] : mask[p * k + q]);
                                acc_2_0 += in_shared[i_2 - i0 + p - p0][j_0 - j0 + q - q0] * (mask_in_constant ? orcu_constant_float_mask[p * k + q] : mask[p * k + q]);
                                acc_2_1 += in_shared[i_2 - i0 + p - p0][j_1 - j0 + q - q0] * (mask_in_constant ? orcu_constant_float_mask[p * k + q] : mask[p * k + q]);
                                acc_2_2 += in_shared[i_2 - i0 + p - p0][j_2 - j0 + q - q0] * (mask_in_constant ? orcu_constant_float_mask[p * k + q] : mask[p * k + q]);
                                acc_2_3 += in_shared[i_2 - i0 + p - p0][j_3 - j0 + q - q0] * (mask_in_constant ? orcu_constant_float_mask[p * k + q] : mask[p * k + q]);
                                acc_3_0 += in_shared[i_3 - i0 + p - p0][j_0 - j0 + q - q0] * (mask_in_constant ? orcu_constant_float_mask[p * k + q] : mask[p * k + q]);
                                acc_3_1 += in_shared[i_3 - i0 + p - p0][j_1 - j0 + q - q0] * (mask_in_constant ? orcu_constant_float_mask[p * k + q] : mask[p * k + q]);
                                acc_3_2 += in_shared[i_3 - i0 + p - p0][j_2 - j0 + q - q0] * (mask_in_constant ? orcu_constant_float_mask[p * k + q] : mask[p * k + q]);
                                acc_3_3 += in_shared[i_3 - i0 + p - p0][j_3 - j0 + q - q0] * (mask_in_constant ? orcu_constant_float_mask[p * k + q] : mask[p * k + q]);
                            }
                        }
                    }
                    __syncthreads();  // every thread has read the strips before the next ones fill them
                }
            }
            if (i_0 < n && j_0 < m) {
                out[i_0 * m + j_0] = acc_0_0;
            }
            if (i_0 < n && j_1 < m) {
                out[i_0 * m + j_1] = acc_0_1;
            }
            if (i_0 < n && j_2 < m) {
                out[i_0 * m + j_2] = acc_0_2;
            }
            if (i_0 < n && j_3 < m) {
                out[i_0 * m + j_3] = acc_0_3;
            }
            if (i_1 < n && j_0 < m) {
                out[i_1 * m + j_0] = acc_1_0;
            }
            if (i_1 < n && j_1 < m) {
                out[i_1 * m + j_1] = acc_1_1;
            }
            if (i_1 < n && j_2 < m) {
                out[i_1 * m + j_2] = acc_1_2;
            }
            if (i_1 < n && j_3 < m) {
                out[i_1 * m + j_3] = acc_1_3;
            }
            if (i_2 < n && j_0 < m) {
                out[i_2 * m + j_0] = acc_2_0;
            }
            if (i_2 < n && j_1 < m) {
                out[i_2 * m + j_1] = acc_2_1;
            }
            if (i_2 < n && j_2 < m) {
                out[i_2 * m + j_2] = acc_2_2;
            }
            if (i_2 < n && j_3 < m) {
                out[i_2 * m + j_3] = acc_2_3;
            }
            if (i_3 < n && j_0 < m) {
                out[i_3 * m + j_0] = acc_3_0;
            }
            if (i_3 < n && j_1 < m) {
                out[i_3 * m + j_1] = acc_3_1;
            }
            if (i_3 < n && j_2 < m) {
                out[i_3 * m + j_2] = acc_3_2;
            }
            if (i_3 < n && j_3 < m) {
                out[i_3 * m + j_3] = acc_3_3;
            }
        }
    }
}

#ifdef ORCU_ALLOW_ALIASING
// The loop at ex/conv2d.c:22 as written, on the host: what orcu_conv2d_1 runs when the arrays it
// is given overlap.
static void orcu_conv2d_1_on_host(
    int n,
    int m,
    int k,
    const float *in,
    const float *mask,
    float *out)
{
    int i;
    float acc;
    int j;
    int p;
    int q;
    for (i = 0; i < n; i++) {
        for (j = 0; j < m; j++) {
            acc = 0.0f;
            for (p = 0; p < k; p++) {
                for (q = 0; q < k; q++) {
                    acc += in[(i + p) * (m + k - 1) + j + q] * mask[p * k + q];
                }
            }
            out[i * m + j] = acc;
        }
    }
}
#endif

// What orcu_conv2d_1 keeps from one call to the next: allocating costs more than copying
// small arrays. orcu_release_conv2d_1() frees it.
static orcu_buffer orcu_conv2d_1_buffers[3];

// Frees what orcu_conv2d_1 keeps between calls (nothing is lost: the next call allocates again).
void orcu_release_conv2d_1(void)
{
    orcu_release_buffers(orcu_conv2d_1_buffers, 3);
}

// Runs the loop at ex/conv2d.c:22 on the GPU (threadCount=256, minBlocks=4, vectorize=False, mapping='x=j y=i', registerTile={'i': 4, 'j': 4}, shared=['in'], sharedDepth=32, constant=['mask']);
// returns when its results are in host memory.
static void orcu_conv2d_1(int n, int m, int k, const float *in, const float *mask, float *out)
{
    // Each grid loop's most iterations (times its step) over the loops around it: blocks enough to cover them.
    const long long orcu_span_i = (long long)n;
    const long long orcu_span_j = (long long)m;
    if (orcu_span_i <= 0 || orcu_span_j <= 0)
        return;  // no iteration: nothing to compute or move
    // The elements each array's accesses reach: [first, end).
    const long long orcu_in_first = 0LL, orcu_in_end = ((long long)n + k - 1) * ((long long)m + k - 1);
    const long long orcu_mask_first = 0LL, orcu_mask_end = (long long)k * k;
    const long long orcu_out_first = 0LL, orcu_out_end = (long long)m * n;
    // The iterations run at once, each on its own elements: no array may overlap one that is written.
    if (orcu_overlap(in + orcu_in_first, in + orcu_in_end, out + orcu_out_first, out + orcu_out_end)
        || orcu_overlap(mask + orcu_mask_first, mask + orcu_mask_end, out + orcu_out_first, out + orcu_out_end)) {
#ifdef ORCU_ALLOW_ALIASING
        orcu_conv2d_1_on_host(n, m, k, in, mask, out);
        return;
#endif
        orcu_aliased("orcu_conv2d_1");
    }
    const dim3 orcu_block(32, 8);
    const dim3 orcu_grid(orcu_blocks_along(orcu_span_j, 128LL, 2147483647LL), orcu_blocks_along(orcu_span_i, 32LL, 65535LL));
    // 32-bit indices unless the grid runs past the last iteration beyond INT_MAX, or an array
    // has more elements than that.
    const bool orcu_wide = (long long)n + (long long)orcu_grid.y * 32 > INT_MAX || (long long)m + (long long)orcu_grid.x * 128 > INT_MAX || orcu_in_end > INT_MAX || orcu_mask_end > INT_MAX || orcu_out_end > INT_MAX;
    decltype(&orcu_conv2d_1_kernel<int>) const orcu_kernel = orcu_wide ? orcu_conv2d_1_kernel<long long> : orcu_conv2d_1_kernel<int>;

    // Device copies of the arrays, indexed as on the host so the loop body runs unchanged.
    float *const d_in = (float *)orcu_device_buffer(&orcu_conv2d_1_buffers[0], sizeof(float) * orcu_count(0, orcu_in_end));
    float *const d_mask = (float *)orcu_device_buffer(&orcu_conv2d_1_buffers[1], sizeof(float) * orcu_count(0, orcu_mask_end));
    float *const d_out = (float *)orcu_device_buffer(&orcu_conv2d_1_buffers[2], sizeof(float) * orcu_count(0, orcu_out_end));

    ORCU_CHECK(cudaMemcpy(d_in + orcu_in_first, in + orcu_in_first, sizeof(float) * orcu_count(orcu_in_first, orcu_in_end), cudaMemcpyHostToDevice));
    ORCU_CHECK(cudaMemcpy(d_mask + orcu_mask_first, mask + orcu_mask_first, sizeof(float) * orcu_count(orcu_mask_first, orcu_mask_end), cudaMemcpyHostToDevice));
    ORCU_CHECK(cudaMemcpy(d_out + orcu_out_first, out + orcu_out_first, sizeof(float) * orcu_count(orcu_out_first, orcu_out_end), cudaMemcpyHostToDevice));

    // mask in constant memory when its elements [0, end) fit, copied from its device copy.
    const bool mask_in_constant = orcu_mask_end <= 4096;
    if (mask_in_constant)
        ORCU_CHECK(cudaMemcpyToSymbolAsync(orcu_constant_float_mask, d_mask, sizeof(float) * orcu_mask_end, 0, cudaMemcpyDeviceToDevice, 0));
    ORCU_LAUNCH(orcu_kernel, orcu_grid, orcu_block, 0, 0, d_in, d_mask, d_out, n, m, k, mask_in_constant);
    ORCU_CHECK(cudaGetLastError());
    ORCU_CHECK(cudaMemcpy(out + orcu_out_first, d_out + orcu_out_first, sizeof(float) * orcu_count(orcu_out_first, orcu_out_end), cudaMemcpyDeviceToHost));
}

#endif  // ORCU_ORIGINAL
// <<< orcu generated code: end
// >>> orcu generated code: begin
#ifdef __cplusplus
extern "C" void conv2d(int n, int m, int k, const float *in, const float *mask, float *out);  // C linkage: C code calls it
#endif
// <<< orcu generated code: end
/* 2-D convolution of an (n + k - 1) x (m + k - 1) image with a k x k mask, row-major:
 * out is n x m. Each thread computes one output pixel; thread x along the rows. */
void conv2d(int n, int m, int k, const float *in, const float *mask, float *out) {
    int i, j, p, q;
    float acc;
    /*@ begin PerfTuning (
    def performance_params {
        param TC[] = [64, 128, 256];
    }
    def input_params {
        param n[] = [33, 64];
        param m[] = [45];
        param k[] = [5];
    }
    def input_vars {
        decl dynamic float in[(n + k - 1)*(m + k - 1)] = random;
        decl dynamic float mask[k*k] = random;
        decl dynamic float out[n*m] = 0;
    }
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto', threadCount=TC)
    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++) {
            acc = 0.0f;
            for (p = 0; p < k; p++)
                for (q = 0; q < k; q++)
                    acc += in[(i + p)*(m + k - 1) + j + q] * mask[p*k + q];
            out[i*m + j] = acc;
        }
    ) @*/
#ifdef ORCU_ORIGINAL
    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++) {
            acc = 0.0f;
            for (p = 0; p < k; p++)
                for (q = 0; q < k; q++)
                    acc += in[(i + p)*(m + k - 1) + j + q] * mask[p*k + q];
            out[i*m + j] = acc;
        }
#else
    orcu_conv2d_1(n, m, k, in, mask, out);  // the loop above, run on the GPU by orcu
    (void)acc; (void)i; (void)j; (void)p; (void)q;  // only the original loops above use them
#endif
    /*@ end @*/
    /*@ end @*/
}
