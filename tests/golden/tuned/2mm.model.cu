// >>> orcu generated code: begin
/* Written by orcu 0.1.0 from ex/2mm.c.
 * orcu_mm2_1 (line 26): TC=64, mapping_1='x=j y=i', registers_i_1=1, registers_j_1=4, shared_A_1=False, shared_B_1=True, sharedDepth_1=32, vectorize_1=True, tensorCores_1=False
 *     input ni=33, nj=35, nk=37, nl=39; time 0.02098 ms (GPU kernel time predicted by orcu's performance model, which ranked the variants)
 * orcu_mm2_1 (line 26): TC=64, mapping_1='x=j y=i', registers_i_1=1, registers_j_1=4, shared_A_1=False, shared_B_1=True, sharedDepth_1=32, vectorize_1=True, tensorCores_1=False
 *     input ni=48, nj=35, nk=37, nl=39; time 0.02105 ms (GPU kernel time predicted by orcu's performance model, which ranked the variants)
 * orcu_mm2_2 (line 41): TC=64, mapping_2='x=j y=i', registers_i_2=1, registers_j_2=8, shared_C_2=False, shared_tmp_2=True, sharedDepth_2=32, vectorize_2=True, tensorCores_2=False
 *     input ni=33, nj=35, nk=37, nl=39; time 0.01372 ms (GPU kernel time predicted by orcu's performance model, which ranked the variants)
 * orcu_mm2_2 (line 41): TC=64, mapping_2='x=j y=i', registers_i_2=1, registers_j_2=8, shared_C_2=False, shared_tmp_2=True, sharedDepth_2=32, vectorize_2=True, tensorCores_2=False
 *     input ni=48, nj=35, nk=37, nl=39; time 0.01395 ms (GPU kernel time predicted by orcu's performance model, which ranked the variants)
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

// Arrays orcu_mm2_1 leaves on the device for orcu_mm2_2, which runs next (tmp).
static orcu_handoff orcu_handoff_mm2_1[1];

// Kernel of the loop at ex/2mm.c:27 in mm2():
//     for (i = 0; i < ni; i++)
//         for (j = 0; j < nj; j++) {
//             tmp[i*nj + j] = 0.0;
//             for (k = 0; k < nk; k++)
//                 tmp[i*nj + j] += alpha * A[i*nk + k] * B[k*nj + j];
//         }
// The TSG's mapping 'x=j y=i': 32 x 2 threads a block; the loops on the
// grid run a whole grid apart, so any grid covers any trip count.
// orcu_index is int, or long long in calls whose iterations or arrays reach past INT_MAX.
template <typename orcu_index>
__global__ void __launch_bounds__(64) orcu_mm2_1_kernel(
    double *__restrict__ tmp,
    const double *__restrict__ A,
    const double *__restrict__ B,
    int ni,
    int nj,
    int nk,
    double alpha)
{
    orcu_index i, k;
    ORCU_SHARED_TILE(double, B_shared, [32][128], 1);  // free of bank conflicts
    // 'i' (the loop at ex/2mm.c:27): tiles of 2 iterations over blockIdx.y, a whole grid apart; each thread 1 of them, 2 apart (threadIdx.y)
    for (orcu_index i0 = (orcu_index)blockIdx.y * 2; i0 < ni; i0 += (orcu_index)gridDim.y * 2) {
        // 'j' (the loop at ex/2mm.c:28): tiles of 128 iterations over blockIdx.x, a whole grid apart; each thread 4 of them, in groups of 2 consecutive ones (one vector), the groups 64 apart (threadIdx.x)
        for (orcu_index j0 = (orcu_index)blockIdx.x * 128; j0 < nj; j0 += (orcu_index)gridDim.x * 128) {
            i = i0 + (orcu_index)threadIdx.y;
            const orcu_index j_0 = j0 + (orcu_index)(threadIdx.x * 2);
            const orcu_index j_1 = j0 + (orcu_index)(threadIdx.x * 2 + 1);
            const orcu_index j_2 = j0 + (orcu_index)((threadIdx.x + 32) * 2);
            const orcu_index j_3 = j0 + (orcu_index)((threadIdx.x + 32) * 2 + 1);
            double2 tmp_v1;  // every iteration assigns it
            tmp_v1.x = 0.0;
            tmp_v1.y = 0.0;
            if (i < ni && j_1 < nj && (size_t)&tmp[i * nj + j_0] % 16 == 0) *(double2 *)&tmp[i * nj + j_0] = tmp_v1;
            else { if (i < ni && j_0 < nj) tmp[i * nj + j_0] = tmp_v1.x; if (i < ni && j_1 < nj) tmp[i * nj + j_1] = tmp_v1.y; }  // the loop's end, or a row that does not start on a whole vector
            double2 tmp_v2;  // every iteration assigns it
            tmp_v2.x = 0.0;
            tmp_v2.y = 0.0;
            if (i < ni && j_3 < nj && (size_t)&tmp[i * nj + j_2] % 16 == 0) *(double2 *)&tmp[i * nj + j_2] = tmp_v2;
            else { if (i < ni && j_2 < nj) tmp[i * nj + j_2] = tmp_v2.x; if (i < ni && j_3 < nj) tmp[i * nj + j_3] = tmp_v2.y; }  // the loop's end, or a row that does not start on a whole vector
            double2 tmp_k_acc_v3;
            if (i < ni && j_1 < nj && (size_t)&tmp[i * nj + j_0] % 16 == 0) tmp_k_acc_v3 = *(const double2 *)&tmp[i * nj + j_0];
            else { tmp_k_acc_v3.x = i < ni && j_0 < nj ? tmp[i * nj + j_0] : (double)0; tmp_k_acc_v3.y = i < ni && j_1 < nj ? tmp[i * nj + j_1] : (double)0; }
            double tmp_k_acc_0 = tmp_k_acc_v3.x;  // tmp[i * nj + j_0] stays in a register over the loop on k
            double tmp_k_acc_1 = tmp_k_acc_v3.y;  // tmp[i * nj + j_1] stays in a register over the loop on k
            double2 tmp_k_acc_v4;
            if (i < ni && j_3 < nj && (size_t)&tmp[i * nj + j_2] % 16 == 0) tmp_k_acc_v4 = *(const double2 *)&tmp[i * nj + j_2];
            else { tmp_k_acc_v4.x = i < ni && j_2 < nj ? tmp[i * nj + j_2] : (double)0; tmp_k_acc_v4.y = i < ni && j_3 < nj ? tmp[i * nj + j_3] : (double)0; }
            double tmp_k_acc_2 = tmp_k_acc_v4.x;  // tmp[i * nj + j_2] stays in a register over the loop on k
            double tmp_k_acc_3 = tmp_k_acc_v4.y;  // tmp[i * nj + j_3] stays in a register over the loop on k
            // 'k' (the loop at ex/2mm.c:30) in strips of 32: B copied to shared memory per strip
            for (orcu_index k0 = 0; k0 < nk; k0 += 32) {
                // B[(k0 + orcu_a0)][(j0 + orcu_a1)]: the block's tile, read once from global memory, consecutive threads on consecutive double2s where its rows allow
                if ((nj) % 2 == 0 && (size_t)&B[(k0) * (nj) + (j0)] % 16 == 0) {  // every row of the tile starts on 16 bytes
                    for (orcu_index e = (orcu_index)threadIdx.y * 32 + threadIdx.x; e < 2048; e += 64) {
                        const orcu_index orcu_a0 = e / 64;
                        const orcu_index orcu_a1 = (e % 64) * 2;
                        if (((k0 + orcu_a0) >= 0 && (k0 + orcu_a0) <= nk - 1 && (j0 + orcu_a1) >= 0 && (j0 + orcu_a1) <= nj - 1 && (j0 + orcu_a1 + 1) >= 0 && (j0 + orcu_a1 + 1) <= nj - 1))
                            *(double2 *)&ORCU_TILE_DATA(B_shared)[orcu_a0][orcu_a1] = *(const double2 *)&B[(k0 + orcu_a0) * (nj) + (j0 + orcu_a1)];
                        else  // the tile's edge
                            for (int orcu_l = 0; orcu_l < 2; orcu_l++) {
                                ORCU_TILE_DATA(B_shared)[orcu_a0][orcu_a1 + orcu_l] = ((k0 + orcu_a0) >= 0 && (k0 + orcu_a0) <= nk - 1 && (j0 + orcu_a1 + orcu_l) >= 0 && (j0 + orcu_a1 + orcu_l) <= nj - 1) ? B[(k0 + orcu_a0) * (nj) + (j0 + orcu_a1 + orcu_l)] : (double)0;
                            }
                    }
                } else {
                    for (orcu_index e = (orcu_index)threadIdx.y * 32 + threadIdx.x; e < 4096; e += 64) {
                        const orcu_index orcu_a0 = e / 128;
                        const orcu_index orcu_a1 = e % 128;
                        ORCU_TILE_DATA(B_shared)[orcu_a0][orcu_a1] = ((k0 + orcu_a0) >= 0 && (k0 + orcu_a0) <= nk - 1 && (j0 + orcu_a1) >= 0 && (j0 + orcu_a1) <= nj - 1) ? B[(k0 + orcu_a0) * (nj) + (j0 + orcu_a1)] : (double)0;
                    }
                }
                __syncthreads();  // the tiles are whole before any thread reads them
                if (k0 + 32 <= nk) {
                    #pragma unroll
                    for (k = k0; k < k0 + 32; k++) {
                        const double2 B_v5 = ORCU_TILE_VECTOR(double2, B_shared, [k - k0][j_0 - j0]);
                        if (i < ni && j_0 < nj) {
                            tmp_k_acc_0 += alpha * A[i * nk + k] * B_v5.x;
                        }
                        if (i < ni && j_1 < nj) {
                            tmp_k_acc_1 += alpha * A[i * nk + k] * B_v5.y;
                        }
                        const double2 B_v6 = ORCU_TILE_VECTOR(double2, B_shared, [k - k0][j_2 - j0]);
                        if (i < ni && j_2 < nj) {
                            tmp_k_acc_2 += alpha * A[i * nk + k] * B_v6.x;
                        }
                        if (i < ni && j_3 < nj) {
                            tmp_k_acc_3 += alpha * A[i * nk + k] * B_v6.y;
                        }
                    }
                } else {
                    for (k = k0; k < nk; k++) {
                        const double2 B_v5 = ORCU_TILE_VECTOR(double2, B_shared, [k - k0][j_0 - j0]);
                        if (i < ni && j_0 < nj) {
                            tmp_k_acc_0 += alpha * A[i * nk + k] * B_v5.x;
                        }
                        if (i < ni && j_1 < nj) {
                            tmp_k_acc_1 += alpha * A[i * nk + k] * B_v5.y;
                        }
                        const double2 B_v6 = ORCU_TILE_VECTOR(double2, B_shared, [k - k0][j_2 - j0]);
                        if (i < ni && j_2 < nj) {
                            tmp_k_acc_2 += alpha * A[i * nk + k] * B_v6.x;
                        }
                        if (i < ni && j_3 < nj) {
                            tmp_k_acc_3 += alpha * A[i * nk + k] * B_v6.y;
                        }
                    }
                }
                __syncthreads();  // every thread has read the strip before the next one fills it
            }
            const double2 tmp_k_acc_v7 = {tmp_k_acc_0, tmp_k_acc_1};
            if (i < ni && j_1 < nj && (size_t)&tmp[i * nj + j_0] % 16 == 0) *(double2 *)&tmp[i * nj + j_0] = tmp_k_acc_v7;
            else { if (i < ni && j_0 < nj) tmp[i * nj + j_0] = tmp_k_acc_v7.x; if (i < ni && j_1 < nj) tmp[i * nj + j_1] = tmp_k_acc_v7.y; }  // the loop's end, or a row that does not start on a whole vector
            const double2 tmp_k_acc_v8 = {tmp_k_acc_2, tmp_k_acc_3};
            if (i < ni && j_3 < nj && (size_t)&tmp[i * nj + j_2] % 16 == 0) *(double2 *)&tmp[i * nj + j_2] = tmp_k_acc_v8;
            else { if (i < ni && j_2 < nj) tmp[i * nj + j_2] = tmp_k_acc_v8.x; if (i < ni && j_3 < nj) tmp[i * nj + j_3] = tmp_k_acc_v8.y; }  // the loop's end, or a row that does not start on a whole vector
        }
    }
}

#ifdef ORCU_ALLOW_ALIASING
// The loop at ex/2mm.c:27 as written, on the host: what orcu_mm2_1 runs when the arrays it
// is given overlap.
static void orcu_mm2_1_on_host(
    int ni,
    int nj,
    double *tmp,
    int nk,
    double alpha,
    const double *A,
    const double *B)
{
    int i;
    int j;
    int k;
    for (i = 0; i < ni; i++) {
        for (j = 0; j < nj; j++) {
            tmp[i * nj + j] = 0.0;
            for (k = 0; k < nk; k++) {
                tmp[i * nj + j] += alpha * A[i * nk + k] * B[k * nj + j];
            }
        }
    }
}
#endif

// What orcu_mm2_1 keeps from one call to the next: allocating costs more than copying
// small arrays. orcu_release_mm2_1() frees it.
static orcu_buffer orcu_mm2_1_buffers[3];

// Frees what orcu_mm2_1 keeps between calls (nothing is lost: the next call allocates again).
void orcu_release_mm2_1(void)
{
    orcu_release_buffers(orcu_mm2_1_buffers, 3);
}

// Runs the loop at ex/2mm.c:27 on the GPU (threadCount=64, vectorize=True, mapping='x=j y=i', registerTile={'i': 1, 'j': 4}, shared=['B'], sharedDepth=32, tensorCores=False);
// returns when its results are in host memory.
static void orcu_mm2_1(
    int ni,
    int nj,
    double *tmp,
    int nk,
    double alpha,
    const double *A,
    const double *B)
{
    // Each grid loop's most iterations (times its step) over the loops around it: blocks enough to cover them.
    const long long orcu_span_i = (long long)ni;
    const long long orcu_span_j = (long long)nj;
    if (orcu_span_i <= 0 || orcu_span_j <= 0)
        return;  // no iteration: nothing to compute or move
    // The elements each array's accesses reach: [first, end).
    const long long orcu_tmp_first = 0LL, orcu_tmp_end = (long long)ni * nj;
    const long long orcu_A_first = 0LL, orcu_A_end = (long long)ni * nk;
    const long long orcu_B_first = 0LL, orcu_B_end = (long long)nj * nk;
    // The iterations run at once, each on its own elements: no array may overlap one that is written.
    if (orcu_overlap(tmp + orcu_tmp_first, tmp + orcu_tmp_end, A + orcu_A_first, A + orcu_A_end)
        || orcu_overlap(tmp + orcu_tmp_first, tmp + orcu_tmp_end, B + orcu_B_first, B + orcu_B_end)) {
#ifdef ORCU_ALLOW_ALIASING
        orcu_mm2_1_on_host(ni, nj, tmp, nk, alpha, A, B);
        return;
#endif
        orcu_aliased("orcu_mm2_1");
    }
    const dim3 orcu_block(32, 2);
    const dim3 orcu_grid(orcu_blocks_along(orcu_span_j, 128LL, 2147483647LL), orcu_blocks_along(orcu_span_i, 2LL, 65535LL));
    // 32-bit indices unless the grid runs past the last iteration beyond INT_MAX, or an array
    // has more elements than that.
    const bool orcu_wide = (long long)ni + (long long)orcu_grid.y * 2 > INT_MAX || (long long)nj + (long long)orcu_grid.x * 128 > INT_MAX || orcu_tmp_end > INT_MAX || orcu_A_end > INT_MAX || orcu_B_end > INT_MAX;
    decltype(&orcu_mm2_1_kernel<int>) const orcu_kernel = orcu_wide ? orcu_mm2_1_kernel<long long> : orcu_mm2_1_kernel<int>;

    // Device copies of the arrays, indexed as on the host so the loop body runs unchanged.
    double *const d_tmp = (double *)orcu_device_buffer(&orcu_mm2_1_buffers[0], sizeof(double) * orcu_count(0, orcu_tmp_end));
    double *const d_A = (double *)orcu_device_buffer(&orcu_mm2_1_buffers[1], sizeof(double) * orcu_count(0, orcu_A_end));
    double *const d_B = (double *)orcu_device_buffer(&orcu_mm2_1_buffers[2], sizeof(double) * orcu_count(0, orcu_B_end));

    ORCU_CHECK(cudaMemcpy(d_tmp + orcu_tmp_first, tmp + orcu_tmp_first, sizeof(double) * orcu_count(orcu_tmp_first, orcu_tmp_end), cudaMemcpyHostToDevice));
    ORCU_CHECK(cudaMemcpy(d_A + orcu_A_first, A + orcu_A_first, sizeof(double) * orcu_count(orcu_A_first, orcu_A_end), cudaMemcpyHostToDevice));
    ORCU_CHECK(cudaMemcpy(d_B + orcu_B_first, B + orcu_B_first, sizeof(double) * orcu_count(orcu_B_first, orcu_B_end), cudaMemcpyHostToDevice));

    ORCU_LAUNCH(orcu_kernel, orcu_grid, orcu_block, 0, 0, d_tmp, d_A, d_B, ni, nj, nk, alpha);
    ORCU_CHECK(cudaGetLastError());
    ORCU_CHECK(cudaStreamSynchronize(0));  // dataOnDevice: no copy waits for the kernel, so wait here
    // For the region that runs next: tmp on the device    // (tmp not yet copied back: nothing reads it before that region).
    orcu_handoff_mm2_1[0] = orcu_handoff_of(tmp, d_tmp, orcu_tmp_first, orcu_tmp_end, sizeof(double), true);
}

// Kernel of the loop at ex/2mm.c:42 in mm2():
//     for (i = 0; i < ni; i++)
//         for (j = 0; j < nl; j++) {
//             D[i*nl + j] *= beta;
//             for (k = 0; k < nj; k++)
//                 D[i*nl + j] += tmp[i*nj + k] * C[k*nl + j];
//         }
// The TSG's mapping 'x=j y=i': 32 x 2 threads a block; the loops on the
// grid run a whole grid apart, so any grid covers any trip count.
// orcu_index is int, or long long in calls whose iterations or arrays reach past INT_MAX.
template <typename orcu_index>
__global__ void __launch_bounds__(64) orcu_mm2_2_kernel(
    double *__restrict__ D,
    const double *__restrict__ tmp,
    const double *__restrict__ C,
    int ni,
    int nl,
    double beta,
    int nj)
{
    orcu_index i, k;
    ORCU_SHARED_TILE(double, tmp_buffers, [2][2][32], 1);  // free of bank conflicts
    // 'i' (the loop at ex/2mm.c:42): tiles of 2 iterations over blockIdx.y, a whole grid apart; each thread 1 of them, 2 apart (threadIdx.y)
    for (orcu_index i0 = (orcu_index)blockIdx.y * 2; i0 < ni; i0 += (orcu_index)gridDim.y * 2) {
        // 'j' (the loop at ex/2mm.c:43): tiles of 256 iterations over blockIdx.x, a whole grid apart; each thread 8 of them, in groups of 2 consecutive ones (one vector), the groups 64 apart (threadIdx.x)
        for (orcu_index j0 = (orcu_index)blockIdx.x * 256; j0 < nl; j0 += (orcu_index)gridDim.x * 256) {
            i = i0 + (orcu_index)threadIdx.y;
            const orcu_index j_0 = j0 + (orcu_index)(threadIdx.x * 2);
            const orcu_index j_1 = j0 + (orcu_index)(threadIdx.x * 2 + 1);
            const orcu_index j_2 = j0 + (orcu_index)((threadIdx.x + 32) * 2);
            const orcu_index j_3 = j0 + (orcu_index)((threadIdx.x + 32) * 2 + 1);
            const orcu_index j_4 = j0 + (orcu_index)((threadIdx.x + 64) * 2);
            const orcu_index j_5 = j0 + (orcu_index)((threadIdx.x + 64) * 2 + 1);
            const orcu_index j_6 = j0 + (orcu_index)((threadIdx.x + 96) * 2);
            const orcu_index j_7 = j0 + (orcu_index)((threadIdx.x + 96) * 2 + 1);
            const bool D_v1_whole = i < ni && j_1 < nl && (size_t)&D[i * nl + j_0] % 16 == 0;
            double2 D_v1;
            if (D_v1_whole) D_v1 = *(const double2 *)&D[i * nl + j_0];
            else { D_v1.x = i < ni && j_0 < nl ? D[i * nl + j_0] : (double)0; D_v1.y = i < ni && j_1 < nl ? D[i * nl + j_1] : (double)0; }
            D_v1.x *= beta;
            D_v1.y *= beta;
            if (D_v1_whole) *(double2 *)&D[i * nl + j_0] = D_v1;
            else { if (i < ni && j_0 < nl) D[i * nl + j_0] = D_v1.x; if (i < ni && j_1 < nl) D[i * nl + j_1] = D_v1.y; }  // the loop's end, or a row that does not start on a whole vector
            const bool D_v2_whole = i < ni && j_3 < nl && (size_t)&D[i * nl + j_2] % 16 == 0;
            double2 D_v2;
            if (D_v2_whole) D_v2 = *(const double2 *)&D[i * nl + j_2];
            else { D_v2.x = i < ni && j_2 < nl ? D[i * nl + j_2] : (double)0; D_v2.y = i < ni && j_3 < nl ? D[i * nl + j_3] : (double)0; }
            D_v2.x *= beta;
            D_v2.y *= beta;
            if (D_v2_whole) *(double2 *)&D[i * nl + j_2] = D_v2;
            else { if (i < ni && j_2 < nl) D[i * nl + j_2] = D_v2.x; if (i < ni && j_3 < nl) D[i * nl + j_3] = D_v2.y; }  // the loop's end, or a row that does not start on a whole vector
            const bool D_v3_whole = i < ni && j_5 < nl && (size_t)&D[i * nl + j_4] % 16 == 0;
            double2 D_v3;
            if (D_v3_whole) D_v3 = *(const double2 *)&D[i * nl + j_4];
            else { D_v3.x = i < ni && j_4 < nl ? D[i * nl + j_4] : (double)0; D_v3.y = i < ni && j_5 < nl ? D[i * nl + j_5] : (double)0; }
            D_v3.x *= beta;
            D_v3.y *= beta;
            if (D_v3_whole) *(double2 *)&D[i * nl + j_4] = D_v3;
            else { if (i < ni && j_4 < nl) D[i * nl + j_4] = D_v3.x; if (i < ni && j_5 < nl) D[i * nl + j_5] = D_v3.y; }  // the loop's end, or a row that does not start on a whole vector
            const bool D_v4_whole = i < ni && j_7 < nl && (size_t)&D[i * nl + j_6] % 16 == 0;
            double2 D_v4;
            if (D_v4_whole) D_v4 = *(const double2 *)&D[i * nl + j_6];
            else { D_v4.x = i < ni && j_6 < nl ? D[i * nl + j_6] : (double)0; D_v4.y = i < ni && j_7 < nl ? D[i * nl + j_7] : (double)0; }
            D_v4.x *= beta;
            D_v4.y *= beta;
            if (D_v4_whole) *(double2 *)&D[i * nl + j_6] = D_v4;
            else { if (i < ni && j_6 < nl) D[i * nl + j_6] = D_v4.x; if (i < ni && j_7 < nl) D[i * nl + j_7] = D_v4.y; }  // the loop's end, or a row that does not start on a whole vector
            double2 D_k_acc_v5;
            if (i < ni && j_1 < nl && (size_t)&D[i * nl + j_0] % 16 == 0) D_k_acc_v5 = *(const double2 *)&D[i * nl + j_0];
            else { D_k_acc_v5.x = i < ni && j_0 < nl ? D[i * nl + j_0] : (double)0; D_k_acc_v5.y = i < ni && j_1 < nl ? D[i * nl + j_1] : (double)0; }
            double D_k_acc_0 = D_k_acc_v5.x;  // D[i * nl + j_0] stays in a register over the loop on k
            double D_k_acc_1 = D_k_acc_v5.y;  // D[i * nl + j_1] stays in a register over the loop on k
            double2 D_k_acc_v6;
            if (i < ni && j_3 < nl && (size_t)&D[i * nl + j_2] % 16 == 0) D_k_acc_v6 = *(const double2 *)&D[i * nl + j_2];
            else { D_k_acc_v6.x = i < ni && j_2 < nl ? D[i * nl + j_2] : (double)0; D_k_acc_v6.y = i < ni && j_3 < nl ? D[i * nl + j_3] : (double)0; }
            double D_k_acc_2 = D_k_acc_v6.x;  // D[i * nl + j_2] stays in a register over the loop on k
            double D_k_acc_3 = D_k_acc_v6.y;  // D[i * nl + j_3] stays in a register over the loop on k
            double2 D_k_acc_v7;
            if (i < ni && j_5 < nl && (size_t)&D[i * nl + j_4] % 16 == 0) D_k_acc_v7 = *(const double2 *)&D[i * nl + j_4];
            else { D_k_acc_v7.x = i < ni && j_4 < nl ? D[i * nl + j_4] : (double)0; D_k_acc_v7.y = i < ni && j_5 < nl ? D[i * nl + j_5] : (double)0; }
            double D_k_acc_4 = D_k_acc_v7.x;  // D[i * nl + j_4] stays in a register over the loop on k
            double D_k_acc_5 = D_k_acc_v7.y;  // D[i * nl + j_5] stays in a register over the loop on k
            double2 D_k_acc_v8;
            if (i < ni && j_7 < nl && (size_t)&D[i * nl + j_6] % 16 == 0) D_k_acc_v8 = *(const double2 *)&D[i * nl + j_6];
            else { D_k_acc_v8.x = i < ni && j_6 < nl ? D[i * nl + j_6] : (double)0; D_k_acc_v8.y = i < ni && j_7 < nl ? D[i * nl + j_7] : (double)0; }
            double D_k_acc_6 = D_k_acc_v8.x;  // D[i * nl + j_6] stays in a register over the loop on k
            double D_k_acc_7 = D_k_acc_v8.y;  // D[i * nl + j_7] stays in a register over the loop on k
            if (sizeof(orcu_index) == 4) {
                // 'k' (the loop at ex/2mm.c:45) in strips of 32: tmp copied to shared memory per strip, in two buffers: the next strip's copy in flight while the threads read this one
                orcu_index k0 = 0;
                {  // the first strip
                    auto tmp_shared = tmp_buffers[0];
                    // tmp[(i0 + orcu_a0)][(k0 + orcu_a1)]: the block's tile, read once from global memory, consecutive threads on consecutive double2s where its rows allow
                    if ((nj) % 2 == 0 && (size_t)&tmp[(i0) * (nj) + (k0)] % 16 == 0) {  // every row of the tile starts on 16 bytes
                        for (orcu_index e = (orcu_index)threadIdx.y * 32 + threadIdx.x; e < 32; e += 64) {
                            const orcu_index orcu_a0 = e / 16;
                            const orcu_index orcu_a1 = (e % 16) * 2;
                            if (((i0 + orcu_a0) >= 0 && (i0 + orcu_a0) <= ni - 1 && (k0 + orcu_a1) >= 0 && (k0 + orcu_a1) <= nj - 1 && (k0 + orcu_a1 + 1) >= 0 && (k0 + orcu_a1 + 1) <= nj - 1))
                                orcu_copy_async(*(double2 *)&ORCU_TILE_DATA(tmp_shared)[orcu_a0][orcu_a1], *(const double2 *)&tmp[(i0 + orcu_a0) * (nj) + (k0 + orcu_a1)]);
                            else  // the tile's edge
                                for (int orcu_l = 0; orcu_l < 2; orcu_l++) {
                                    if ((i0 + orcu_a0) >= 0 && (i0 + orcu_a0) <= ni - 1 && (k0 + orcu_a1 + orcu_l) >= 0 && (k0 + orcu_a1 + orcu_l) <= nj - 1)
                                        orcu_copy_async(ORCU_TILE_DATA(tmp_shared)[orcu_a0][orcu_a1 + orcu_l], tmp[(i0 + orcu_a0) * (nj) + (k0 + orcu_a1 + orcu_l)]);
                                    else
                                        ORCU_TILE_DATA(tmp_shared)[orcu_a0][orcu_a1 + orcu_l] = (double)0;
                                }
                        }
                    } else {
                        for (orcu_index e = (orcu_index)threadIdx.y * 32 + threadIdx.x; e < 64; e += 64) {
                            const orcu_index orcu_a0 = e / 32;
                            const orcu_index orcu_a1 = e % 32;
                            if ((i0 + orcu_a0) >= 0 && (i0 + orcu_a0) <= ni - 1 && (k0 + orcu_a1) >= 0 && (k0 + orcu_a1) <= nj - 1)
                                orcu_copy_async(ORCU_TILE_DATA(tmp_shared)[orcu_a0][orcu_a1], tmp[(i0 + orcu_a0) * (nj) + (k0 + orcu_a1)]);
                            else
                                ORCU_TILE_DATA(tmp_shared)[orcu_a0][orcu_a1] = (double)0;
                        }
                    }
                    orcu_copies_wait();
                    __syncthreads();  // the tiles are whole before any thread reads them
                }
                for (int orcu_buffer = 0; k0 < nj; k0 += 32, orcu_buffer ^= 1) {
                    if (k0 + 32 < nj) {  // the next strip, into the other buffer
                        const orcu_index k0_next = k0 + 32;
                        auto tmp_shared = tmp_buffers[orcu_buffer ^ 1];
                        // tmp[(i0 + orcu_a0)][(k0_next + orcu_a1)]: the block's tile, read once from global memory, consecutive threads on consecutive double2s where its rows allow
                        if ((nj) % 2 == 0 && (size_t)&tmp[(i0) * (nj) + (k0_next)] % 16 == 0) {  // every row of the tile starts on 16 bytes
                            for (orcu_index e = (orcu_index)threadIdx.y * 32 + threadIdx.x; e < 32; e += 64) {
                                const orcu_index orcu_a0 = e / 16;
                                const orcu_index orcu_a1 = (e % 16) * 2;
                                if (((i0 + orcu_a0) >= 0 && (i0 + orcu_a0) <= ni - 1 && (k0_next + orcu_a1) >= 0 && (k0_next + orcu_a1) <= nj - 1 && (k0_next + orcu_a1 + 1) >= 0 && (k0_next + orcu_a1 + 1) <= nj - 1))
                                    orcu_copy_async(*(double2 *)&ORCU_TILE_DATA(tmp_shared)[orcu_a0][orcu_a1], *(const double2 *)&tmp[(i0 + orcu_a0) * (nj) + (k0_next + orcu_a1)]);
                                else  // the tile's edge
                                    for (int orcu_l = 0; orcu_l < 2; orcu_l++) {
                                        if ((i0 + orcu_a0) >= 0 && (i0 + orcu_a0) <= ni - 1 && (k0_next + orcu_a1 + orcu_l) >= 0 && (k0_next + orcu_a1 + orcu_l) <= nj - 1)
                                            orcu_copy_async(ORCU_TILE_DATA(tmp_shared)[orcu_a0][orcu_a1 + orcu_l], tmp[(i0 + orcu_a0) * (nj) + (k0_next + orcu_a1 + orcu_l)]);
                                        else
                                            ORCU_TILE_DATA(tmp_shared)[orcu_a0][orcu_a1 + orcu_l] = (double)0;
                                    }
                            }
                        } else {
                            for (orcu_index e = (orcu_index)threadIdx.y * 32 + threadIdx.x; e < 64; e += 64) {
                                const orcu_index orcu_a0 = e / 32;
                                const orcu_index orcu_a1 = e % 32;
                                if ((i0 + orcu_a0) >= 0 && (i0 + orcu_a0) <= ni - 1 && (k0_next + orcu_a1) >= 0 && (k0_next + orcu_a1) <= nj - 1)
                                    orcu_copy_async(ORCU_TILE_DATA(tmp_shared)[orcu_a0][orcu_a1], tmp[(i0 + orcu_a0) * (nj) + (k0_next + orcu_a1)]);
                                else
                                    ORCU_TILE_DATA(tmp_shared)[orcu_a0][orcu_a1] = (double)0;
                            }
                        }
                    }
                    auto tmp_shared = tmp_buffers[orcu_buffer];
                    if (k0 + 32 <= nj) {
                        #pragma unroll
                        for (k = k0; k < k0 + 32; k++) {
                            double2 C_v9;
                            if (j_1 < nl && (size_t)&C[k * nl + j_0] % 16 == 0) C_v9 = *(const double2 *)&C[k * nl + j_0];
                            else { C_v9.x = j_0 < nl ? C[k * nl + j_0] : (double)0; C_v9.y = j_1 < nl ? C[k * nl + j_1] : (double)0; }
                            D_k_acc_0 += tmp_shared[i - i0][k - k0] * C_v9.x;
                            D_k_acc_1 += tmp_shared[i - i0][k - k0] * C_v9.y;
                            double2 C_v10;
                            if (j_3 < nl && (size_t)&C[k * nl + j_2] % 16 == 0) C_v10 = *(const double2 *)&C[k * nl + j_2];
                            else { C_v10.x = j_2 < nl ? C[k * nl + j_2] : (double)0; C_v10.y = j_3 < nl ? C[k * nl + j_3] : (double)0; }
                            D_k_acc_2 += tmp_shared[i - i0][k - k0] * C_v10.x;
                            D_k_acc_3 += tmp_shared[i - i0][k - k0] * C_v10.y;
                            double2 C_v11;
                            if (j_5 < nl && (size_t)&C[k * nl + j_4] % 16 == 0) C_v11 = *(const double2 *)&C[k * nl + j_4];
                            else { C_v11.x = j_4 < nl ? C[k * nl + j_4] : (double)0; C_v11.y = j_5 < nl ? C[k * nl + j_5] : (double)0; }
                            D_k_acc_4 += tmp_shared[i - i0][k - k0] * C_v11.x;
                            D_k_acc_5 += tmp_shared[i - i0][k - k0] * C_v11.y;
                            double2 C_v12;
                            if (j_7 < nl && (size_t)&C[k * nl + j_6] % 16 == 0) C_v12 = *(const double2 *)&C[k * nl + j_6];
                            else { C_v12.x = j_6 < nl ? C[k * nl + j_6] : (double)0; C_v12.y = j_7 < nl ? C[k * nl + j_7] : (double)0; }
                            D_k_acc_6 += tmp_shared[i - i0][k - k0] * C_v12.x;
                            D_k_acc_7 += tmp_shared[i - i0][k - k0] * C_v12.y;
                        }
                    } else {
                        for (k = k0; k < nj; k++) {
                            double2 C_v9;
                            if (j_1 < nl && (size_t)&C[k * nl + j_0] % 16 == 0) C_v9 = *(const double2 *)&C[k * nl + j_0];
                            else { C_v9.x = j_0 < nl ? C[k * nl + j_0] : (double)0; C_v9.y = j_1 < nl ? C[k * nl + j_1] : (double)0; }
                            D_k_acc_0 += tmp_shared[i - i0][k - k0] * C_v9.x;
                            D_k_acc_1 += tmp_shared[i - i0][k - k0] * C_v9.y;
                            double2 C_v10;
                            if (j_3 < nl && (size_t)&C[k * nl + j_2] % 16 == 0) C_v10 = *(const double2 *)&C[k * nl + j_2];
                            else { C_v10.x = j_2 < nl ? C[k * nl + j_2] : (double)0; C_v10.y = j_3 < nl ? C[k * nl + j_3] : (double)0; }
                            D_k_acc_2 += tmp_shared[i - i0][k - k0] * C_v10.x;
                            D_k_acc_3 += tmp_shared[i - i0][k - k0] * C_v10.y;
                            double2 C_v11;
                            if (j_5 < nl && (size_t)&C[k * nl + j_4] % 16 == 0) C_v11 = *(const double2 *)&C[k * nl + j_4];
                            else { C_v11.x = j_4 < nl ? C[k * nl + j_4] : (double)0; C_v11.y = j_5 < nl ? C[k * nl + j_5] : (double)0; }
                            D_k_acc_4 += tmp_shared[i - i0][k - k0] * C_v11.x;
                            D_k_acc_5 += tmp_shared[i - i0][k - k0] * C_v11.y;
                            double2 C_v12;
                            if (j_7 < nl && (size_t)&C[k * nl + j_6] % 16 == 0) C_v12 = *(const double2 *)&C[k * nl + j_6];
                            else { C_v12.x = j_6 < nl ? C[k * nl + j_6] : (double)0; C_v12.y = j_7 < nl ? C[k * nl + j_7] : (double)0; }
                            D_k_acc_6 += tmp_shared[i - i0][k - k0] * C_v12.x;
                            D_k_acc_7 += tmp_shared[i - i0][k - k0] * C_v12.y;
                        }
                    }
                    orcu_copies_wait();
                    __syncthreads();  // the next strip is whole, and every thread has read this one
                }
            } else {  // 64-bit indices: one buffer
                auto tmp_shared = tmp_buffers[0];
                // 'k' (the loop at ex/2mm.c:45) in strips of 32: tmp copied to shared memory per strip
                for (orcu_index k0 = 0; k0 < nj; k0 += 32) {
                    // tmp[(i0 + orcu_a0)][(k0 + orcu_a1)]: the block's tile, read once from global memory, consecutive threads on consecutive double2s where its rows allow
                    if ((nj) % 2 == 0 && (size_t)&tmp[(i0) * (nj) + (k0)] % 16 == 0) {  // every row of the tile starts on 16 bytes
                        for (orcu_index e = (orcu_index)threadIdx.y * 32 + threadIdx.x; e < 32; e += 64) {
                            const orcu_index orcu_a0 = e / 16;
                            const orcu_index orcu_a1 = (e % 16) * 2;
                            if (((i0 + orcu_a0) >= 0 && (i0 + orcu_a0) <= ni - 1 && (k0 + orcu_a1) >= 0 && (k0 + orcu_a1) <= nj - 1 && (k0 + orcu_a1 + 1) >= 0 && (k0 + orcu_a1 + 1) <= nj - 1))
                                *(double2 *)&ORCU_TILE_DATA(tmp_shared)[orcu_a0][orcu_a1] = *(const double2 *)&tmp[(i0 + orcu_a0) * (nj) + (k0 + orcu_a1)];
                            else  // the tile's edge
                                for (int orcu_l = 0; orcu_l < 2; orcu_l++) {
                                    ORCU_TILE_DATA(tmp_shared)[orcu_a0][orcu_a1 + orcu_l] = ((i0 + orcu_a0) >= 0 && (i0 + orcu_a0) <= ni - 1 && (k0 + orcu_a1 + orcu_l) >= 0 && (k0 + orcu_a1 + orcu_l) <= nj - 1) ? tmp[(i0 + orcu_a0) * (nj) + (k0 + orcu_a1 + orcu_l)] : (double)0;
                                }
                        }
                    } else {
                        for (orcu_index e = (orcu_index)threadIdx.y * 32 + threadIdx.x; e < 64; e += 64) {
                            const orcu_index orcu_a0 = e / 32;
                            const orcu_index orcu_a1 = e % 32;
                            ORCU_TILE_DATA(tmp_shared)[orcu_a0][orcu_a1] = ((i0 + orcu_a0) >= 0 && (i0 + orcu_a0) <= ni - 1 && (k0 + orcu_a1) >= 0 && (k0 + orcu_a1) <= nj - 1) ? tmp[(i0 + orcu_a0) * (nj) + (k0 + orcu_a1)] : (double)0;
                        }
                    }
                    __syncthreads();  // the tiles are whole before any thread reads them
                    if (k0 + 32 <= nj) {
                        #pragma unroll
                        for (k = k0; k < k0 + 32; k++) {
                            double2 C_v13;
                            if (j_1 < nl && (size_t)&C[k * nl + j_0] % 16 == 0) C_v13 = *(const double2 *)&C[k * nl + j_0];
                            else { C_v13.x = j_0 < nl ? C[k * nl + j_0] : (double)0; C_v13.y = j_1 < nl ? C[k * nl + j_1] : (double)0; }
                            D_k_acc_0 += tmp_shared[i - i0][k - k0] * C_v13.x;
                            D_k_acc_1 += tmp_shared[i - i0][k - k0] * C_v13.y;
                            double2 C_v14;
                            if (j_3 < nl && (size_t)&C[k * nl + j_2] % 16 == 0) C_v14 = *(const double2 *)&C[k * nl + j_2];
                            else { C_v14.x = j_2 < nl ? C[k * nl + j_2] : (double)0; C_v14.y = j_3 < nl ? C[k * nl + j_3] : (double)0; }
                            D_k_acc_2 += tmp_shared[i - i0][k - k0] * C_v14.x;
                            D_k_acc_3 += tmp_shared[i - i0][k - k0] * C_v14.y;
                            double2 C_v15;
                            if (j_5 < nl && (size_t)&C[k * nl + j_4] % 16 == 0) C_v15 = *(const double2 *)&C[k * nl + j_4];
                            else { C_v15.x = j_4 < nl ? C[k * nl + j_4] : (double)0; C_v15.y = j_5 < nl ? C[k * nl + j_5] : (double)0; }
                            D_k_acc_4 += tmp_shared[i - i0][k - k0] * C_v15.x;
                            D_k_acc_5 += tmp_shared[i - i0][k - k0] * C_v15.y;
                            double2 C_v16;
                            if (j_7 < nl && (size_t)&C[k * nl + j_6] % 16 == 0) C_v16 = *(const double2 *)&C[k * nl + j_6];
                            else { C_v16.x = j_6 < nl ? C[k * nl + j_6] : (double)0; C_v16.y = j_7 < nl ? C[k * nl + j_7] : (double)0; }
                            D_k_acc_6 += tmp_shared[i - i0][k - k0] * C_v16.x;
                            D_k_acc_7 += tmp_shared[i - i0][k - k0] * C_v16.y;
                        }
                    } else {
                        for (k = k0; k < nj; k++) {
                            double2 C_v13;
                            if (j_1 < nl && (size_t)&C[k * nl + j_0] % 16 == 0) C_v13 = *(const double2 *)&C[k * nl + j_0];
                            else { C_v13.x = j_0 < nl ? C[k * nl + j_0] : (double)0; C_v13.y = j_1 < nl ? C[k * nl + j_1] : (double)0; }
                            D_k_acc_0 += tmp_shared[i - i0][k - k0] * C_v13.x;
                            D_k_acc_1 += tmp_shared[i - i0][k - k0] * C_v13.y;
                            double2 C_v14;
                            if (j_3 < nl && (size_t)&C[k * nl + j_2] % 16 == 0) C_v14 = *(const double2 *)&C[k * nl + j_2];
                            else { C_v14.x = j_2 < nl ? C[k * nl + j_2] : (double)0; C_v14.y = j_3 < nl ? C[k * nl + j_3] : (double)0; }
                            D_k_acc_2 += tmp_shared[i - i0][k - k0] * C_v14.x;
                            D_k_acc_3 += tmp_shared[i - i0][k - k0] * C_v14.y;
                            double2 C_v15;
                            if (j_5 < nl && (size_t)&C[k * nl + j_4] % 16 == 0) C_v15 = *(const double2 *)&C[k * nl + j_4];
                            else { C_v15.x = j_4 < nl ? C[k * nl + j_4] : (double)0; C_v15.y = j_5 < nl ? C[k * nl + j_5] : (double)0; }
                            D_k_acc_4 += tmp_shared[i - i0][k - k0] * C_v15.x;
                            D_k_acc_5 += tmp_shared[i - i0][k - k0] * C_v15.y;
                            double2 C_v16;
                            if (j_7 < nl && (size_t)&C[k * nl + j_6] % 16 == 0) C_v16 = *(const double2 *)&C[k * nl + j_6];
                            else { C_v16.x = j_6 < nl ? C[k * nl + j_6] : (double)0; C_v16.y = j_7 < nl ? C[k * nl + j_7] : (double)0; }
                            D_k_acc_6 += tmp_shared[i - i0][k - k0] * C_v16.x;
                            D_k_acc_7 += tmp_shared[i - i0][k - k0] * C_v16.y;
                        }
                    }
                    __syncthreads();  // every thread has read the strip before the next one fills it
                }
            }
            const double2 D_k_acc_v17 = {D_k_acc_0, D_k_acc_1};
            if (i < ni && j_1 < nl && (size_t)&D[i * nl + j_0] % 16 == 0) *(double2 *)&D[i * nl + j_0] = D_k_acc_v17;
            else { if (i < ni && j_0 < nl) D[i * nl + j_0] = D_k_acc_v17.x; if (i < ni && j_1 < nl) D[i * nl + j_1] = D_k_acc_v17.y; }  // the loop's end, or a row that does not start on a whole vector
            const double2 D_k_acc_v18 = {D_k_acc_2, D_k_acc_3};
            if (i < ni && j_3 < nl && (size_t)&D[i * nl + j_2] % 16 == 0) *(double2 *)&D[i * nl + j_2] = D_k_acc_v18;
            else { if (i < ni && j_2 < nl) D[i * nl + j_2] = D_k_acc_v18.x; if (i < ni && j_3 < nl) D[i * nl + j_3] = D_k_acc_v18.y; }  // the loop's end, or a row that does not start on a whole vector
            const double2 D_k_acc_v19 = {D_k_acc_4, D_k_acc_5};
            if (i < ni && j_5 < nl && (size_t)&D[i * nl + j_4] % 16 == 0) *(double2 *)&D[i * nl + j_4] = D_k_acc_v19;
            else { if (i < ni && j_4 < nl) D[i * nl + j_4] = D_k_acc_v19.x; if (i < ni && j_5 < nl) D[i * nl + j_5] = D_k_acc_v19.y; }  // the loop's end, or a row that does not start on a whole vector
            const double2 D_k_acc_v20 = {D_k_acc_6, D_k_acc_7};
            if (i < ni && j_7 < nl && (size_t)&D[i * nl + j_6] % 16 == 0) *(double2 *)&D[i * nl + j_6] = D_k_acc_v20;
            else { if (i < ni && j_6 < nl) D[i * nl + j_6] = D_k_acc_v20.x; if (i < ni && j_7 < nl) D[i * nl + j_7] = D_k_acc_v20.y; }  // the loop's end, or a row that does not start on a whole vector
        }
    }
}

#ifdef ORCU_ALLOW_ALIASING
// The loop at ex/2mm.c:42 as written, on the host: what orcu_mm2_2 runs when the arrays it
// is given overlap.
static void orcu_mm2_2_on_host(
    int ni,
    int nl,
    double *D,
    double beta,
    int nj,
    const double *tmp,
    const double *C)
{
    int i;
    int j;
    int k;
    for (i = 0; i < ni; i++) {
        for (j = 0; j < nl; j++) {
            D[i * nl + j] *= beta;
            for (k = 0; k < nj; k++) {
                D[i * nl + j] += tmp[i * nj + k] * C[k * nl + j];
            }
        }
    }
}
#endif

// What orcu_mm2_2 keeps from one call to the next: allocating costs more than copying
// small arrays. orcu_release_mm2_2() frees it.
static orcu_buffer orcu_mm2_2_buffers[3];

// Frees what orcu_mm2_2 keeps between calls (nothing is lost: the next call allocates again).
void orcu_release_mm2_2(void)
{
    orcu_release_buffers(orcu_mm2_2_buffers, 3);
}

// Runs the loop at ex/2mm.c:42 on the GPU (threadCount=64, vectorize=True, mapping='x=j y=i', registerTile={'i': 1, 'j': 8}, shared=['tmp'], sharedDepth=32, tensorCores=False);
// returns when its results are in host memory.
static void orcu_mm2_2(
    int ni,
    int nl,
    double *D,
    double beta,
    int nj,
    const double *tmp,
    const double *C)
{
    // What the region before this one left on the device: used where it covers what this loop
    // touches; its elements not yet copied back to the host are, whatever happens.
    const orcu_handoff orcu_tmp_handed = orcu_take(&orcu_handoff_mm2_1[0]);
    // Each grid loop's most iterations (times its step) over the loops around it: blocks enough to cover them.
    const long long orcu_span_i = (long long)ni;
    const long long orcu_span_j = (long long)nl;
    if (orcu_span_i <= 0 || orcu_span_j <= 0) {  // no iteration: nothing to compute or move
        orcu_flush(&orcu_tmp_handed);
        return;
    }
    // The elements each array's accesses reach: [first, end).
    const long long orcu_D_first = 0LL, orcu_D_end = (long long)ni * nl;
    const long long orcu_tmp_first = 0LL, orcu_tmp_end = (long long)ni * nj;
    const long long orcu_C_first = 0LL, orcu_C_end = (long long)nj * nl;
    // The iterations run at once, each on its own elements: no array may overlap one that is written.
    if (orcu_overlap(D + orcu_D_first, D + orcu_D_end, tmp + orcu_tmp_first, tmp + orcu_tmp_end)
        || orcu_overlap(D + orcu_D_first, D + orcu_D_end, C + orcu_C_first, C + orcu_C_end)) {
#ifdef ORCU_ALLOW_ALIASING
        orcu_flush(&orcu_tmp_handed);
        orcu_mm2_2_on_host(ni, nl, D, beta, nj, tmp, C);
        return;
#endif
        orcu_aliased("orcu_mm2_2");
    }
    const dim3 orcu_block(32, 2);
    const dim3 orcu_grid(orcu_blocks_along(orcu_span_j, 256LL, 2147483647LL), orcu_blocks_along(orcu_span_i, 2LL, 65535LL));
    // 32-bit indices unless the grid runs past the last iteration beyond INT_MAX, or an array
    // has more elements than that.
    const bool orcu_wide = (long long)ni + (long long)orcu_grid.y * 2 > INT_MAX || (long long)nl + (long long)orcu_grid.x * 256 > INT_MAX || orcu_D_end > INT_MAX || orcu_tmp_end > INT_MAX || orcu_C_end > INT_MAX;
    decltype(&orcu_mm2_2_kernel<int>) const orcu_kernel = orcu_wide ? orcu_mm2_2_kernel<long long> : orcu_mm2_2_kernel<int>;
    const bool orcu_tmp_kept = orcu_kept(&orcu_tmp_handed, tmp, orcu_tmp_first, orcu_tmp_end);
    if (!orcu_tmp_kept)
        orcu_flush(&orcu_tmp_handed);

    // Device copies of the arrays, indexed as on the host so the loop body runs unchanged.
    double *const d_D = (double *)orcu_device_buffer(&orcu_mm2_2_buffers[0], sizeof(double) * orcu_count(0, orcu_D_end));
    double *const d_tmp = orcu_tmp_kept ? (double *)orcu_tmp_handed.device
        : (double *)orcu_device_buffer(&orcu_mm2_2_buffers[1], sizeof(double) * orcu_count(0, orcu_tmp_end));
    double *const d_C = (double *)orcu_device_buffer(&orcu_mm2_2_buffers[2], sizeof(double) * orcu_count(0, orcu_C_end));

    ORCU_CHECK(cudaMemcpy(d_D + orcu_D_first, D + orcu_D_first, sizeof(double) * orcu_count(orcu_D_first, orcu_D_end), cudaMemcpyHostToDevice));
    if (!orcu_tmp_kept)
        ORCU_CHECK(cudaMemcpy(d_tmp + orcu_tmp_first, tmp + orcu_tmp_first, sizeof(double) * orcu_count(orcu_tmp_first, orcu_tmp_end), cudaMemcpyHostToDevice));
    ORCU_CHECK(cudaMemcpy(d_C + orcu_C_first, C + orcu_C_first, sizeof(double) * orcu_count(orcu_C_first, orcu_C_end), cudaMemcpyHostToDevice));

    ORCU_LAUNCH(orcu_kernel, orcu_grid, orcu_block, 0, 0, d_D, d_tmp, d_C, ni, nl, beta, nj);
    ORCU_CHECK(cudaGetLastError());
    if (orcu_tmp_kept)
        orcu_flush(&orcu_tmp_handed);  // before this loop's own copies: they may overlap
    ORCU_CHECK(cudaMemcpy(D + orcu_D_first, d_D + orcu_D_first, sizeof(double) * orcu_count(orcu_D_first, orcu_D_end), cudaMemcpyDeviceToHost));
}

#endif  // ORCU_ORIGINAL
// <<< orcu generated code: end
// >>> orcu generated code: begin
#ifdef __cplusplus
extern "C" void mm2(int ni, int nj, int nk, int nl, double alpha, double beta, const double *A, const double *B, const double *C, double *D, double *tmp);  // C linkage: C code calls it
#endif
// <<< orcu generated code: end
/* PolyBench 2mm: D = alpha A B C + beta D (A: ni x nk, B: nk x nj, C: nj x nl, D: ni x nl,
 * row-major), as two matrix products: tmp = alpha A B, then D = beta D + tmp C. */
void mm2(int ni, int nj, int nk, int nl, double alpha, double beta, const double *A, const double *B, const double *C,
         double *D, double *tmp) {
    int i, j, k;
    /*@ begin PerfTuning (
    def performance_params {
        param TC[] = [64, 128];
    }
    def input_params {
        param ni[] = [33, 48];
        param nj[] = [35];
        param nk[] = [37];
        param nl[] = [39];
    }
    def input_vars {
        decl dynamic double A[ni*nk] = random;
        decl dynamic double B[nk*nj] = random;
        decl dynamic double C[nj*nl] = random;
        decl dynamic double D[ni*nl] = random;
        decl dynamic double tmp[ni*nj] = 0;
        decl double alpha = 1.5;
        decl double beta = 1.2;
    }
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto', threadCount=TC)
    for (i = 0; i < ni; i++)
        for (j = 0; j < nj; j++) {
            tmp[i*nj + j] = 0.0;
            for (k = 0; k < nk; k++)
                tmp[i*nj + j] += alpha * A[i*nk + k] * B[k*nj + j];
        }
    ) @*/
#ifdef ORCU_ORIGINAL
    for (i = 0; i < ni; i++)
        for (j = 0; j < nj; j++) {
            tmp[i*nj + j] = 0.0;
            for (k = 0; k < nk; k++)
                tmp[i*nj + j] += alpha * A[i*nk + k] * B[k*nj + j];
        }
#else
    orcu_mm2_1(ni, nj, tmp, nk, alpha, A, B);  // the loop above, run on the GPU by orcu
    (void)i; (void)j; (void)k;  // only the original loops above use them
#endif
    /*@ end @*/
    /*@ begin Loop(transform CUDA(mapping='auto', threadCount=TC)
    for (i = 0; i < ni; i++)
        for (j = 0; j < nl; j++) {
            D[i*nl + j] *= beta;
            for (k = 0; k < nj; k++)
                D[i*nl + j] += tmp[i*nj + k] * C[k*nl + j];
        }
    ) @*/
#ifdef ORCU_ORIGINAL
    for (i = 0; i < ni; i++)
        for (j = 0; j < nl; j++) {
            D[i*nl + j] *= beta;
            for (k = 0; k < nj; k++)
                D[i*nl + j] += tmp[i*nj + k] * C[k*nl + j];
        }
#else
    orcu_mm2_2(ni, nl, D, beta, nj, tmp, C);  // the loop above, run on the GPU by orcu
    (void)i; (void)j; (void)k;  // only the original loops above use them
#endif
    /*@ end @*/
    /*@ end @*/
}
