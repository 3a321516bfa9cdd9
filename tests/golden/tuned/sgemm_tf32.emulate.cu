// >>> orcu generated code: begin
/* Written by orcu 0.1.0 from ex/sgemm_tf32.c.
 * orcu_sgemm_tf32_1 (line 23): TC=256, mapping_1='x=j y=i', registers_i_1=4, registers_j_1=4, shared_A_1=True, shared_B_1=True, sharedDepth_1=32, vectorize_1=True, tensorCores_1=False
 *     input n=37; time 0.01184 ms (GPU kernel time predicted by orcu's performance model, which ranked the variants)
 * orcu_sgemm_tf32_1 (line 23): TC=256, mapping_1='x=j y=i', registers_i_1=4, registers_j_1=4, shared_A_1=True, shared_B_1=True, sharedDepth_1=32, vectorize_1=True, tensorCores_1=False
 *     input n=64; time 0.008812 ms (GPU kernel time predicted by orcu's performance model, which ranked the variants)
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

// A tile's next strip copied from global to shared memory while the thread goes on: cp.async
// on sm_80 and later (no register holds the element on its way), a plain copy before. Each
// thread waits for its own copies (orcu_copies_wait), then a barrier makes the strip whole.
#ifndef ORCU_COPY_ASYNC
#define ORCU_COPY_ASYNC
#if defined(__CUDACC__) && !defined(ORCU_EMULATION)
#include <cuda_pipeline.h>
#endif
template <typename T>
__device__ __forceinline__ void orcu_copy_async(T &shared, const T &global)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    if (sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16)  // the sizes cp.async copies
        __pipeline_memcpy_async((void *)&shared, (const void *)&global, sizeof(T));
    else
        shared = global;
#else
    shared = global;
#endif
}
__device__ __forceinline__ void orcu_copies_wait()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    __pipeline_commit();
    __pipeline_wait_prior(0);
#endif
}
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

// Kernel of the loop at ex/sgemm_tf32.c:24 in sgemm_tf32():
//     for (i = 0; i < n; i++)
//         for (j = 0; j < n; j++) {
//             sum = 0.0f;
//             for (k = 0; k < n; k++)
//                 sum += A[i*n + k] * B[k*n + j];
//             C[i*n + j] = alpha * sum + beta * C[i*n + j];
//         }
// The TSG's mapping 'x=j y=i': 32 x 8 threads a block; the loops on the
// grid run a whole grid apart, so any grid covers any trip count.
// orcu_index is int, or long long in calls whose iterations or arrays reach past INT_MAX.
template <typename orcu_index>
__global__ void __launch_bounds__(256) orcu_sgemm_tf32_1_kernel(
    const float *__restrict__ A,
    const float *__restrict__ B,
    float *__restrict__ C,
    int n,
    float alpha,
    float beta)
{
    orcu_index k;
    ORCU_SHARED_TILE(float, A_buffers, [2][32][32], 1);  // free of bank conflicts
    ORCU_SHARED_TILE(float, B_buffers, [2][32][128], 1);  // free of bank conflicts
    // 'i' (the loop at ex/sgemm_tf32.c:24): tiles of 32 iterations over blockIdx.y, a whole grid apart; each thread 4 of them, 8 apart (threadIdx.y)
    for (orcu_index i0 = (orcu_index)blockIdx.y * 32; i0 < n; i0 += (orcu_index)gridDim.y * 32) {
        // 'j' (the loop at ex/sgemm_tf32.c:25): tiles of 128 iterations over blockIdx.x, a whole grid apart; each thread 4 of them, in groups of 4 consecutive ones (one vector), the groups 128 apart (threadIdx.x)
        for (orcu_index j0 = (orcu_index)blockIdx.x * 128; j0 < n; j0 += (orcu_index)gridDim.x * 128) {
            const orcu_index i_0 = i0 + (orcu_index)threadIdx.y;
            const orcu_index i_1 = i0 + ((orcu_index)threadIdx.y + 8);
            const orcu_index i_2 = i0 + ((orcu_index)threadIdx.y + 16);
            const orcu_index i_3 = i0 + ((orcu_index)threadIdx.y + 24);
            const orcu_index j_0 = j0 + (orcu_index)(threadIdx.x * 4);
            const orcu_index j_1 = j0 + (orcu_index)(threadIdx.x * 4 + 1);
            const orcu_index j_2 = j0 + (orcu_index)(threadIdx.x * 4 + 2);
            const orcu_index j_3 = j0 + (orcu_index)(threadIdx.x * 4 + 3);
            float sum_0_0, sum_0_1, sum_0_2, sum_0_3, sum_1_0, sum_1_1, sum_1_2, sum_1_3, sum_2_0, sum_2_1, sum_2_2, sum_2_3, sum_3_0, sum_3_1, sum_3_2, sum_3_3;
            sum_0_0 = 0.0f;
            sum_0_1 = 0.0f;
            sum_0_2 = 0.0f;
            sum_0_3 = 0.0f;
            sum_1_0 = 0.0f;
            sum_1_1 = 0.0f;
            sum_1_2 = 0.0f;
            sum_1_3 = 0.0f;
            sum_2_0 = 0.0f;
            sum_2_1 = 0.0f;
            sum_2_2 = 0.0f;
            sum_2_3 = 0.0f;
            sum_3_0 = 0.0f;
            sum_3_1 = 0.0f;
            sum_3_2 = 0.0f;
            sum_3_3 = 0.0f;
            if (sizeof(orcu_index) == 4) {
                // 'k' (the loop at ex/sgemm_tf32.c:27) in strips of 32: A, B copied to shared memory per strip, in two buffers: the next strip's copy in flight while the threads read this one
                orcu_index k0 = 0;
                {  // the first strip
                    auto A_shared = A_buffers[0];
                    auto B_shared = B_buffers[0];
                    // A[(i0 + orcu_a0)][(k0 + orcu_a1)]: the block's tile, read once from global memory, consecutive threads on consecutive float4s where its rows allow
                    if ((n) % 4 == 0 && (size_t)&A[(i0) * (n) + (k0)] % 16 == 0) {  // every row of the tile starts on 16 bytes
                        for (orcu_index e = (orcu_index)threadIdx.y * 32 + threadIdx.x; e < 256; e += 256) {
                            const orcu_index orcu_a0 = e / 8;
                            const orcu_index orcu_a1 = (e % 8) * 4;
                            if (((i0 + orcu_a0) >= 0 && (i0 + orcu_a0) <= n - 1 && (k0 + orcu_a1) >= 0 && (k0 + orcu_a1) <= n - 1 && (k0 + orcu_a1 + 3) >= 0 && (k0 + orcu_a1 + 3) <= n - 1))
                                orcu_copy_async(*(float4 *)&ORCU_TILE_DATA(A_shared)[orcu_a0][orcu_a1], *(const float4 *)&A[(i0 + orcu_a0) * (n) + (k0 + orcu_a1)]);
                            else  // the tile's edge
                                for (int orcu_l = 0; orcu_l < 4; orcu_l++) {
                                    if ((i0 + orcu_a0) >= 0 && (i0 + orcu_a0) <= n - 1 && (k0 + orcu_a1 + orcu_l) >= 0 && (k0 + orcu_a1 + orcu_l) <= n - 1)
                                        orcu_copy_async(ORCU_TILE_DATA(A_shared)[orcu_a0][orcu_a1 + orcu_l], A[(i0 + orcu_a0) * (n) + (k0 + orcu_a1 + orcu_l)]);
                                    else
                                        ORCU_TILE_DATA(A_shared)[orcu_a0][orcu_a1 + orcu_l] = (float)0;
                                }
                        }
                    } else {
                        for (orcu_index e = (orcu_index)threadIdx.y * 32 + threadIdx.x; e < 1024; e += 256) {
                            const orcu_index orcu_a0 = e / 32;
                            const orcu_index orcu_a1 = e % 32;
                            if ((i0 + orcu_a0) >= 0 && (i0 + orcu_a0) <= n - 1 && (k0 + orcu_a1) >= 0 && (k0 + orcu_a1) <= n - 1)
                                orcu_copy_async(ORCU_TILE_DATA(A_shared)[orcu_a0][orcu_a1], A[(i0 + orcu_a0) * (n) + (k0 + orcu_a1)]);
                            else
                                ORCU_TILE_DATA(A_shared)[orcu_a0][orcu_a1] = (float)0;
                        }
                    }
                    // B[(k0 + orcu_a0)][(j0 + orcu_a1)]: the block's tile, read once from global memory, consecutive threads on consecutive float4s where its rows allow
                    if ((n) % 4 == 0 && (size_t)&B[(k0) * (n) + (j0)] % 16 == 0) {  // every row of the tile starts on 16 bytes
                        for (orcu_index e = (orcu_index)threadIdx.y * 32 + threadIdx.x; e < 1024; e += 256) {
                            const orcu_index orcu_a0 = e / 32;
                            const orcu_index orcu_a1 = (e % 32) * 4;
                            if (((k0 + orcu_a0) >= 0 && (k0 + orcu_a0) <= n - 1 && (j0 + orcu_a1) >= 0 && (j0 + orcu_a1) <= n - 1 && (j0 + orcu_a1 + 3) >= 0 && (j0 + orcu_a1 + 3) <= n - 1))
                                orcu_copy_async(*(float4 *)&ORCU_TILE_DATA(B_shared)[orcu_a0][orcu_a1], *(const float4 *)&B[(k0 + orcu_a0) * (n) + (j0 + orcu_a1)]);
                            else  // the tile's edge
                                for (int orcu_l = 0; orcu_l < 4; orcu_l++) {
                                    if ((k0 + orcu_a0) >= 0 && (k0 + orcu_a0) <= n - 1 && (j0 + orcu_a1 + orcu_l) >= 0 && (j0 + orcu_a1 + orcu_l) <= n - 1)
                                        orcu_copy_async(ORCU_TILE_DATA(B_shared)[orcu_a0][orcu_a1 + orcu_l], B[(k0 + orcu_a0) * (n) + (j0 + orcu_a1 + orcu_l)]);
                                    else
                                        ORCU_TILE_DATA(B_shared)[orcu_a0][orcu_a1 + orcu_l] = (float)0;
                                }
                        }
                    } else {
                        for (orcu_index e = (orcu_index)threadIdx.y * 32 + threadIdx.x; e < 4096; e += 256) {
                            const orcu_index orcu_a0 = e / 128;
                            const orcu_index orcu_a1 = e % 128;
                            if ((k0 + orcu_a0) >= 0 && (k0 + orcu_a0) <= n - 1 && (j0 + orcu_a1) >= 0 && (j0 + orcu_a1) <= n - 1)
                                orcu_copy_async(ORCU_TILE_DATA(B_shared)[orcu_a0][orcu_a1], B[(k0 + orcu_a0) * (n) + (j0 + orcu_a1)]);
                            else
                                ORCU_TILE_DATA(B_shared)[orcu_a0][orcu_a1] = (float)0;
                        }
                    }
                    orcu_copies_wait();
                    __syncthreads();  // the tiles are whole before any thread reads them
                }
                for (int orcu_buffer = 0; k0 < n; k0 += 32, orcu_buffer ^= 1) {
                    if (k0 + 32 < n) {  // the next strip, into the other buffer
                        const orcu_index k0_next = k0 + 32;
                        auto A_shared = A_buffers[orcu_buffer ^ 1];
                        auto B_shared = B_buffers[orcu_buffer ^ 1];
                        // A[(i0 + orcu_a0)][(k0_next + orcu_a1)]: the block's tile, read once from global memory, consecutive threads on consecutive float4s where its rows allow
                        if ((n) % 4 == 0 && (size_t)&A[(i0) * (n) + (k0_next)] % 16 == 0) {  // every row of the tile starts on 16 bytes
                            for (orcu_index e = (orcu_index)threadIdx.y * 32 + threadIdx.x; e < 256; e += 256) {
                                const orcu_index orcu_a0 = e / 8;
                                const orcu_index orcu_a1 = (e % 8) * 4;
                                if (((i0 + orcu_a0) >= 0 && (i0 + orcu_a0) <= n - 1 && (k0_next + orcu_a1) >= 0 && (k0_next + orcu_a1) <= n - 1 && (k0_next + orcu_a1 + 3) >= 0 && (k0_next + orcu_a1 + 3) <= n - 1))
                                    orcu_copy_async(*(float4 *)&ORCU_TILE_DATA(A_shared)[orcu_a0][orcu_a1], *(const float4 *)&A[(i0 + orcu_a0) * (n) + (k0_next + orcu_a1)]);
                                else  // the tile's edge
                                    for (int orcu_l = 0; orcu_l < 4; orcu_l++) {
                                        if ((i0 + orcu_a0) >= 0 && (i0 + orcu_a0) <= n - 1 && (k0_next + orcu_a1 + orcu_l) >= 0 && (k0_next + orcu_a1 + orcu_l) <= n - 1)
                                            orcu_copy_async(ORCU_TILE_DATA(A_shared)[orcu_a0][orcu_a1 + orcu_l], A[(i0 + orcu_a0) * (n) + (k0_next + orcu_a1 + orcu_l)]);
                                        else
                                            ORCU_TILE_DATA(A_shared)[orcu_a0][orcu_a1 + orcu_l] = (float)0;
                                    }
                            }
                        } else {
                            for (orcu_index e = (orcu_index)threadIdx.y * 32 + threadIdx.x; e < 1024; e += 256) {
                                const orcu_index orcu_a0 = e / 32;
                                const orcu_index orcu_a1 = e % 32;
                                if ((i0 + orcu_a0) >= 0 && (i0 + orcu_a0) <= n - 1 && (k0_next + orcu_a1) >= 0 && (k0_next + orcu_a1) <= n - 1)
                                    orcu_copy_async(ORCU_TILE_DATA(A_shared)[orcu_a0][orcu_a1], A[(i0 + orcu_a0) * (n) + (k0_next + orcu_a1)]);
                                else
                                    ORCU_TILE_DATA(A_shared)[orcu_a0][orcu_a1] = (float)0;
                            }
                        }
                        // B[(k0_next + orcu_a0)][(j0 + orcu_a1)]: the block's tile, read once from global memory, consecutive threads on consecutive float4s where its rows allow
                        if ((n) % 4 == 0 && (size_t)&B[(k0_next) * (n) + (j0)] % 16 == 0) {  // every row of the tile starts on 16 bytes
                            for (orcu_index e = (orcu_index)threadIdx.y * 32 + threadIdx.x; e < 1024; e += 256) {
                                const orcu_index orcu_a0 = e / 32;
                                const orcu_index orcu_a1 = (e % 32) * 4;
                                if (((k0_next + orcu_a0) >= 0 && (k0_next + orcu_a0) <= n - 1 && (j0 + orcu_a1) >= 0 && (j0 + orcu_a1) <= n - 1 && (j0 + orcu_a1 + 3) >= 0 && (j0 + orcu_a1 + 3) <= n - 1))
                                    orcu_copy_async(*(float4 *)&ORCU_TILE_DATA(B_shared)[orcu_a0][orcu_a1], *(const float4 *)&B[(k0_next + orcu_a0) * (n) + (j0 + orcu_a1)]);
                                else  // the tile's edge
                                    for (int orcu_l = 0; orcu_l < 4; orcu_l++) {
                                        if ((k0_next + orcu_a0) >= 0 && (k0_next + orcu_a0) <= n - 1 && (j0 + orcu_a1 + orcu_l) >= 0 && (j0 + orcu_a1 + orcu_l) <= n - 1)
                                            orcu_copy_async(ORCU_TILE_DATA(B_shared)[orcu_a0][orcu_a1 + orcu_l], B[(k0_next + orcu_a0) * (n) + (j0 + orcu_a1 + orcu_l)]);
                                        else
                                            ORCU_TILE_DATA(B_shared)[orcu_a0][orcu_a1 + orcu_l] = (float)0;
                                    }
                            }
                        } else {
                            for (orcu_index e = (orcu_index)threadIdx.y * 32 + threadIdx.x; e < 4096; e += 256) {
                                const orcu_index orcu_a0 = e / 128;
                                const orcu_index orcu_a1 = e % 128;
                                if ((k0_next + orcu_a0) >= 0 && (k0_next + orcu_a0) <= n - 1 && (j0 + orcu_a1) >= 0 && (j0 + orcu_a1) <= n - 1)
                                    orcu_copy_async(ORCU_TILE_DATA(B_shared)[orcu_a0][orcu_a1], B[(k0_next + orcu_a0) * (n) + (j0 + orcu_a1)]);
                                else
                                    ORCU_TILE_DATA(B_shared)[orcu_a0][orcu_a1] = (float)0;
                            }
                        }
                    }
                    auto A_shared = A_buffers[orcu_buffer];
                    auto B_shared = B_buffers[orcu_buffer];
                    if (k0 + 32 <= n) {
                        #pragma unroll
                        for (k = k0; k < k0 + 32; k++) {
                            const float4 B_v1 = ORCU_TILE_VECTOR(float4, B_shared, [k - k0][j_0 - j0]);
                            sum_0_0 += A_shared[i_0 - i0][k - k0] * B_v1.x;
                            sum_0_1 += A_shared[i_0 - i0][k - k0] * B_v1.y;
                            sum_0_2 += A_shared[i_0 - i0][k - k0] * B_v1.z;
                            sum_0_3 += A_shared[i_0 - i0][k - k0] * B_v1.w;
                            sum_1_0 += A_shared[i_1 - i0][k - k0] * B_v1.x;
                            sum_1_1 += A_shared[i_1 - i0][k - k0] * B_v1.y;
                            sum_1_2 += A_shared[i_1 - i0][k - k0] * B_v1.z;
                            sum_1_3 += A_shared[i_1 - i0][k - k0] * B_v1.w;
                            sum_2_0 += A_shared[i_2 - i0][k - k0] * B_v1.x;
                            sum_2_1 += A_shared[i_2 - i0][k - k0] * B_v1.y;
                            sum_2_2 += A_shared[i_2 - i0][k - k0] * B_v1.z;
                            sum_2_3 += A_shared[i_2 - i0][k - k0] * B_v1.w;
                            sum_3_0 += A_shared[i_3 - i0][k - k0] * B_v1.x;
                            sum_3_1 += A_shared[i_3 - i0][k - k0] * B_v1.y;
                            sum_3_2 += A_shared[i_3 - i0][k - k0] * B_v1.z;
                            sum_3_3 += A_shared[i_3 - i0][k - k0] * B_v1.w;
                        }
                    } else {
                        for (k = k0; k < n; k++) {
                            const float4 B_v1 = ORCU_TILE_VECTOR(float4, B_shared, [k - k0][j_0 - j0]);
                            sum_0_0 += A_shared[i_0 - i0][k - k0] * B_v1.x;
                            sum_0_1 += A_shared[i_0 - i0][k - k0] * B_v1.y;
                            sum_0_2 += A_shared[i_0 - i0][k - k0] * B_v1.z;
                            sum_0_3 += A_shared[i_0 - i0][k - k0] * B_v1.w;
                            sum_1_0 += A_shared[i_1 - i0][k - k0] * B_v1.x;
                            sum_1_1 += A_shared[i_1 - i0][k - k0] * B_v1.y;
                            sum_1_2 += A_shared[i_1 - i0][k - k0] * B_v1.z;
                            sum_1_3 += A_shared[i_1 - i0][k - k0] * B_v1.w;
                            sum_2_0 += A_shared[i_2 - i0][k - k0] * B_v1.x;
                            sum_2_1 += A_shared[i_2 - i0][k - k0] * B_v1.y;
                            sum_2_2 += A_shared[i_2 - i0][k - k0] * B_v1.z;
                            sum_2_3 += A_shared[i_2 - i0][k - k0] * B_v1.w;
                            sum_3_0 += A_shared[i_3 - i0][k - k0] * B_v1.x;
                            sum_3_1 += A_shared[i_3 - i0][k - k0] * B_v1.y;
                            sum_3_2 += A_shared[i_3 - i0][k - k0] * B_v1.z;
                            sum_3_3 += A_shared[i_3 - i0][k - k0] * B_v1.w;
                        }
                    }
                    orcu_copies_wait();
                    __syncthreads();  // the next strip is whole, and every thread has read this one
                }
            } else {  // 64-bit indices: one buffer
                auto A_shared = A_buffers[0];
                auto B_shared = B_buffers[0];
                // 'k' (the loop at ex/sgemm_tf32.c:27) in strips of 32: A, B copied to shared memory per strip
                for (orcu_index k0 = 0; k0 < n; k0 += 32) {
                    // A[(i0 + orcu_a0)][(k0 + orcu_a1)]: the block's tile, read once from global memory, consecutive threads on consecutive float4s where its rows allow
                    if ((n) % 4 == 0 && (size_t)&A[(i0) * (n) + (k0)] % 16 == 0) {  // every row of the tile starts on 16 bytes
                        for (orcu_index e = (orcu_index)threadIdx.y * 32 + threadIdx.x; e < 256; e += 256) {
                            const orcu_index orcu_a0 = e / 8;
                            const orcu_index orcu_a1 = (e % 8) * 4;
                            if (((i0 + orcu_a0) >= 0 && (i0 + orcu_a0) <= n - 1 && (k0 + orcu_a1) >= 0 && (k0 + orcu_a1) <= n - 1 && (k0 + orcu_a1 + 3) >= 0 && (k0 + orcu_a1 + 3) <= n - 1))
                                *(float4 *)&ORCU_TILE_DATA(A_shared)[orcu_a0][orcu_a1] = *(const float4 *)&A[(i0 + orcu_a0) * (n) + (k0 + orcu_a1)];
                            else  // the tile's edge
                                for (int orcu_l = 0; orcu_l < 4; orcu_l++) {
                                    ORCU_TILE_DATA(A_shared)[orcu_a0][orcu_a1 + orcu_l] = ((i0 + orcu_a0) >= 0 && (i0 + orcu_a0) <= n - 1 && (k0 + orcu_a1 + orcu_l) >= 0 && (k0 + orcu_a1 + orcu_l) <= n - 1) ? A[(i0 + orcu_a0) * (n) + (k0 + orcu_a1 + orcu_l)] : (float)0;
                                }
                        }
                    } else {
                        for (orcu_index e = (orcu_index)threadIdx.y * 32 + threadIdx.x; e < 1024; e += 256) {
                            const orcu_index orcu_a0 = e / 32;
                            const orcu_index orcu_a1 = e % 32;
                            ORCU_TILE_DATA(A_shared)[orcu_a0][orcu_a1] = ((i0 + orcu_a0) >= 0 && (i0 + orcu_a0) <= n - 1 && (k0 + orcu_a1) >= 0 && (k0 + orcu_a1) <= n - 1) ? A[(i0 + orcu_a0) * (n) + (k0 + orcu_a1)] : (float)0;
                        }
                    }
                    // B[(k0 + orcu_a0)][(j0 + orcu_a1)]: the block's tile, read once from global memory, consecutive threads on consecutive float4s where its rows allow
                    if ((n) % 4 == 0 && (size_t)&B[(k0) * (n) + (j0)] % 16 == 0) {  // every row of the tile starts on 16 bytes
                        for (orcu_index e = (orcu_index)threadIdx.y * 32 + threadIdx.x; e < 1024; e += 256) {
                            const orcu_index orcu_a0 = e / 32;
                            const orcu_index orcu_a1 = (e % 32) * 4;
                            if (((k0 + orcu_a0) >= 0 && (k0 + orcu_a0) <= n - 1 && (j0 + orcu_a1) >= 0 && (j0 + orcu_a1) <= n - 1 && (j0 + orcu_a1 + 3) >= 0 && (j0 + orcu_a1 + 3) <= n - 1))
                                *(float4 *)&ORCU_TILE_DATA(B_shared)[orcu_a0][orcu_a1] = *(const float4 *)&B[(k0 + orcu_a0) * (n) + (j0 + orcu_a1)];
                            else  // the tile's edge
                                for (int orcu_l = 0; orcu_l < 4; orcu_l++) {
                                    ORCU_TILE_DATA(B_shared)[orcu_a0][orcu_a1 + orcu_l] = ((k0 + orcu_a0) >= 0 && (k0 + orcu_a0) <= n - 1 && (j0 + orcu_a1 + orcu_l) >= 0 && (j0 + orcu_a1 + orcu_l) <= n - 1) ? B[(k0 + orcu_a0) * (n) + (j0 + orcu_a1 + orcu_l)] : (float)0;
                                }
                        }
                    } else {
                        for (orcu_index e = (orcu_index)threadIdx.y * 32 + threadIdx.x; e < 4096; e += 256) {
                            const orcu_index orcu_a0 = e / 128;
                            const orcu_index orcu_a1 = e % 128;
                            ORCU_TILE_DATA(B_shared)[orcu_a0][orcu_a1] = ((k0 + orcu_a0) >= 0 && (k0 + orcu_a0) <= n - 1 && (j0 + orcu_a1) >= 0 && (j0 + orcu_a1) <= n - 1) ? B[(k0 + orcu_a0) * (n) + (j0 + orcu_a1)] : (float)0;
                        }
                    }
                    __syncthreads();  // the tiles are whole before any thread reads them
                    if (k0 + 32 <= n) {
                        #pragma unroll
                        for (k = k0; k < k0 + 32; k++) {
                            const float4 B_v2 = ORCU_TILE_VECTOR(float4, B_shared, [k - k0][j_0 - j0]);
                            sum_0_0 += A_shared[i_0 - i0][k - k0] * B_v2.x;
                            sum_0_1 += A_shared[i_0 - i0][k - k0] * B_v2.y;
                            sum_0_2 += A_shared[i_0 - i0][k - k0] * B_v2.z;
                            sum_0_3 += A_shared[i_0 - i0][k - k0] * B_v2.w;
                            sum_1_0 += A_shared[i_1 - i0][k - k0] * B_v2.x;
                            sum_1_1 += A_shared[i_1 - i0][k - k0] * B_v2.y;
                            sum_1_2 += A_shared[i_1 - i0][k - k0] * B_v2.z;
                            sum_1_3 += A_shared[i_1 - i0][k - k0] * B_v2.w;
                            sum_2_0 += A_shared[i_2 - i0][k - k0] * B_v2.x;
                            sum_2_1 += A_shared[i_2 - i0][k - k0] * B_v2.y;
                            sum_2_2 += A_shared[i_2 - i0][k - k0] * B_v2.z;
                            sum_2_3 += A_shared[i_2 - i0][k - k0] * B_v2.w;
                            sum_3_0 += A_shared[i_3 - i0][k - k0] * B_v2.x;
                            sum_3_1 += A_shared[i_3 - i0][k - k0] * B_v2.y;
                            sum_3_2 += A_shared[i_3 - i0][k - k0] * B_v2.z;
                            sum_3_3 += A_shared[i_3 - i0][k - k0] * B_v2.w;
                        }
                    } else {
                        for (k = k0; k < n; k++) {
                            const float4 B_v2 = ORCU_TILE_VECTOR(float4, B_shared, [k - k0][j_0 - j0]);
                            sum_0_0 += A_shared[i_0 - i0][k - k0] * B_v2.x;
                            sum_0_1 += A_shared[i_0 - i0][k - k0] * B_v2.y;
                            sum_0_2 += A_shared[i_0 - i0][k - k0] * B_v2.z;
                            sum_0_3 += A_shared[i_0 - i0][k - k0] * B_v2.w;
                            sum_1_0 += A_shared[i_1 - i0][k - k0] * B_v2.x;
                            sum_1_1 += A_shared[i_1 - i0][k - k0] * B_v2.y;
                            sum_1_2 += A_shared[i_1 - i0][k - k0] * B_v2.z;
                            sum_1_3 += A_shared[i_1 - i0][k - k0] * B_v2.w;
                            sum_2_0 += A_shared[i_2 - i0][k - k0] * B_v2.x;
                            sum_2_1 += A_shared[i_2 - i0][k - k0] * B_v2.y;
                            sum_2_2 += A_shared[i_2 - i0][k - k0] * B_v2.z;
                            sum_2_3 += A_shared[i_2 - i0][k - k0] * B_v2.w;
                            sum_3_0 += A_shared[i_3 - i0][k - k0] * B_v2.x;
                            sum_3_1 += A_shared[i_3 - i0][k - k0] * B_v2.y;
                            sum_3_2 += A_shared[i_3 - i0][k - k0] * B_v2.z;
                            sum_3_3 += A_shared[i_3 - i0][k - k0] * B_v2.w;
                        }
                    }
                    __syncthreads();  // every thread has read the strip before the next one fills it
                }
            }
            const bool C_v3_whole = i_0 < n && j_3 < n && (size_t)&C[i_0 * n + j_0] % 16 == 0;
            float4 C_v3;
            if (C_v3_whole) C_v3 = *(const float4 *)&C[i_0 * n + j_0];
            else { C_v3.x = i_0 < n && j_0 < n ? C[i_0 * n + j_0] : (float)0; C_v3.y = i_0 < n && j_1 < n ? C[i_0 * n + j_1] : (float)0; C_v3.z = i_0 < n && j_2 < n ? C[i_0 * n + j_2] : (float)0; C_v3.w = i_0 < n && j_3 < n ? C[i_0 * n + j_3] : (float)0; }
            C_v3.x = alpha * sum_0_0 + beta * C_v3.x;
            C_v3.y = alpha * sum_0_1 + beta * C_v3.y;
            C_v3.z = alpha * sum_0_2 + beta * C_v3.z;
            C_v3.w = alpha * sum_0_3 + beta * C_v3.w;
            if (C_v3_whole) *(float4 *)&C[i_0 * n + j_0] = C_v3;
            else { if (i_0 < n && j_0 < n) C[i_0 * n + j_0] = C_v3.x; if (i_0 < n && j_1 < n) C[i_0 * n + j_1] = C_v3.y; if (i_0 < n && j_2 < n) C[i_0 * n + j_2] = C_v3.z; if (i_0 < n && j_3 < n) C[i_0 * n + j_3] = C_v3.w; }  // the loop's end, or a row that does not start on a whole vector
            const bool C_v4_whole = i_1 < n && j_3 < n && (size_t)&C[i_1 * n + j_0] % 16 == 0;
            float4 C_v4;
            if (C_v4_whole) C_v4 = *(const float4 *)&C[i_1 * n + j_0];
            else { C_v4.x = i_1 < n && j_0 < n ? C[i_1 * n + j_0] : (float)0; C_v4.y = i_1 < n && j_1 < n ? C[i_1 * n + j_1] : (float)0; C_v4.z = i_1 < n && j_2 < n ? C[i_1 * n + j_2] : (float)0; C_v4.w = i_1 < n && j_3 < n ? C[i_1 * n + j_3] : (float)0; }
            C_v4.x = alpha * sum_1_0 + beta * C_v4.x;
            C_v4.y = alpha * sum_1_1 + beta * C_v4.y;
            C_v4.z = alpha * sum_1_2 + beta * C_v4.z;
            C_v4.w = alpha * sum_1_3 + beta * C_v4.w;
            if (C_v4_whole) *(float4 *)&C[i_1 * n + j_0] = C_v4;
            else { if (i_1 < n && j_0 < n) C[i_1 * n + j_0] = C_v4.x; if (i_1 < n && j_1 < n) C[i_1 * n + j_1] = C_v4.y; if (i_1 < n && j_2 < n) C[i_1 * n + j_2] = C_v4.z; if (i_1 < n && j_3 < n) C[i_1 * n + j_3] = C_v4.w; }  // the loop's end, or a row that does not start on a whole vector
            const bool C_v5_whole = i_2 < n && j_3 < n && (size_t)&C[i_2 * n + j_0] % 16 == 0;
            float4 C_v5;
            if (C_v5_whole) C_v5 = *(const float4 *)&C[i_2 * n + j_0];
            else { C_v5.x = i_2 < n && j_0 < n ? C[i_2 * n + j_0] : (float)0; C_v5.y = i_2 < n && j_1 < n ? C[i_2 * n + j_1] : (float)0; C_v5.z = i_2 < n && j_2 < n ? C[i_2 * n + j_2] : (float)0; C_v5.w = i_2 < n && j_3 < n ? C[i_2 * n + j_3] : (float)0; }
            C_v5.x = alpha * sum_2_0 + beta * C_v5.x;
            C_v5.y = alpha * sum_2_1 + beta * C_v5.y;
            C_v5.z = alpha * sum_2_2 + beta * C_v5.z;
            C_v5.w = alpha * sum_2_3 + beta * C_v5.w;
            if (C_v5_whole) *(float4 *)&C[i_2 * n + j_0] = C_v5;
            else { if (i_2 < n && j_0 < n) C[i_2 * n + j_0] = C_v5.x; if (i_2 < n && j_1 < n) C[i_2 * n + j_1] = C_v5.y; if (i_2 < n && j_2 < n) C[i_2 * n + j_2] = C_v5.z; if (i_2 < n && j_3 < n) C[i_2 * n + j_3] = C_v5.w; }  // the loop's end, or a row that does not start on a whole vector
            const bool C_v6_whole = i_3 < n && j_3 < n && (size_t)&C[i_3 * n + j_0] % 16 == 0;
            float4 C_v6;
            if (C_v6_whole) C_v6 = *(const float4 *)&C[i_3 * n + j_0];
            else { C_v6.x = i_3 < n && j_0 < n ? C[i_3 * n + j_0] : (float)0; C_v6.y = i_3 < n && j_1 < n ? C[i_3 * n + j_1] : (float)0; C_v6.z = i_3 < n && j_2 < n ? C[i_3 * n + j_2] : (float)0; C_v6.w = i_3 < n && j_3 < n ? C[i_3 * n + j_3] : (float)0; }
            C_v6.x = alpha * sum_3_0 + beta * C_v6.x;
            C_v6.y = alpha * sum_3_1 + beta * C_v6.y;
            C_v6.z = alpha * sum_3_2 + beta * C_v6.z;
            C_v6.w = alpha * sum_3_3 + beta * C_v6.w;
            if (C_v6_whole) *(float4 *)&C[i_3 * n + j_0] = C_v6;
            else { if (i_3 < n && j_0 < n) C[i_3 * n + j_0] = C_v6.x; if (i_3 < n && j_1 < n) C[i_3 * n + j_1] = C_v6.y; if (i_3 < n && j_2 < n) C[i_3 * n + j_2] = C_v6.z; if (i_3 < n && j_3 < n) C[i_3 * n + j_3] = C_v6.w; }  // the loop's end, or a row that does not start on a whole vector
        }
    }
}

#ifdef ORCU_ALLOW_ALIASING
// The loop at ex/sgemm_tf32.c:24 as written, on the host: what orcu_sgemm_tf32_1 runs when the arrays it
// is given overlap.
static void orcu_sgemm_tf32_1_on_host(
    int n,
    const float *A,
    const float *B,
    float *C,
    float alpha,
    float beta)
{
    int i;
    int j;
    int k;
    float sum;
    for (i = 0; i < n; i++) {
        for (j = 0; j < n; j++) {
            sum = 0.0f;
            for (k = 0; k < n; k++) {
                sum += A[i * n + k] * B[k * n + j];
            }
            C[i * n + j] = alpha * sum + beta * C[i * n + j];
        }
    }
}
#endif

// What orcu_sgemm_tf32_1 keeps from one call to the next: allocating costs more than copying
// small arrays. orcu_release_sgemm_tf32_1() frees it.
static orcu_buffer orcu_sgemm_tf32_1_buffers[3];

// Frees what orcu_sgemm_tf32_1 keeps between calls (nothing is lost: the next call allocates again).
void orcu_release_sgemm_tf32_1(void)
{
    orcu_release_buffers(orcu_sgemm_tf32_1_buffers, 3);
}

// Runs the loop at ex/sgemm_tf32.c:24 on the GPU (threadCount=256, vectorize=True, mapping='x=j y=i', registerTile={'i': 4, 'j': 4}, shared=['A', 'B'], sharedDepth=32, tensorCores=False, allowReducedPrecision=True);
// returns when its results are in host memory.
static void orcu_sgemm_tf32_1(
    int n,
    const float *A,
    const float *B,
    float *C,
    float alpha,
    float beta)
{
    // Each grid loop's most iterations (times its step) over the loops around it: blocks enough to cover them.
    const long long orcu_span_i = (long long)n;
    const long long orcu_span_j = (long long)n;
    if (orcu_span_i <= 0 || orcu_span_j <= 0)
        return;  // no iteration: nothing to compute or move
    // The elements each array's accesses reach: [first, end).
    const long long orcu_A_first = 0LL, orcu_A_end = (long long)n * n;
    const long long orcu_B_first = 0LL, orcu_B_end = (long long)n * n;
    const long long orcu_C_first = 0LL, orcu_C_end = (long long)n * n;
    // The iterations run at once, each on its own elements: no array may overlap one that is written.
    if (orcu_overlap(A + orcu_A_first, A + orcu_A_end, C + orcu_C_first, C + orcu_C_end)
        || orcu_overlap(B + orcu_B_first, B + orcu_B_end, C + orcu_C_first, C + orcu_C_end)) {
#ifdef ORCU_ALLOW_ALIASING
        orcu_sgemm_tf32_1_on_host(n, A, B, C, alpha, beta);
        return;
#endif
        orcu_aliased("orcu_sgemm_tf32_1");
    }
    const dim3 orcu_block(32, 8);
    const dim3 orcu_grid(orcu_blocks_along(orcu_span_j, 128LL, 2147483647LL), orcu_blocks_along(orcu_span_i, 32LL, 65535LL));
    // 32-bit indices unless the grid runs past the last iteration beyond INT_MAX, or an array
    // has more elements than that.
    const bool orcu_wide = (long long)n + (long long)orcu_grid.y * 32 > INT_MAX || (long long)n + (long long)orcu_grid.x * 128 > INT_MAX || orcu_A_end > INT_MAX || orcu_B_end > INT_MAX || orcu_C_end > INT_MAX;
    decltype(&orcu_sgemm_tf32_1_kernel<int>) const orcu_kernel = orcu_wide ? orcu_sgemm_tf32_1_kernel<long long> : orcu_sgemm_tf32_1_kernel<int>;

    // Device copies of the arrays, indexed as on the host so the loop body runs unchanged.
    float *const d_A = (float *)orcu_device_buffer(&orcu_sgemm_tf32_1_buffers[0], sizeof(float) * orcu_count(0, orcu_A_end));
    float *const d_B = (float *)orcu_device_buffer(&orcu_sgemm_tf32_1_buffers[1], sizeof(float) * orcu_count(0, orcu_B_end));
    float *const d_C = (float *)orcu_device_buffer(&orcu_sgemm_tf32_1_buffers[2], sizeof(float) * orcu_count(0, orcu_C_end));

    ORCU_CHECK(cudaMemcpy(d_A + orcu_A_first, A + orcu_A_first, sizeof(float) * orcu_count(orcu_A_first, orcu_A_end), cudaMemcpyHostToDevice));
    ORCU_CHECK(cudaMemcpy(d_B + orcu_B_first, B + orcu_B_first, sizeof(float) * orcu_count(orcu_B_first, orcu_B_end), cudaMemcpyHostToDevice));
    ORCU_CHECK(cudaMemcpy(d_C + orcu_C_first, C + orcu_C_first, sizeof(float) * orcu_count(orcu_C_first, orcu_C_end), cudaMemcpyHostToDevice));

    ORCU_LAUNCH(orcu_kernel, orcu_grid, orcu_block, 0, 0, d_A, d_B, d_C, n, alpha, beta);
    ORCU_CHECK(cudaGetLastError());
    ORCU_CHECK(cudaMemcpy(C + orcu_C_first, d_C + orcu_C_first, sizeof(float) * orcu_count(orcu_C_first, orcu_C_end), cudaMemcpyDeviceToHost));
}

#endif  // ORCU_ORIGINAL
// <<< orcu generated code: end
// >>> orcu generated code: begin
#ifdef __cplusplus
extern "C" void sgemm_tf32(int n, float alpha, float beta, const float *A, const float *B, float *C);  // C linkage: C code calls it
#endif
// <<< orcu generated code: end
/* sgemm.c on the TF32 tensor cores: allowReducedPrecision=True lets the TSG offer tensorCores for
   this float product, each operand rounded to TF32 (10 mantissa bits) and the sums in float, as
   cuBLAS's CUBLAS_TF32_TENSOR_OP_MATH does. Its variants are checked to 2^-10 of each result's
   size instead of float's bound; without the opt-in a float product never leaves float. */
void sgemm_tf32(int n, float alpha, float beta, const float *A, const float *B, float *C) {
    int i, j, k;
    float sum;
    /*@ begin PerfTuning (
    def performance_params {
        param TC[] = [64, 128, 256];
    }
    def input_params {
        param n[] = [37, 64];
    }
    def input_vars {
        decl dynamic float A[n*n] = random;
        decl dynamic float B[n*n] = random;
        decl dynamic float C[n*n] = random;
        decl float alpha = 1.5;
        decl float beta = 0.5;
    }
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto', threadCount=TC, allowReducedPrecision=True)
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            sum = 0.0f;
            for (k = 0; k < n; k++)
                sum += A[i*n + k] * B[k*n + j];
            C[i*n + j] = alpha * sum + beta * C[i*n + j];
        }
    ) @*/
#ifdef ORCU_ORIGINAL
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            sum = 0.0f;
            for (k = 0; k < n; k++)
                sum += A[i*n + k] * B[k*n + j];
            C[i*n + j] = alpha * sum + beta * C[i*n + j];
        }
#else
    orcu_sgemm_tf32_1(n, A, B, C, alpha, beta);  // the loop above, run on the GPU by orcu
    (void)i; (void)j; (void)k; (void)sum;  // only the original loops above use them
#endif
    /*@ end @*/
    /*@ end @*/
}
