// >>> orcu generated code: begin
/* Written by orcu 0.1.0 on 2026-01-01 from two_regions.c.
 * orcu_scale_and_max_1 (line 25): TC1=256, BC1=132
 *     input n=12345; time not measured
 * orcu_scale_and_max_2 (line 33): TC2=1024, BC2=66
 *     input n=12345; time not measured
 * Device: none (not measured). Compiler: not compiled by orcu.
 * Each Loop region runs on the GPU; compile with -DORCU_ORIGINAL for the original C loops.
 * The annotations are kept, so `orcu tune` can tune this file again.
 */
#ifndef ORCU_ORIGINAL
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#endif
// <<< orcu generated code: end
/* Two Loop regions under one spec: an elementwise update, then a max reduction of
 * its result. Each region has its own threads and blocks. */
#include <math.h>

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
static size_t orcu_count(long long first, long long end)
{
    return end > first ? (size_t)(end - first) : 0;
}

// Reduction operators: combine two partial results.
struct orcu_max { template <typename T> __device__ static T combine(T a, T b) { return b > a ? b : a; } };

// Folds v over the first `lanes` lanes of the calling warp (all of them must call); lane 0
// gets the result. Lanes past `lanes` do not exist, so their values are never combined.
template <typename T, typename Op>
__device__ T orcu_warp_reduce(T v, int lanes)
{
    const unsigned mask = lanes >= 32 ? 0xffffffffu : (1u << lanes) - 1u;
    const int lane = threadIdx.x % 32;
    for (int offset = 16; offset > 0; offset /= 2) {
        const T other = __shfl_down_sync(mask, v, offset);
        if (lane + offset < lanes)
            v = Op::combine(v, other);
    }
    return v;
}

// Folds v over the block (every thread must call); thread 0 gets the result. Any block
// size works: the last warp may be partial.
template <typename T, typename Op>
__device__ T orcu_block_reduce(T v)
{
    __shared__ T warp_result[32];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int warps = (blockDim.x + 31) / 32;
    v = orcu_warp_reduce<T, Op>(v, min(32, (int)blockDim.x - warp * 32));
    if (lane == 0)
        warp_result[warp] = v;
    __syncthreads();
    if (warp == 0 && lane < warps)
        v = orcu_warp_reduce<T, Op>(warp_result[lane], warps);
    __syncthreads();  // warp_result may be reused by the next reduction
    return v;
}

// Kernel of the loop at two_regions.c:26 in scale_and_max():
//     for (i = 0; i < n; i++)
//         z[i] = alpha * x[i] + 1.0;
// Each thread runs iterations of 'i' a whole grid apart, so any grid covers any trip count.
__global__ void orcu_scale_and_max_1_kernel(
    int orcu_lo,
    int orcu_hi,
    double *__restrict__ z,
    const double *__restrict__ x,
    double alpha)
{
    int i;
    for (i = orcu_lo + (int)(blockIdx.x * blockDim.x + threadIdx.x); i < orcu_hi; i += (int)(gridDim.x * blockDim.x)) {
        z[i] = alpha * x[i] + 1.0;
    }
}

// Runs the loop at two_regions.c:26 on the GPU (threadCount=256, blockCount=132);
// returns when its results are in host memory.
void orcu_scale_and_max_1(int n, double *z, double alpha, const double *x)
{
    const int orcu_lo = 0, orcu_hi = n;
    if (orcu_hi <= orcu_lo)
        return;  // no iteration: nothing to compute or move
    const int orcu_threads = 256;
    const int orcu_blocks = 132;

    // Device copies of the arrays, indexed as on the host so the loop body runs unchanged.
    double *d_z;
    ORCU_CHECK(cudaMalloc((void **)&d_z, sizeof(double) * orcu_count(0, n)));
    double *d_x;
    ORCU_CHECK(cudaMalloc((void **)&d_x, sizeof(double) * orcu_count(0, n)));

    ORCU_CHECK(cudaMemcpy(d_x, x, sizeof(double) * orcu_count(0, n), cudaMemcpyHostToDevice));

    ORCU_LAUNCH(orcu_scale_and_max_1_kernel, orcu_blocks, orcu_threads, 0, 0, orcu_lo, orcu_hi, d_z, d_x, alpha);
    ORCU_CHECK(cudaGetLastError());
    ORCU_CHECK(cudaMemcpy(z, d_z, sizeof(double) * orcu_count(0, n), cudaMemcpyDeviceToHost));

    ORCU_CHECK(cudaFree(d_z));
    ORCU_CHECK(cudaFree(d_x));
}

// Kernel of the loop at two_regions.c:34 in scale_and_max():
//     for (i = 0; i < n; i++)
//         zmax = fmax(zmax, z[i]);
// Each thread runs iterations of 'i' a whole grid apart, so any grid covers any trip count.
__global__ void orcu_scale_and_max_2_kernel(
    int orcu_lo,
    int orcu_hi,
    const double *__restrict__ z,
    double *__restrict__ orcu_partial_zmax)
{
    int i;
    double zmax = -INFINITY;  // this thread's share of the 'max' reduction of zmax
    for (i = orcu_lo + (int)(blockIdx.x * blockDim.x + threadIdx.x); i < orcu_hi; i += (int)(gridDim.x * blockDim.x)) {
        zmax = fmax(zmax, z[i]);
    }
    zmax = orcu_block_reduce<double, orcu_max>(zmax);
    if (threadIdx.x == 0)
        orcu_partial_zmax[blockIdx.x] = zmax;
}

// Second stage of the 'max' reduction of zmax: one block folds the blocks' partial
// results, then combines them with the value zmax had before the loop.
__global__ void orcu_scale_and_max_2_finish_zmax(const double *__restrict__ orcu_partial, int orcu_partials,
    double orcu_before, double *__restrict__ orcu_result)
{
    double zmax = -INFINITY;
    for (int orcu_k = threadIdx.x; orcu_k < orcu_partials; orcu_k += blockDim.x)
        zmax = orcu_max::combine(zmax, orcu_partial[orcu_k]);
    zmax = orcu_block_reduce<double, orcu_max>(zmax);
    if (threadIdx.x == 0)
        *orcu_result = orcu_max::combine(orcu_before, zmax);
}

// Runs the loop at two_regions.c:34 on the GPU (threadCount=1024, blockCount=66);
// returns when its results are in host memory.
void orcu_scale_and_max_2(int n, double *zmax, const double *z)
{
    const int orcu_lo = 0, orcu_hi = n;
    if (orcu_hi <= orcu_lo)
        return;  // no iteration: nothing to compute or move
    const int orcu_threads = 1024;
    const int orcu_blocks = 66;

    // Device copies of the arrays, indexed as on the host so the loop body runs unchanged.
    double *d_z;
    ORCU_CHECK(cudaMalloc((void **)&d_z, sizeof(double) * orcu_count(0, n)));

    // Per reduction: one partial result per block, then the final value.
    const int orcu_partials = orcu_blocks;
    double *d_zmax_partial;
    ORCU_CHECK(cudaMalloc((void **)&d_zmax_partial, sizeof(double) * (orcu_partials + 1)));

    ORCU_CHECK(cudaMemcpy(d_z, z, sizeof(double) * orcu_count(0, n), cudaMemcpyHostToDevice));

    ORCU_LAUNCH(orcu_scale_and_max_2_kernel, orcu_blocks, orcu_threads, 0, 0, orcu_lo, orcu_hi, d_z, d_zmax_partial);
    ORCU_CHECK(cudaGetLastError());
    ORCU_LAUNCH(orcu_scale_and_max_2_finish_zmax, 1, 256, 0, 0, d_zmax_partial, orcu_blocks, *zmax, d_zmax_partial + orcu_partials);
    ORCU_CHECK(cudaGetLastError());
    ORCU_CHECK(cudaMemcpy(zmax, d_zmax_partial + orcu_partials, sizeof(double), cudaMemcpyDeviceToHost));

    ORCU_CHECK(cudaFree(d_z));
    ORCU_CHECK(cudaFree(d_zmax_partial));
}

#endif  // ORCU_ORIGINAL
// <<< orcu generated code: end
double scale_and_max(int n, double alpha, const double *x, double *z) {
    double zmax;
    int i;
    /*@ begin PerfTuning (
    def performance_params {
        param TC1[] = [128, 256, 512];
        param BC1[] = [132, 264];
        param TC2[] = [256, 1024];
        param BC2[] = [66, 132];
        constraint same_work = TC2 * BC2 <= 2 * TC1 * BC1;
    }
    def input_params {
        param n[] = [12345];
    }
    def input_vars {
        decl dynamic double x[n] = random;
        decl dynamic double z[n] = 0;
        decl double alpha = -1.5;
    }
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC1, blockCount=BC1)
    for (i = 0; i < n; i++)
        z[i] = alpha * x[i] + 1.0;
    ) @*/
#ifdef ORCU_ORIGINAL
    for (i = 0; i < n; i++)
        z[i] = alpha * x[i] + 1.0;
#else
    orcu_scale_and_max_1(n, z, alpha, x);  // the loop above, run on the GPU by orcu
#endif
    /*@ end @*/
    zmax = z[0];
    /*@ begin Loop(transform CUDA(threadCount=TC2, blockCount=BC2)
    for (i = 0; i < n; i++)
        zmax = fmax(zmax, z[i]);
    ) @*/
#ifdef ORCU_ORIGINAL
    for (i = 0; i < n; i++)
        zmax = fmax(zmax, z[i]);
#else
    orcu_scale_and_max_2(n, &zmax, z);  // the loop above, run on the GPU by orcu
#endif
    /*@ end @*/
    /*@ end @*/
    return zmax;
}
