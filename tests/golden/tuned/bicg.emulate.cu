// >>> orcu generated code: begin
/* Written by orcu 0.1.0 from ex/bicg.c.
 * orcu_bicg_1 (line 20): TC=128, mapping_1='x=j', registers_j_1=1, shared_r_1=True, constant_r_1=False, sharedDepth_1=16, vectorize_1=False
 *     input n=37, m=45; time 0.008143 ms (GPU kernel time predicted by orcu's performance model, which ranked the variants)
 * orcu_bicg_1 (line 20): TC=128, mapping_1='x=j', registers_j_1=1, shared_r_1=True, constant_r_1=False, sharedDepth_1=16, vectorize_1=False
 *     input n=64, m=45; time 0.00949 ms (GPU kernel time predicted by orcu's performance model, which ranked the variants)
 * orcu_bicg_2 (line 33): TC=64, mapping_2='x=j(threads) y=i'
 *     input n=37, m=45; time 0.006894 ms (GPU kernel time predicted by orcu's performance model, which ranked the variants)
 * orcu_bicg_2 (line 33): TC=64, mapping_2='x=j(threads) y=i'
 *     input n=64, m=45; time 0.006894 ms (GPU kernel time predicted by orcu's performance model, which ranked the variants)
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

// An array one Loop region leaves on the device for the next: its host and device addresses,
// the elements [first, end) the device holds, and whether they still have to be copied back.
struct orcu_handoff {
    void *host;
    void *device;
    long long first, end;
    size_t element;
    bool pending;
};

static inline orcu_handoff orcu_handoff_of(const void *host, const void *device, long long first, long long end, size_t element, bool pending)
{
    orcu_handoff h = {(void *)host, (void *)device, first, end, element, pending};
    return h;
}

// Takes what the last region left (it is there once).
static inline orcu_handoff orcu_take(orcu_handoff *slot)
{
    const orcu_handoff h = *slot;
    slot->host = NULL;
    return h;
}

// Whether the device copy covers the elements [first, end) of the array at host.
static inline bool orcu_kept(const orcu_handoff *h, const void *host, long long first, long long end)
{
    return h->host != NULL && h->host == host && h->first <= first && end <= h->end;
}

// Copies back to the host the elements that were left pending on the device.
static inline void orcu_flush(const orcu_handoff *h)
{
    if (h->host != NULL && h->pending && h->end > h->first)
        ORCU_CHECK(cudaMemcpy((char *)h->host + h->first * h->element, (char *)h->device + h->first * h->element,
                              (size_t)(h->end - h->first) * h->element, cudaMemcpyDeviceToHost));
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

// A thread's place in its block, and a block's in the grid, counted as warps count them.
__device__ inline unsigned orcu_thread_rank() { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }
__device__ inline unsigned orcu_block_rank() { return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z); }

// Reduction operators: combine two partial results.
struct orcu_sum { template <typename T> __device__ static T combine(T a, T b) { return a + b; } };


// Folds v over one row of the block: the `width` threads along x that share threadIdx.y
// (width a power of two up to 32, so a row lies in one warp and rows fold independently);
// the row's thread with threadIdx.x == 0 gets the result.
template <typename T, typename Op, int width>
__device__ T orcu_row_reduce(T v)
{
    const unsigned lane = orcu_thread_rank() % 32;
    const unsigned mask = width >= 32 ? 0xffffffffu : ((1u << width) - 1u) << (lane / width * width);
#pragma unroll
    for (int offset = width / 2; offset > 0; offset /= 2)
        v = Op::combine(v, __shfl_down_sync(mask, v, offset, width));
    return v;
}

// Arrays orcu_bicg_1 leaves on the device for orcu_bicg_2, which runs next (A).
static orcu_handoff orcu_handoff_bicg_1[1];

// Kernel of the loop at ex/bicg.c:21 in bicg():
//     for (j = 0; j < m; j++) {
//         s[j] = 0.0;
//         for (i = 0; i < n; i++)
//             s[j] = s[j] + r[i] * A[i*m + j];
//     }
// The TSG's mapping 'x=j': 128 x 1 threads a block; the loops on the
// grid run a whole grid apart, so any grid covers any trip count.
// orcu_index is int, or long long in calls whose iterations or arrays reach past INT_MAX.
template <typename orcu_index>
__global__ void __launch_bounds__(128) orcu_bicg_1_kernel(
    double *__restrict__ s,
    const double *__restrict__ r,
    const double *__restrict__ A,
    int m,
    int n)
{
    orcu_index j, i;
    ORCU_SHARED_TILE(double, r_buffers, [2][16], 1);  // free of bank conflicts
    // 'j' (the loop at ex/bicg.c:21): tiles of 128 iterations over blockIdx.x, a whole grid apart; each thread 1 of them, 128 apart (threadIdx.x)
    for (orcu_index j0 = (orcu_index)blockIdx.x * 128; j0 < m; j0 += (orcu_index)gridDim.x * 128) {
        j = j0 + (orcu_index)threadIdx.x;
        if (j < m) {
            s[j] = 0.0;
        }
        double s_i_acc = j < m ? s[j] : (double)0;  // s[j] stays in a register over the loop on i
        if (sizeof(orcu_index) == 4) {
            // 'i' (the loop at ex/bicg.c:23) in strips of 16: r copied to shared memory per strip, in two buffers: the next strip's copy in flight while the threads read this one
            orcu_index i0 = 0;
            {  // the first strip
                auto r_shared = r_buffers[0];
                // r[(i0 + orcu_a0)]: the block's tile, read once from global memory, consecutive threads on consecutive double2s where its rows allow
                if ((size_t)&r[(i0)] % 16 == 0) {  // every row of the tile starts on 16 bytes
                    for (orcu_index e = (orcu_index)threadIdx.y * 128 + threadIdx.x; e < 8; e += 128) {
                        const orcu_index orcu_a0 = (e) * 2;
                        if (((i0 + orcu_a0) >= 0 && (i0 + orcu_a0) <= n - 1 && (i0 + orcu_a0 + 1) >= 0 && (i0 + orcu_a0 + 1) <= n - 1))
                            orcu_copy_async(*(double2 *)&ORCU_TILE_DATA(r_shared)[orcu_a0], *(const double2 *)&r[(i0 + orcu_a0)]);
                        else  // the tile's edge
                            for (int orcu_l = 0; orcu_l < 2; orcu_l++) {
                                if ((i0 + orcu_a0 + orcu_l) >= 0 && (i0 + orcu_a0 + orcu_l) <= n - 1)
                                    orcu_copy_async(ORCU_TILE_DATA(r_shared)[orcu_a0 + orcu_l], r[(i0 + orcu_a0 + orcu_l)]);
                                else
                                    ORCU_TILE_DATA(r_shared)[orcu_a0 + orcu_l] = (double)0;
                            }
                    }
                } else {
                    for (orcu_index e = (orcu_index)threadIdx.y * 128 + threadIdx.x; e < 16; e += 128) {
                        const orcu_index orcu_a0 = e;
                        if ((i0 + orcu_a0) >= 0 && (i0 + orcu_a0) <= n - 1)
                            orcu_copy_async(ORCU_TILE_DATA(r_shared)[orcu_a0], r[(i0 + orcu_a0)]);
                        else
                            ORCU_TILE_DATA(r_shared)[orcu_a0] = (double)0;
                    }
                }
                orcu_copies_wait();
                __syncthreads();  // the tiles are whole before any thread reads them
            }
            for (int orcu_buffer = 0; i0 < n; i0 += 16, orcu_buffer ^= 1) {
                if (i0 + 16 < n) {  // the next strip, into the other buffer
                    const orcu_index i0_next = i0 + 16;
                    auto r_shared = r_buffers[orcu_buffer ^ 1];
                    // r[(i0_next + orcu_a0)]: the block's tile, read once from global memory, consecutive threads on consecutive double2s where its rows allow
                    if ((size_t)&r[(i0_next)] % 16 == 0) {  // every row of the tile starts on 16 bytes
                        for (orcu_index e = (orcu_index)threadIdx.y * 128 + threadIdx.x; e < 8; e += 128) {
                            const orcu_index orcu_a0 = (e) * 2;
                            if (((i0_next + orcu_a0) >= 0 && (i0_next + orcu_a0) <= n - 1 && (i0_next + orcu_a0 + 1) >= 0 && (i0_next + orcu_a0 + 1) <= n - 1))
                                orcu_copy_async(*(double2 *)&ORCU_TILE_DATA(r_shared)[orcu_a0], *(const double2 *)&r[(i0_next + orcu_a0)]);
                            else  // the tile's edge
                                for (int orcu_l = 0; orcu_l < 2; orcu_l++) {
                                    if ((i0_next + orcu_a0 + orcu_l) >= 0 && (i0_next + orcu_a0 + orcu_l) <= n - 1)
                                        orcu_copy_async(ORCU_TILE_DATA(r_shared)[orcu_a0 + orcu_l], r[(i0_next + orcu_a0 + orcu_l)]);
                                    else
                                        ORCU_TILE_DATA(r_shared)[orcu_a0 + orcu_l] = (double)0;
                                }
                        }
                    } else {
                        for (orcu_index e = (orcu_index)threadIdx.y * 128 + threadIdx.x; e < 16; e += 128) {
                            const orcu_index orcu_a0 = e;
                            if ((i0_next + orcu_a0) >= 0 && (i0_next + orcu_a0) <= n - 1)
                                orcu_copy_async(ORCU_TILE_DATA(r_shared)[orcu_a0], r[(i0_next + orcu_a0)]);
                            else
                                ORCU_TILE_DATA(r_shared)[orcu_a0] = (double)0;
                        }
                    }
                }
                auto r_shared = r_buffers[orcu_buffer];
                if (i0 + 16 <= n) {
                    #pragma unroll
                    for (i = i0; i < i0 + 16; i++) {
                        if (j < m) {
                            s_i_acc = s_i_acc + r_shared[i - i0] * A[i * m + j];
                        }
                    }
                } else {
                    for (i = i0; i < n; i++) {
                        if (j < m) {
                            s_i_acc = s_i_acc + r_shared[i - i0] * A[i * m + j];
                        }
                    }
                }
                orcu_copies_wait();
                __syncthreads();  // the next strip is whole, and every thread has read this one
            }
        } else {  // 64-bit indices: one buffer
            auto r_shared = r_buffers[0];
            // 'i' (the loop at ex/bicg.c:23) in strips of 16: r copied to shared memory per strip
            for (orcu_index i0 = 0; i0 < n; i0 += 16) {
                // r[(i0 + orcu_a0)]: the block's tile, read once from global memory, consecutive threads on consecutive double2s where its rows allow
                if ((size_t)&r[(i0)] % 16 == 0) {  // every row of the tile starts on 16 bytes
                    for (orcu_index e = (orcu_index)threadIdx.y * 128 + threadIdx.x; e < 8; e += 128) {
                        const orcu_index orcu_a0 = (e) * 2;
                        if (((i0 + orcu_a0) >= 0 && (i0 + orcu_a0) <= n - 1 && (i0 + orcu_a0 + 1) >= 0 && (i0 + orcu_a0 + 1) <= n - 1))
                            *(double2 *)&ORCU_TILE_DATA(r_shared)[orcu_a0] = *(const double2 *)&r[(i0 + orcu_a0)];
                        else  // the tile's edge
                            for (int orcu_l = 0; orcu_l < 2; orcu_l++) {
                                ORCU_TILE_DATA(r_shared)[orcu_a0 + orcu_l] = ((i0 + orcu_a0 + orcu_l) >= 0 && (i0 + orcu_a0 + orcu_l) <= n - 1) ? r[(i0 + orcu_a0 + orcu_l)] : (double)0;
                            }
                    }
                } else {
                    for (orcu_index e = (orcu_index)threadIdx.y * 128 + threadIdx.x; e < 16; e += 128) {
                        const orcu_index orcu_a0 = e;
                        ORCU_TILE_DATA(r_shared)[orcu_a0] = ((i0 + orcu_a0) >= 0 && (i0 + orcu_a0) <= n - 1) ? r[(i0 + orcu_a0)] : (double)0;
                    }
                }
                __syncthreads();  // the tiles are whole before any thread reads them
                if (i0 + 16 <= n) {
                    #pragma unroll
                    for (i = i0; i < i0 + 16; i++) {
                        if (j < m) {
                            s_i_acc = s_i_acc + r_shared[i - i0] * A[i * m + j];
                        }
                    }
                } else {
                    for (i = i0; i < n; i++) {
                        if (j < m) {
                            s_i_acc = s_i_acc + r_shared[i - i0] * A[i * m + j];
                        }
                    }
                }
                __syncthreads();  // every thread has read the strip before the next one fills it
            }
        }
        if (j < m) s[j] = s_i_acc;
    }
}

#ifdef ORCU_ALLOW_ALIASING
// The loop at ex/bicg.c:21 as written, on the host: what orcu_bicg_1 runs when the arrays it
// is given overlap.
static void orcu_bicg_1_on_host(int m, double *s, int n, const double *r, const double *A)
{
    int j;
    int i;
    for (j = 0; j < m; j++) {
        s[j] = 0.0;
        for (i = 0; i < n; i++) {
            s[j] = s[j] + r[i] * A[i * m + j];
        }
    }
}
#endif

// What orcu_bicg_1 keeps from one call to the next: allocating costs more than copying
// small arrays. orcu_release_bicg_1() frees it.
static orcu_buffer orcu_bicg_1_buffers[3];

// Frees what orcu_bicg_1 keeps between calls (nothing is lost: the next call allocates again).
void orcu_release_bicg_1(void)
{
    orcu_release_buffers(orcu_bicg_1_buffers, 3);
}

// Runs the loop at ex/bicg.c:21 on the GPU (threadCount=128, vectorize=False, mapping='x=j', registerTile={'j': 1}, shared=['r'], sharedDepth=16, constant=[]);
// returns when its results are in host memory.
static void orcu_bicg_1(int m, double *s, int n, const double *r, const double *A)
{
    // Each grid loop's most iterations (times its step) over the loops around it: blocks enough to cover them.
    const long long orcu_span_j = (long long)m;
    if (orcu_span_j <= 0)
        return;  // no iteration: nothing to compute or move
    // The elements each array's accesses reach: [first, end).
    const long long orcu_s_first = 0LL, orcu_s_end = (long long)m;
    const long long orcu_r_first = 0LL, orcu_r_end = (long long)n;
    const long long orcu_A_first = 0LL, orcu_A_end = (long long)m * n;
    // The iterations run at once, each on its own elements: no array may overlap one that is written.
    if (orcu_overlap(s + orcu_s_first, s + orcu_s_end, r + orcu_r_first, r + orcu_r_end)
        || orcu_overlap(s + orcu_s_first, s + orcu_s_end, A + orcu_A_first, A + orcu_A_end)) {
#ifdef ORCU_ALLOW_ALIASING
        orcu_bicg_1_on_host(m, s, n, r, A);
        return;
#endif
        orcu_aliased("orcu_bicg_1");
    }
    const dim3 orcu_block(128, 1);
    const dim3 orcu_grid(orcu_blocks_along(orcu_span_j, 128LL, 2147483647LL), 1);
    // 32-bit indices unless the grid runs past the last iteration beyond INT_MAX, or an array
    // has more elements than that.
    const bool orcu_wide = (long long)m + (long long)orcu_grid.x * 128 > INT_MAX || orcu_s_end > INT_MAX || orcu_r_end > INT_MAX || orcu_A_end > INT_MAX;
    decltype(&orcu_bicg_1_kernel<int>) const orcu_kernel = orcu_wide ? orcu_bicg_1_kernel<long long> : orcu_bicg_1_kernel<int>;

    // Device copies of the arrays, indexed as on the host so the loop body runs unchanged.
    double *const d_s = (double *)orcu_device_buffer(&orcu_bicg_1_buffers[0], sizeof(double) * orcu_count(0, orcu_s_end));
    double *const d_r = (double *)orcu_device_buffer(&orcu_bicg_1_buffers[1], sizeof(double) * orcu_count(0, orcu_r_end));
    double *const d_A = (double *)orcu_device_buffer(&orcu_bicg_1_buffers[2], sizeof(double) * orcu_count(0, orcu_A_end));

    ORCU_CHECK(cudaMemcpy(d_s + orcu_s_first, s + orcu_s_first, sizeof(double) * orcu_count(orcu_s_first, orcu_s_end), cudaMemcpyHostToDevice));
    ORCU_CHECK(cudaMemcpy(d_r + orcu_r_first, r + orcu_r_first, sizeof(double) * orcu_count(orcu_r_first, orcu_r_end), cudaMemcpyHostToDevice));
    ORCU_CHECK(cudaMemcpy(d_A + orcu_A_first, A + orcu_A_first, sizeof(double) * orcu_count(orcu_A_first, orcu_A_end), cudaMemcpyHostToDevice));

    ORCU_LAUNCH(orcu_kernel, orcu_grid, orcu_block, 0, 0, d_s, d_r, d_A, m, n);
    ORCU_CHECK(cudaGetLastError());
    ORCU_CHECK(cudaMemcpy(s + orcu_s_first, d_s + orcu_s_first, sizeof(double) * orcu_count(orcu_s_first, orcu_s_end), cudaMemcpyDeviceToHost));
    // For the region that runs next: A on the device.
    orcu_handoff_bicg_1[0] = orcu_handoff_of(A, d_A, orcu_A_first, orcu_A_end, sizeof(double), false);
}

// Kernel of the loop at ex/bicg.c:34 in bicg():
//     for (i = 0; i < n; i++) {
//         q[i] = 0.0;
//         for (j = 0; j < m; j++)
//             q[i] = q[i] + A[i*m + j] * p[j];
//     }
// The TSG's mapping 'x=j(threads) y=i': 32 x 2 threads a block; the loops on the
// grid run a whole grid apart, so any grid covers any trip count.
// orcu_index is int, or long long in calls whose iterations or arrays reach past INT_MAX.
template <typename orcu_index>
__global__ void __launch_bounds__(64) orcu_bicg_2_kernel(
    double *__restrict__ q,
    const double *__restrict__ A,
    const double *__restrict__ p,
    int n,
    int m)
{
    orcu_index i, j;
    // 'i' (the loop at ex/bicg.c:34): over threadIdx.y and blockIdx.y, a whole grid apart
    for (i = ((orcu_index)blockIdx.y * blockDim.y + threadIdx.y); i < n; i += (orcu_index)gridDim.y * blockDim.y) {
        if (threadIdx.x == 0) {  // once per row of threads
            q[i] = 0.0;
        }
        // 'j' (the loop at ex/bicg.c:36): over threadIdx.x, each thread a share; the row of threads then folds the shares
        {
            double q_sum = 0.0;
            for (j = (orcu_index)threadIdx.x; j < m; j += (orcu_index)blockDim.x) {
                q_sum = q_sum + A[i * m + j] * p[j];
            }
            q_sum = orcu_row_reduce<double, orcu_sum, 32>(q_sum);
            if (threadIdx.x == 0) {
                q[i] = orcu_sum::combine(q[i], q_sum);
            }
        }
    }
}

#ifdef ORCU_ALLOW_ALIASING
// The loop at ex/bicg.c:34 as written, on the host: what orcu_bicg_2 runs when the arrays it
// is given overlap.
static void orcu_bicg_2_on_host(int n, double *q, int m, const double *A, const double *p)
{
    int i;
    int j;
    for (i = 0; i < n; i++) {
        q[i] = 0.0;
        for (j = 0; j < m; j++) {
            q[i] = q[i] + A[i * m + j] * p[j];
        }
    }
}
#endif

// What orcu_bicg_2 keeps from one call to the next: allocating costs more than copying
// small arrays. orcu_release_bicg_2() frees it.
static orcu_buffer orcu_bicg_2_buffers[3];

// Frees what orcu_bicg_2 keeps between calls (nothing is lost: the next call allocates again).
void orcu_release_bicg_2(void)
{
    orcu_release_buffers(orcu_bicg_2_buffers, 3);
}

// Runs the loop at ex/bicg.c:34 on the GPU (threadCount=64, mapping='x=j(threads) y=i');
// returns when its results are in host memory.
static void orcu_bicg_2(int n, double *q, int m, const double *A, const double *p)
{
    // What the region before this one left on the device: used where it covers what this loop
    // touches; its elements not yet copied back to the host are, whatever happens.
    const orcu_handoff orcu_A_handed = orcu_take(&orcu_handoff_bicg_1[0]);
    // Each grid loop's most iterations (times its step) over the loops around it: blocks enough to cover them.
    const long long orcu_span_i = (long long)n;
    if (orcu_span_i <= 0) {  // no iteration: nothing to compute or move
        orcu_flush(&orcu_A_handed);
        return;
    }
    // The elements each array's accesses reach: [first, end).
    const long long orcu_q_first = 0LL, orcu_q_end = (long long)n;
    const long long orcu_A_first = 0LL, orcu_A_end = (long long)m * n;
    const long long orcu_p_first = 0LL, orcu_p_end = (long long)m;
    // The iterations run at once, each on its own elements: no array may overlap one that is written.
    if (orcu_overlap(q + orcu_q_first, q + orcu_q_end, A + orcu_A_first, A + orcu_A_end)
        || orcu_overlap(q + orcu_q_first, q + orcu_q_end, p + orcu_p_first, p + orcu_p_end)) {
#ifdef ORCU_ALLOW_ALIASING
        orcu_flush(&orcu_A_handed);
        orcu_bicg_2_on_host(n, q, m, A, p);
        return;
#endif
        orcu_aliased("orcu_bicg_2");
    }
    const dim3 orcu_block(32, 2);
    const dim3 orcu_grid(1, orcu_blocks_along(orcu_span_i, 2LL, 65535LL));
    // 32-bit indices unless the grid runs past the last iteration beyond INT_MAX, or an array
    // has more elements than that.
    const bool orcu_wide = (long long)n + (long long)orcu_grid.y * 2 > INT_MAX || orcu_q_end > INT_MAX || orcu_A_end > INT_MAX || orcu_p_end > INT_MAX;
    decltype(&orcu_bicg_2_kernel<int>) const orcu_kernel = orcu_wide ? orcu_bicg_2_kernel<long long> : orcu_bicg_2_kernel<int>;
    const bool orcu_A_kept = orcu_kept(&orcu_A_handed, A, orcu_A_first, orcu_A_end);
    if (!orcu_A_kept)
        orcu_flush(&orcu_A_handed);

    // Device copies of the arrays, indexed as on the host so the loop body runs unchanged.
    double *const d_q = (double *)orcu_device_buffer(&orcu_bicg_2_buffers[0], sizeof(double) * orcu_count(0, orcu_q_end));
    double *const d_A = orcu_A_kept ? (double *)orcu_A_handed.device
        : (double *)orcu_device_buffer(&orcu_bicg_2_buffers[1], sizeof(double) * orcu_count(0, orcu_A_end));
    double *const d_p = (double *)orcu_device_buffer(&orcu_bicg_2_buffers[2], sizeof(double) * orcu_count(0, orcu_p_end));

    ORCU_CHECK(cudaMemcpy(d_q + orcu_q_first, q + orcu_q_first, sizeof(double) * orcu_count(orcu_q_first, orcu_q_end), cudaMemcpyHostToDevice));
    if (!orcu_A_kept)
        ORCU_CHECK(cudaMemcpy(d_A + orcu_A_first, A + orcu_A_first, sizeof(double) * orcu_count(orcu_A_first, orcu_A_end), cudaMemcpyHostToDevice));
    ORCU_CHECK(cudaMemcpy(d_p + orcu_p_first, p + orcu_p_first, sizeof(double) * orcu_count(orcu_p_first, orcu_p_end), cudaMemcpyHostToDevice));

    ORCU_LAUNCH(orcu_kernel, orcu_grid, orcu_block, 0, 0, d_q, d_A, d_p, n, m);
    ORCU_CHECK(cudaGetLastError());
    if (orcu_A_kept)
        orcu_flush(&orcu_A_handed);  // before this loop's own copies: they may overlap
    ORCU_CHECK(cudaMemcpy(q + orcu_q_first, d_q + orcu_q_first, sizeof(double) * orcu_count(orcu_q_first, orcu_q_end), cudaMemcpyDeviceToHost));
}

#endif  // ORCU_ORIGINAL
// <<< orcu generated code: end
// >>> orcu generated code: begin
#ifdef __cplusplus
extern "C" void bicg(int n, int m, const double *A, const double *r, const double *p, double *s, double *q);  // C linkage: C code calls it
#endif
// <<< orcu generated code: end
/* PolyBench bicg: s = A^T r and q = A p, A row-major (n rows of m), one nest each. */
void bicg(int n, int m, const double *A, const double *r, const double *p, double *s, double *q) {
    int i, j;
    /*@ begin PerfTuning (
    def performance_params {
        param TC[] = [64, 128];
    }
    def input_params {
        param n[] = [37, 64];
        param m[] = [45];
    }
    def input_vars {
        decl dynamic double A[n*m] = random;
        decl dynamic double r[n] = random;
        decl dynamic double p[m] = random;
        decl dynamic double s[m] = 0;
        decl dynamic double q[n] = 0;
    }
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto', threadCount=TC)
    for (j = 0; j < m; j++) {
        s[j] = 0.0;
        for (i = 0; i < n; i++)
            s[j] = s[j] + r[i] * A[i*m + j];
    }
    ) @*/
#ifdef ORCU_ORIGINAL
    for (j = 0; j < m; j++) {
        s[j] = 0.0;
        for (i = 0; i < n; i++)
            s[j] = s[j] + r[i] * A[i*m + j];
    }
#else
    orcu_bicg_1(m, s, n, r, A);  // the loop above, run on the GPU by orcu
    (void)i; (void)j;  // only the original loops above use them
#endif
    /*@ end @*/
    /*@ begin Loop(transform CUDA(mapping='auto', threadCount=TC)
    for (i = 0; i < n; i++) {
        q[i] = 0.0;
        for (j = 0; j < m; j++)
            q[i] = q[i] + A[i*m + j] * p[j];
    }
    ) @*/
#ifdef ORCU_ORIGINAL
    for (i = 0; i < n; i++) {
        q[i] = 0.0;
        for (j = 0; j < m; j++)
            q[i] = q[i] + A[i*m + j] * p[j];
    }
#else
    orcu_bicg_2(n, q, m, A, p);  // the loop above, run on the GPU by orcu
    (void)i; (void)j;  // only the original loops above use them
#endif
    /*@ end @*/
    /*@ end @*/
}
