/* orcu's CPU emulation of the CUDA that orcu generates: g++ compiles the same .cu file
 * with this directory first on the include path, and the program runs on the CPU.
 *
 * It covers what orcu's templates and harness use and nothing more. The threads of a
 * block run as cooperating fibers (a few instructions to switch on x86-64, ucontext
 * elsewhere or with -DORCU_EMULATION_UCONTEXT), switching only at __syncthreads,
 * __syncwarp and warp shuffles, so barriers and shuffles behave as on a GPU; a barrier
 * some threads never reach, or a shuffle whose mask names a lane that is not there, is
 * reported as an error instead of hanging. Blocks run one after another, in an order
 * ORCU_EMULATION_SEED (environment) shuffles to expose races between blocks. Device
 * memory is host memory ending at a guard page, so a write past an allocation crashes.
 * A kernel argument that points to host memory the GPU cannot reach is an error.
 * Streams and copies are synchronous, but the order CUDA promises between streams is
 * checked: work on a non-blocking stream that nothing orders after earlier work of the
 * default stream (a copy from pageable memory, a launch) is an error. Page-locking follows
 * CUDA's rules: pages are pinned whole, and pinning a page twice fails. Events read the host
 * clock. The TSG's shared tiles (ORCU_SHARED_TILE) log each access and are checked for the
 * bank conflicts their declaration admits. orcu_emu::counters counts allocations and other
 * costly calls, for tests. A build with ORCU_EMULATION_SECTORS counts the memory traffic of the
 * call the harness checks (the 32-byte sectors of each warp request), for orcu's performance model.
 *
 * This header holds the types, the shared state, the declarations and the templates;
 * emulation_runtime.inc holds the definitions of the functions that are no templates.
 */
#ifndef ORCU_EMULATION_CUDA_RUNTIME_H
#define ORCU_EMULATION_CUDA_RUNTIME_H
#define ORCU_EMULATION 1

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <functional>
#include <map>
#include <type_traits>
#include <vector>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __shared__ static
#define __constant__ static
#define __align__(n) __attribute__((aligned(n)))
#define __launch_bounds__(...)

/* ---- types ----------------------------------------------------------------------- */
struct uint3 { unsigned int x, y, z; };
/* Vector types, aligned to their size as on a GPU. */
struct __attribute__((aligned(8))) float2 { float x, y; };
struct __attribute__((aligned(16))) float4 { float x, y, z, w; };
struct __attribute__((aligned(16))) double2 { double x, y; };
struct __attribute__((aligned(8))) int2 { int x, y; };
struct __attribute__((aligned(16))) int4 { int x, y, z, w; };
struct __attribute__((aligned(8))) uint2 { unsigned int x, y; };
struct __attribute__((aligned(16))) uint4 { unsigned int x, y, z, w; };
struct __attribute__((aligned(16))) longlong2 { long long x, y; };
struct __attribute__((aligned(16))) ulonglong2 { unsigned long long x, y; };
struct __attribute__((aligned(16))) long2 { long x, y; };
struct __attribute__((aligned(16))) ulong2 { unsigned long x, y; };
struct dim3 {
    unsigned int x, y, z;
    dim3(unsigned int x_ = 1, unsigned int y_ = 1, unsigned int z_ = 1) : x(x_), y(y_), z(z_) {}
};

enum cudaError_t {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorInvalidDevicePointer = 17,
    cudaErrorLaunchFailure = 719,
    cudaErrorIllegalAddress = 700,
    cudaErrorHostMemoryAlreadyRegistered = 712,
    cudaErrorHostMemoryNotRegistered = 713,
};
enum cudaMemcpyKind { cudaMemcpyHostToHost, cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost, cudaMemcpyDeviceToDevice, cudaMemcpyDefault };
enum cudaFuncCache { cudaFuncCachePreferNone, cudaFuncCachePreferShared, cudaFuncCachePreferL1, cudaFuncCachePreferEqual };
enum cudaFuncAttribute { cudaFuncAttributeMaxDynamicSharedMemorySize = 8, cudaFuncAttributePreferredSharedMemoryCarveout = 9 };
enum cudaSharedCarveout { cudaSharedmemCarveoutDefault = -1, cudaSharedmemCarveoutMaxShared = 100, cudaSharedmemCarveoutMaxL1 = 0 };
enum cudaMemoryType { cudaMemoryTypeUnregistered = 0, cudaMemoryTypeHost = 1, cudaMemoryTypeDevice = 2, cudaMemoryTypeManaged = 3 };
enum cudaDeviceAttr {
    cudaDevAttrMaxThreadsPerBlock = 1,
    cudaDevAttrMaxGridDimX = 5,
    cudaDevAttrMaxSharedMemoryPerBlock = 8,
    cudaDevAttrMultiProcessorCount = 16,
    cudaDevAttrComputeCapabilityMajor = 75,
    cudaDevAttrComputeCapabilityMinor = 76,
    cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
};
struct cudaPointerAttributes { cudaMemoryType type; int device; void *devicePointer; void *hostPointer; };
/* seen: the default stream's work up to this epoch is known to come before this stream's */
struct orcu_emu_stream { int id; unsigned flags; unsigned long long seen; };
typedef orcu_emu_stream *cudaStream_t;
struct orcu_emu_event { double ms; unsigned long long epoch; };
typedef orcu_emu_event *cudaEvent_t;
#define cudaStreamNonBlocking 0x01
#define cudaStreamDefault 0x00
#define cudaHostRegisterDefault 0x00
#define cudaHostAllocDefault 0x00
#define cudaHostAllocMapped 0x02
#define cudaEventDefault 0x00
#define cudaEventDisableTiming 0x02

/* Where the runtime's functions are compiled. By default in each program that includes this
 * header (static: one copy a program). orcu builds harnesses with ORCU_EMULATION_RUNTIME_APART:
 * the header then declares them, and one object compiled once with the same options
 * (ORCU_EMULATION_RUNTIME_OBJECT, toolchain.emulation_runtime) holds them and the state they
 * share, which halves the compile of each harness. */
#if defined(ORCU_EMULATION_RUNTIME_APART) || defined(ORCU_EMULATION_RUNTIME_OBJECT)
#define ORCU_EMU_FN
#define ORCU_EMU_VAR inline
#else
#define ORCU_EMU_FN static __attribute__((unused))  /* a program calls some of them */
#define ORCU_EMU_VAR static __attribute__((unused))
#endif

namespace orcu_emu {

/* The emulated device: limits of the profile orcu chose (H100 unless told otherwise). */
#ifndef ORCU_EMULATION_SMS
#define ORCU_EMULATION_SMS 132
#endif
#ifndef ORCU_EMULATION_MAX_THREADS
#define ORCU_EMULATION_MAX_THREADS 1024
#endif
#ifndef ORCU_EMULATION_SHARED_PER_BLOCK
#define ORCU_EMULATION_SHARED_PER_BLOCK (48 * 1024)
#endif
#ifndef ORCU_EMULATION_SHARED_OPTIN
#define ORCU_EMULATION_SHARED_OPTIN (227 * 1024)
#endif
#ifndef ORCU_EMULATION_CC
#define ORCU_EMULATION_CC 90
#endif

ORCU_EMU_VAR cudaError_t sticky = cudaSuccess;  /* a kernel fault poisons the context, as on a GPU */
ORCU_EMU_VAR cudaError_t last = cudaSuccess;

ORCU_EMU_FN cudaError_t fail(cudaError_t err, const char *what);

/* An error the CUDA runtime returns without printing anything (the caller may handle it). */
ORCU_EMU_FN cudaError_t quiet_error(cudaError_t err);

/* Calls that cost time on a GPU: a tuned function called again should make none of the first
 * four; the copies between host and device memory, and their bytes. */
struct Counters {
    unsigned long device_allocations, pinned_allocations, streams_created, events_created;
    unsigned long registrations, launches;
    unsigned long copies_to_device, copies_to_host;
    unsigned long long bytes_to_device, bytes_to_host;
};
ORCU_EMU_VAR Counters counters = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0};

/* With ORCU_EMULATION_COUNTERS set, the counters go to stderr as one JSON line at exit (benchmarks). */
ORCU_EMU_FN void print_counters();
ORCU_EMU_VAR const bool counters_at_exit = getenv("ORCU_EMULATION_COUNTERS") != NULL && atexit(print_counters) == 0;

/* ORCU_EMULATION_ADDRESS_LIMIT (bytes): the address space this process may take, so that a run
 * allocating without bound fails here, not by the machine's OOM killer. */
ORCU_EMU_FN bool limit_address_space();
ORCU_EMU_VAR const bool address_space_limited = limit_address_space();

/* ---- host memory the GPU can reach: cudaMallocHost, and ranges cudaHostRegister pinned -- */
struct Pinned { size_t bytes; bool registered; };  /* registered: by cudaHostRegister */
ORCU_EMU_FN std::map<uintptr_t, Pinned> &pinned();
ORCU_EMU_FN const Pinned *find_pinned(const void *p, uintptr_t *start);
static uintptr_t page_down(uintptr_t p) { return p & ~((uintptr_t)sysconf(_SC_PAGESIZE) - 1); }
static uintptr_t page_up(uintptr_t p) { return page_down(p + (uintptr_t)sysconf(_SC_PAGESIZE) - 1); }

/* ---- ordering between the default (legacy) stream and non-blocking streams -------------- */
/* Each asynchronous piece of work on the default stream starts a new epoch; `synced` is the
 * last epoch the host has waited for. */
ORCU_EMU_VAR unsigned long long legacy_epoch = 0, legacy_synced = 0;
static void legacy_work() { legacy_epoch++; }
static void legacy_sync() { legacy_synced = legacy_epoch; }
/* Work about to start on stream s: false, with the reason, when it may overtake the default stream. */
ORCU_EMU_FN bool ordered_after_default_stream(cudaStream_t s, const char *what);

/* ---- device memory: host pages ending at a PROT_NONE guard page -------------------- */
struct Allocation { char *base; size_t mapped; size_t bytes; };
ORCU_EMU_FN std::map<uintptr_t, Allocation> &allocations();
ORCU_EMU_FN const Allocation *find_allocation(const void *p);

/* Allocations are rounded up to 16 bytes; the kernel that writes into that padding, past
 * the end of an allocation, is caught after it runs (a write further on hits the guard page). */
ORCU_EMU_FN void check_padding();

/* ---- context switching ------------------------------------------------------------- */
#if defined(__x86_64__) && !defined(ORCU_EMULATION_UCONTEXT)
/* swapcontext makes a system call (the signal mask) on every switch; fibers need only the
 * callee-saved registers, the stack pointer and the floating-point control words. */
struct Context { void *sp; };

__attribute__((naked, noinline)) static void switch_stack(void **, void *)
{
    __asm__ volatile(
        "pushq %rbp\n\t"
        "pushq %rbx\n\t"
        "pushq %r12\n\t"
        "pushq %r13\n\t"
        "pushq %r14\n\t"
        "pushq %r15\n\t"
        "subq $8, %rsp\n\t"
        "stmxcsr (%rsp)\n\t"
        "fnstcw 4(%rsp)\n\t"
        "movq %rsp, (%rdi)\n\t"
        "movq %rsi, %rsp\n\t"
        "ldmxcsr (%rsp)\n\t"
        "fldcw 4(%rsp)\n\t"
        "addq $8, %rsp\n\t"
        "popq %r15\n\t"
        "popq %r14\n\t"
        "popq %r13\n\t"
        "popq %r12\n\t"
        "popq %rbx\n\t"
        "popq %rbp\n\t"
        "ret\n\t");
}

static void context_switch(Context *from, Context *to) { switch_stack(&from->sp, to->sp); }

/* A stack whose first switch "returns" into entry, aligned as if entry had been called. */
static void context_start(Context *c, char *stack, size_t size, void (*entry)())
{
    void **sp = (void **)(((uintptr_t)(stack + size)) & ~(uintptr_t)15);
    *--sp = NULL;             /* entry's return address: it never returns */
    *--sp = (void *)entry;
    for (int k = 0; k < 6; k++)
        *--sp = NULL;         /* rbp, rbx, r12-r15 */
    --sp;
    const uint32_t mxcsr = 0x1f80;  /* the defaults: round to nearest, exceptions masked */
    const uint16_t x87 = 0x037f;
    memcpy(sp, &mxcsr, 4);
    memcpy((char *)sp + 4, &x87, 2);
    c->sp = sp;
}
#else
struct Context { ucontext_t uc; };
static void context_switch(Context *from, Context *to) { swapcontext(&from->uc, &to->uc); }
static void context_start(Context *c, char *stack, size_t size, void (*entry)())
{
    getcontext(&c->uc);
    c->uc.uc_stack.ss_sp = stack;
    c->uc.uc_stack.ss_size = size;
    c->uc.uc_link = NULL;
    makecontext(&c->uc, entry, 0);
}
#endif

/* ---- fibers: the threads of one block ---------------------------------------------- */
enum State { RUNNABLE, AT_BARRIER, AT_WARP, DONE };
enum WarpOp { SYNC, SHFL_DOWN, SHFL_UP, SHFL_XOR, SHFL_IDX };
struct Fiber {
    Context context;
    char *stack;
    State state;
    uint3 index;
    int linear;
    WarpOp op;
    unsigned mask;
    int operand;  /* delta, lane mask or source lane */
    int width;
    uint64_t value, result;
    /* accesses per call site since the last barrier (shared tiles; global memory in a counting build) */
    struct SiteVisits { const void *site; int count; } *visits;
    size_t visit_n, visit_cap;
};
static const size_t STACK = 256 * 1024;
/* Each fiber's stack starts at its own offset into this much more: stacks a power of two apart
 * put every fiber's top in the same cache sets, and switching among a block's threads then
 * missed in the caches on every switch (60% of an emulated reduction's time). */
static const size_t STACK_COLORS = 64 * 1024;
static const size_t STACK_MAPPED = STACK + STACK_COLORS;
ORCU_EMU_VAR std::vector<Fiber> fibers;
ORCU_EMU_VAR Fiber *current = NULL;
ORCU_EMU_VAR Context scheduler;
ORCU_EMU_VAR const std::function<void()> *body = NULL;
ORCU_EMU_VAR uint3 block_index;
ORCU_EMU_VAR dim3 block_dim, grid_dim;
ORCU_EMU_VAR unsigned char *dynamic_shared = NULL;

ORCU_EMU_FN void fiber_main();

ORCU_EMU_FN void yield(State state);

ORCU_EMU_FN int lanes_in_warp(int warp, int threads);

/* Completes every warp operation whose lanes have all arrived; false on a bad mask. */
ORCU_EMU_FN bool settle_warps(int threads, bool *progress, char *why, size_t size);

/* ---- bank conflicts of the TSG's shared tiles (ORCU_SHARED_TILE) ---------------------- */
/* Each access to a tile is logged with its call site; a lane's n-th access at a site since the
 * last barrier is one request together with the other lanes' n-th there (lanes run the same
 * code; a lane that skips a guarded access is inactive in it). At each barrier and at the
 * block's end, every request is counted as the hardware serialises it (orcu/tsg/banks.py:
 * phases of 128 bytes of lanes, distinct 4-byte words per bank) and checked against the figure
 * the code declared for the tile, on each kernel's first launch (the others repeat it). */
struct BankAccess {
    const void *site;
    int warp, visit, lane, size, ways;
    uintptr_t address;
    const char *tile;
    bool operator<(const BankAccess &o) const
    {
        return site != o.site ? site < o.site : warp != o.warp ? warp < o.warp : visit != o.visit ? visit < o.visit : lane < o.lane;
    }
};

/* The emulation's own bookkeeping of accesses runs once or more per access of a kernel; a counting
 * build compiles the kernel at -O0 with instrumentation, so this part is kept free of the
 * standard library's templates (which would be compiled and instrumented alike) and asks
 * for neither. */
#if defined(__GNUC__) && !defined(__clang__)
#define ORCU_EMU_HOT __attribute__((no_sanitize_thread, optimize("O2")))
#else
#define ORCU_EMU_HOT __attribute__((no_sanitize_thread))
#endif

/* A growable array of accesses (malloc'd: no constructor runs on it). */
struct AccessLog {
    BankAccess *data;
    size_t size, capacity;
};
ORCU_EMU_HOT ORCU_EMU_FN void *grow(void *data, size_t *capacity, size_t needed, size_t element);
ORCU_EMU_HOT ORCU_EMU_FN void log_push(AccessLog *log, const BankAccess &a);

/* log[0, n) ordered so that each request (one site, warp and visit) is contiguous, its lanes in
 * order, in linear time (a hash of the requests, then a counting sort): the log of a block
 * holds every access of its threads between two barriers, millions for a grid-stride loop.
 * *count is the number of requests; (*starts)[r] is where request r begins in the array
 * returned, (*starts)[*count] = n. Both stay valid until the next call. */
ORCU_EMU_HOT ORCU_EMU_FN const BankAccess *group_requests(const BankAccess *log, size_t n, size_t *requests, size_t **starts);

ORCU_EMU_VAR AccessLog bank_log = {NULL, 0, 0};
ORCU_EMU_VAR bool banks_on = false;  /* a kernel's first launch is checked; its later ones repeat it */
ORCU_EMU_VAR bool in_kernel = false;  /* a block's thread runs (not the scheduler between them) */
ORCU_EMU_VAR bool in_hook = false;  /* the emulation's own work inside a kernel, not the kernel's accesses */

/* The running lane's access at `site`: its warp, and its visit there since the last barrier. */
ORCU_EMU_HOT ORCU_EMU_FN BankAccess visit(const void *site, int size, int ways, uintptr_t address, const char *tile);

ORCU_EMU_FN void log_bank(const void *site, const void *p, int size, int ways, const char *tile);

/* The most distinct words one bank serves in one phase of the request [first, last); in
 * `wavefronts`, the shared-memory cycles of the request: each phase's worst bank, summed. */
ORCU_EMU_FN int request_ways(const BankAccess *first, const BankAccess *last, unsigned long long *wavefronts);

/* ---- memory traffic, counted (builds with ORCU_EMULATION_SECTORS) ---------------------- */
/* Such a build is compiled with -fsanitize=thread, whose instrumentation calls __tsan_readN /
 * __tsan_writeN before each load and store; orcu's hooks (no runtime is linked) log the
 * accesses that a kernel's threads make to device memory in the harness's checked call, grouped
 * into warp requests as the bank log is, and count each request's distinct 32-byte sectors. The
 * shared tiles' requests and the words of their worst bank are counted too. At exit the totals
 * go to stderr as one JSON line, for orcu/execution/model.py's inputs and the tests of the static figures. */
struct SiteCount { unsigned long long requests, sectors; int write; };  /* a shared tile's `sectors`: its wavefronts */
ORCU_EMU_VAR std::map<const void *, SiteCount> sector_counts, tile_counts;  /* by call site */
ORCU_EMU_VAR AccessLog sector_log = {NULL, 0, 0};
ORCU_EMU_VAR bool counting = false;  /* a launch to count runs */
ORCU_EMU_VAR bool counted = false;  /* the harness has had the launches of the call it counts */
ORCU_EMU_VAR unsigned long long counted_blocks = 0, counted_threads = 0;  /* the counted launches' blocks, the last's block size */

/* The count of a site, found once per site and run of requests (std::map's nodes stay put). */
ORCU_EMU_FN SiteCount *site_count(std::map<const void *, SiteCount> &counts, const void *site);

/* The distinct 32-byte sectors of the request [first, last). */
ORCU_EMU_HOT ORCU_EMU_FN unsigned long long request_sectors(const BankAccess *first, const BankAccess *last);

ORCU_EMU_FN void count_sectors();

ORCU_EMU_FN void print_memory_counts();

/* The allocations the last accesses fell in: a kernel touches a few arrays, and none is
 * allocated or freed while it runs (launch() empties this before each counted launch). */
struct RecentAllocation { uintptr_t start, end; };
ORCU_EMU_VAR RecentAllocation recent_allocations[4];
ORCU_EMU_VAR int recent_next = 0;

#ifdef ORCU_EMULATION_SECTORS
ORCU_EMU_VAR const bool memory_counts_at_exit = atexit(print_memory_counts) == 0;
ORCU_EMU_HOT ORCU_EMU_FN void log_global(const void *site, const void *p, int size, bool write);  /* what the hooks call */
#endif

ORCU_EMU_FN bool check_banks(char *why, size_t size);

template <typename A, bool last = std::rank<typename std::remove_extent<A>::type>::value == 0> struct tile_view;
/* A tile's sub-array (a row, or one buffer of a double-buffered tile): `data` is its elements. */
template <typename A> struct tile_view<A, true> {
    A &data;
    int ways;
    const char *name;
    /* not inlined: its return address names the access in the kernel */
    __attribute__((noinline)) typename std::remove_extent<A>::type &operator[](long long i) const
    {
        typename std::remove_extent<A>::type &element = data[i];
        if (banks_on)
            log_bank(__builtin_return_address(0), &element, (int)sizeof element, ways, name);
        return element;
    }
};
template <typename A> struct tile_view<A, false> {
    A &data;
    int ways;
    const char *name;
    __attribute__((always_inline)) inline tile_view<typename std::remove_extent<A>::type> operator[](long long i) const
    {
        return tile_view<typename std::remove_extent<A>::type>{data[i], ways, name};
    }
};
template <typename A> struct tile {
    alignas(16) A data;
    int ways;
    const char *name;
    tile(const char *name_, int ways_) : ways(ways_), name(name_) {}
    __attribute__((always_inline)) inline decltype(auto) operator[](long long i)
    {
        return tile_view<A>{data, ways, name}[i];
    }
};
/* A vector of the tile's consecutive elements at `p` (ORCU_TILE_VECTOR): one logged access of
 * the vector's size. Not inlined: its return address names the access in the kernel. */
template <typename V, typename T> __attribute__((noinline)) V tile_vector(const T &t, const void *p)
{
    if (banks_on)
        log_bank(__builtin_return_address(0), p, (int)sizeof(V), t.ways, t.name);
    return *(const V *)p;
}

/* Runs one block; false (with the reason in `why`) when its threads cannot all finish. */
ORCU_EMU_FN bool run_block(int threads, char *why, size_t size);

ORCU_EMU_FN unsigned long long seed_from_environment();

/* Whether the GPU can read what a kernel argument points to: device memory, or pinned host memory. */
template <typename T> static bool reachable(T *p)
{
    uintptr_t start;
    return p == NULL || find_allocation((const void *)p) != NULL || find_pinned((const void *)p, &start) != NULL;
}
template <typename T> static bool reachable(const T &) { return true; }  /* not a pointer */

template <typename Kernel, typename... Args>
static void launch(Kernel kernel, dim3 grid, dim3 block, size_t shared_bytes, cudaStream_t stream, Args... args)
{
    if (sticky != cudaSuccess) {
        last = sticky;
        return;
    }
    counters.launches++;
    int argument = 0, unreachable = 0;
    ((argument++, unreachable = unreachable ? unreachable : (reachable(args) ? 0 : argument)), ...);
    if (unreachable) {
        char why[160];
        snprintf(why, sizeof why, "kernel argument %d points to host memory the GPU cannot read (pass device memory)", unreachable);
        fail(cudaErrorIllegalAddress, why);
        return;
    }
    if (!ordered_after_default_stream(stream, "a kernel"))
        return;
    if (stream == NULL)
        legacy_work();
    const unsigned long long threads = (unsigned long long)block.x * block.y * block.z;
    if (threads == 0 || threads > ORCU_EMULATION_MAX_THREADS || grid.x == 0 || grid.y == 0 || grid.z == 0 || grid.y > 65535 || grid.z > 65535) {
        fail(cudaErrorInvalidConfiguration, "invalid launch configuration (block or grid size)");
        return;
    }
    if (shared_bytes > ORCU_EMULATION_SHARED_OPTIN) {
        fail(cudaErrorInvalidValue, "too much dynamic shared memory requested");
        return;
    }
    static std::vector<const void *> launched;  /* kernels whose shared tiles were checked */
    banks_on = std::find(launched.begin(), launched.end(), (const void *)kernel) == launched.end();
    if (banks_on)
        launched.push_back((const void *)kernel);
    counting = !counted;
    memset(recent_allocations, 0, sizeof recent_allocations);
    if (counting) {
        counted_blocks += (unsigned long long)grid.x * grid.y * grid.z;
        counted_threads = (unsigned long long)block.x * block.y * block.z;
    }
    const std::function<void()> run = [&]() { kernel(args...); };
    body = &run;
    block_dim = block;
    grid_dim = grid;
    std::vector<unsigned char> shared(shared_bytes + 16);
    const unsigned long long blocks = (unsigned long long)grid.x * grid.y * grid.z;
    std::vector<unsigned long long> order(blocks);
    for (unsigned long long b = 0; b < blocks; b++)
        order[b] = b;
    unsigned long long seed = seed_from_environment();
    if (seed != 0) {  /* Fisher-Yates with a 64-bit LCG: reproducible for a seed */
        for (unsigned long long b = blocks; b > 1; b--) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            const unsigned long long k = (seed >> 33) % b;
            const unsigned long long tmp = order[b - 1];
            order[b - 1] = order[k];
            order[k] = tmp;
        }
    }
    char why[512];
    for (unsigned long long k = 0; k < blocks; k++) {
        const unsigned long long b = order[k];
        block_index.x = b % grid.x;
        block_index.y = b / grid.x % grid.y;
        block_index.z = b / ((unsigned long long)grid.x * grid.y);
        memset(shared.data(), 0xff, shared.size());  /* stale shared data must not look valid */
        dynamic_shared = (unsigned char *)(((uintptr_t)shared.data() + 15) & ~(uintptr_t)15);
        if (!run_block((int)threads, why, sizeof why)) {
            counting = false;
            fail(cudaErrorLaunchFailure, why);
            return;
        }
    }
    counting = false;
    check_padding();
    last = cudaSuccess;
}

template <typename T>
static T warp_exchange(WarpOp op, unsigned mask, T value, int operand, int width)
{
    static_assert(sizeof(T) <= 8, "warp shuffles move at most 8 bytes");
    Fiber *self = current;
    self->op = op;
    self->mask = mask;
    self->operand = operand;
    self->width = width;
    self->value = 0;
    memcpy(&self->value, &value, sizeof(T));
    yield(AT_WARP);
    T out;
    memcpy(&out, &self->result, sizeof(T));
    return out;
}

ORCU_EMU_FN double now_ms();

}  // namespace orcu_emu

/* ---- built-in variables and device functions ------------------------------------------ */
#define threadIdx (orcu_emu::current->index)
#define blockIdx (orcu_emu::block_index)
#define blockDim (orcu_emu::block_dim)
#define gridDim (orcu_emu::grid_dim)
static const int warpSize = 32;

static inline void __syncthreads() { orcu_emu::yield(orcu_emu::AT_BARRIER); }
static inline void __syncwarp(unsigned mask = 0xffffffffu) { orcu_emu::warp_exchange<int>(orcu_emu::SYNC, mask, 0, 0, 32); }
template <typename T> static inline T __shfl_down_sync(unsigned mask, T v, unsigned delta, int width = 32) { return orcu_emu::warp_exchange(orcu_emu::SHFL_DOWN, mask, v, (int)delta, width); }
template <typename T> static inline T __shfl_up_sync(unsigned mask, T v, unsigned delta, int width = 32) { return orcu_emu::warp_exchange(orcu_emu::SHFL_UP, mask, v, (int)delta, width); }
template <typename T> static inline T __shfl_xor_sync(unsigned mask, T v, int lane_mask, int width = 32) { return orcu_emu::warp_exchange(orcu_emu::SHFL_XOR, mask, v, lane_mask, width); }
template <typename T> static inline T __shfl_sync(unsigned mask, T v, int lane, int width = 32) { return orcu_emu::warp_exchange(orcu_emu::SHFL_IDX, mask, v, lane, width); }
template <typename T> static inline T __ldg(const T *p) { return *p; }
template <typename T> static inline T __ldcg(const T *p) { return *p; }
static inline void __threadfence() {}  /* blocks run one after another: their writes are in order */
static inline unsigned __float_as_uint(float x) { unsigned bits; memcpy(&bits, &x, sizeof bits); return bits; }
static inline float __uint_as_float(unsigned bits) { float x; memcpy(&x, &bits, sizeof x); return x; }

/* Fibers switch only at barriers and warp operations, so an atomic is a plain update. On a GPU it
 * is one request (the update is made in L2), so a counted build logs it once, as a store, and
 * not its read and write (not inlined: the return address names the call site). */
#ifdef ORCU_EMULATION_SECTORS
#define ORCU_EMU_ATOMIC(p) orcu_emu::log_global(__builtin_return_address(0), p, (int)sizeof *p, true)
#else
#define ORCU_EMU_ATOMIC(p) (void)0
#endif
#define ORCU_EMU_ATOMIC_FN template <typename T> __attribute__((noinline, no_sanitize_thread)) static T
ORCU_EMU_ATOMIC_FN atomicAdd(T *p, T v) { ORCU_EMU_ATOMIC(p); T old = *p; *p = old + v; return old; }
ORCU_EMU_ATOMIC_FN atomicSub(T *p, T v) { ORCU_EMU_ATOMIC(p); T old = *p; *p = old - v; return old; }
ORCU_EMU_ATOMIC_FN atomicMin(T *p, T v) { ORCU_EMU_ATOMIC(p); T old = *p; *p = v < old ? v : old; return old; }
ORCU_EMU_ATOMIC_FN atomicMax(T *p, T v) { ORCU_EMU_ATOMIC(p); T old = *p; *p = v > old ? v : old; return old; }
ORCU_EMU_ATOMIC_FN atomicExch(T *p, T v) { ORCU_EMU_ATOMIC(p); T old = *p; *p = v; return old; }
ORCU_EMU_ATOMIC_FN atomicCAS(T *p, T compare, T v) { ORCU_EMU_ATOMIC(p); T old = *p; if (old == compare) *p = v; return old; }

static inline int min(int a, int b) { return a < b ? a : b; }
static inline int max(int a, int b) { return a > b ? a : b; }
static inline unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
static inline unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }
static inline long long min(long long a, long long b) { return a < b ? a : b; }
static inline long long max(long long a, long long b) { return a > b ? a : b; }
static inline float min(float a, float b) { return fminf(a, b); }
static inline float max(float a, float b) { return fmaxf(a, b); }
static inline double min(double a, double b) { return fmin(a, b); }
static inline double max(double a, double b) { return fmax(a, b); }

#ifndef ORCU_LAUNCH
#define ORCU_LAUNCH(kernel, grid, block, shared_bytes, stream, ...) \
    orcu_emu::launch(kernel, dim3(grid), dim3(block), (shared_bytes), (stream), __VA_ARGS__)
#endif
#define ORCU_DYNAMIC_SHARED(name) unsigned char *name = orcu_emu::dynamic_shared
#define ORCU_SHARED_TILE(type, name, dims, ways) static orcu_emu::tile<type dims> name(#name, ways)
#define ORCU_TILE_DATA(name) ((name).data)  /* the tile's fill: its declared conflicts are those of its reads */
#define ORCU_TILE_VECTOR(vector, name, index) orcu_emu::tile_vector<vector>(name, &(name).data index)

/* ---- runtime API ------------------------------------------------------------------------ */
ORCU_EMU_FN const char *cudaGetErrorString(cudaError_t err);
static inline cudaError_t cudaGetLastError() { cudaError_t e = orcu_emu::last; orcu_emu::last = orcu_emu::sticky; return e; }
static inline cudaError_t cudaPeekAtLastError() { return orcu_emu::last; }
static inline cudaError_t cudaDeviceSynchronize() { orcu_emu::legacy_sync(); return orcu_emu::sticky; }
ORCU_EMU_FN cudaError_t cudaStreamSynchronize(cudaStream_t s);

ORCU_EMU_FN cudaError_t cudaMalloc(void **p, size_t bytes);
template <typename T> static inline cudaError_t cudaMalloc(T **p, size_t bytes) { return cudaMalloc((void **)p, bytes); }
ORCU_EMU_FN cudaError_t cudaFree(void *p);
ORCU_EMU_FN bool orcu_emu_pageable(const void *p);
ORCU_EMU_FN cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, cudaMemcpyKind, cudaStream_t stream = 0);
template <typename T>
static inline cudaError_t cudaMemcpyToSymbolAsync(T &symbol, const void *src, size_t bytes, size_t offset = 0,
                                                  cudaMemcpyKind kind = cudaMemcpyHostToDevice, cudaStream_t stream = 0)
{
    if (offset + bytes > sizeof symbol) {
        orcu_emu::fail(cudaErrorInvalidValue, "cudaMemcpyToSymbolAsync: the copy runs past the symbol");
        return orcu_emu::last;
    }
    return cudaMemcpyAsync((char *)&symbol + offset, src, bytes, kind, stream);
}
ORCU_EMU_FN cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind);
static inline cudaError_t cudaMemset(void *p, int value, size_t bytes) { memset(p, value, bytes); return orcu_emu::sticky; }
/* Pinned allocations get pages of their own, as on a GPU: no user array shares them. */
ORCU_EMU_FN cudaError_t cudaHostAlloc(void **p, size_t bytes, unsigned);
static inline cudaError_t cudaMallocHost(void **p, size_t bytes) { return cudaHostAlloc(p, bytes, cudaHostAllocDefault); }
template <typename T> static inline cudaError_t cudaMallocHost(T **p, size_t bytes) { return cudaMallocHost((void **)p, bytes); }
ORCU_EMU_FN cudaError_t cudaFreeHost(void *p);
ORCU_EMU_FN cudaError_t cudaHostGetDevicePointer(void **device, void *host, unsigned);
/* Pins the pages [p, p + bytes) lies on; a page pinned already (by another range) makes it fail. */
ORCU_EMU_FN cudaError_t cudaHostRegister(void *p, size_t bytes, unsigned);
ORCU_EMU_FN cudaError_t cudaHostUnregister(void *p);
ORCU_EMU_FN cudaError_t cudaPointerGetAttributes(cudaPointerAttributes *a, const void *p);

ORCU_EMU_FN cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags);
static inline cudaError_t cudaStreamCreate(cudaStream_t *s) { return cudaStreamCreateWithFlags(s, 0); }
static inline cudaError_t cudaStreamDestroy(cudaStream_t s) { delete s; return cudaSuccess; }
ORCU_EMU_FN cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned);
static inline cudaError_t cudaEventCreate(cudaEvent_t *e) { return cudaEventCreateWithFlags(e, cudaEventDefault); }
static inline cudaError_t cudaEventDestroy(cudaEvent_t e) { delete e; return cudaSuccess; }
/* An event recorded on the default stream marks its work so far; a stream that waits for it is ordered after that work. */
ORCU_EMU_FN cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s = 0);
ORCU_EMU_FN cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned = 0);
static inline cudaError_t cudaEventSynchronize(cudaEvent_t) { return orcu_emu::sticky; }
static inline cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t stop) { *ms = (float)(stop->ms - start->ms); return cudaSuccess; }

template <typename F> static inline cudaError_t cudaFuncSetCacheConfig(F *, cudaFuncCache) { return cudaSuccess; }
template <typename F> static inline cudaError_t cudaFuncSetAttribute(F *, cudaFuncAttribute attr, int value)
{
    if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize && value > ORCU_EMULATION_SHARED_OPTIN)
        return orcu_emu::fail(cudaErrorInvalidValue, "cudaFuncSetAttribute: more dynamic shared memory than the device has");
    return cudaSuccess;
}
static inline cudaError_t cudaGetDevice(int *device) { *device = 0; return cudaSuccess; }
static inline cudaError_t cudaSetDevice(int) { return cudaSuccess; }
ORCU_EMU_FN cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int);

#ifndef ORCU_EMULATION_RUNTIME_APART
#include "emulation_runtime.inc"
#endif
#endif
