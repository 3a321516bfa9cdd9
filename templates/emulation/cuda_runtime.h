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

static cudaError_t sticky = cudaSuccess;  /* a kernel fault poisons the context, as on a GPU */
static cudaError_t last = cudaSuccess;

static cudaError_t fail(cudaError_t err, const char *what)
{
    fprintf(stderr, "orcu emulation: %s\n", what);
    if (err == cudaErrorLaunchFailure || err == cudaErrorIllegalAddress)
        sticky = err;
    last = err;
    return err;
}

/* An error the CUDA runtime returns without printing anything (the caller may handle it). */
static cudaError_t quiet_error(cudaError_t err)
{
    last = err;
    return err;
}

/* Calls that cost time on a GPU: a tuned function called again should make none of the first
 * four; the copies between host and device memory, and their bytes. */
struct Counters {
    unsigned long device_allocations, pinned_allocations, streams_created, events_created;
    unsigned long registrations, launches;
    unsigned long copies_to_device, copies_to_host;
    unsigned long long bytes_to_device, bytes_to_host;
};
static Counters counters = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0};

/* With ORCU_EMULATION_COUNTERS set, the counters go to stderr as one JSON line at exit (benchmarks). */
static void print_counters()
{
    fprintf(stderr, "orcu emulation counters: {\"device_allocations\": %lu, \"pinned_allocations\": %lu, "
            "\"streams_created\": %lu, \"events_created\": %lu, \"registrations\": %lu, \"launches\": %lu, "
            "\"copies_to_device\": %lu, \"copies_to_host\": %lu, \"bytes_to_device\": %llu, \"bytes_to_host\": %llu}\n",
            counters.device_allocations, counters.pinned_allocations, counters.streams_created, counters.events_created,
            counters.registrations, counters.launches, counters.copies_to_device, counters.copies_to_host,
            counters.bytes_to_device, counters.bytes_to_host);
}
static const bool counters_at_exit = getenv("ORCU_EMULATION_COUNTERS") != NULL && atexit(print_counters) == 0;

/* ORCU_EMULATION_ADDRESS_LIMIT (bytes): the address space this process may take, so that a run
 * allocating without bound fails here, not by the machine's OOM killer. */
static bool limit_address_space()
{
    const char *text = getenv("ORCU_EMULATION_ADDRESS_LIMIT");
    if (text == NULL)
        return false;
    struct rlimit limit;
    limit.rlim_cur = limit.rlim_max = (rlim_t)strtoull(text, NULL, 10);
    return setrlimit(RLIMIT_AS, &limit) == 0;
}
static const bool address_space_limited = limit_address_space();

/* ---- host memory the GPU can reach: cudaMallocHost, and ranges cudaHostRegister pinned -- */
struct Pinned { size_t bytes; bool registered; };  /* registered: by cudaHostRegister */
static std::map<uintptr_t, Pinned> &pinned()
{
    static std::map<uintptr_t, Pinned> table;
    return table;
}
static const Pinned *find_pinned(const void *p, uintptr_t *start)
{
    std::map<uintptr_t, Pinned> &table = pinned();
    std::map<uintptr_t, Pinned>::iterator it = table.upper_bound((uintptr_t)p);
    if (it == table.begin())
        return NULL;
    --it;
    *start = it->first;
    return (uintptr_t)p < it->first + it->second.bytes ? &it->second : NULL;
}
static uintptr_t page_down(uintptr_t p) { return p & ~((uintptr_t)sysconf(_SC_PAGESIZE) - 1); }
static uintptr_t page_up(uintptr_t p) { return page_down(p + (uintptr_t)sysconf(_SC_PAGESIZE) - 1); }

/* ---- ordering between the default (legacy) stream and non-blocking streams -------------- */
/* Each asynchronous piece of work on the default stream starts a new epoch; `synced` is the
 * last epoch the host has waited for. */
static unsigned long long legacy_epoch = 0, legacy_synced = 0;
static void legacy_work() { legacy_epoch++; }
static void legacy_sync() { legacy_synced = legacy_epoch; }
/* Work about to start on stream s: false, with the reason, when it may overtake the default stream. */
static bool ordered_after_default_stream(cudaStream_t s, const char *what)
{
    if (s == NULL)
        return true;
    if (!(s->flags & cudaStreamNonBlocking)) {  /* a blocking stream waits for the default stream */
        s->seen = legacy_epoch;
        return true;
    }
    if (s->seen >= legacy_epoch || legacy_synced >= legacy_epoch)
        return true;
    char why[300];
    snprintf(why, sizeof why, "%s on non-blocking stream %d may start before earlier work of the default stream "
             "(a copy from pageable memory, a launch) has finished: nothing orders them (an event, or a blocking stream)",
             what, s->id);
    fail(cudaErrorLaunchFailure, why);
    return false;
}

/* ---- device memory: host pages ending at a PROT_NONE guard page -------------------- */
struct Allocation { char *base; size_t mapped; size_t bytes; };
static std::map<uintptr_t, Allocation> &allocations()
{
    static std::map<uintptr_t, Allocation> table;
    return table;
}
static const Allocation *find_allocation(const void *p)
{
    std::map<uintptr_t, Allocation> &table = allocations();
    std::map<uintptr_t, Allocation>::iterator it = table.upper_bound((uintptr_t)p);
    if (it == table.begin())
        return NULL;
    --it;
    const uintptr_t start = it->first;
    return (uintptr_t)p < start + it->second.bytes + 1 ? &it->second : NULL;
}

/* Allocations are rounded up to 16 bytes; the kernel that writes into that padding, past
 * the end of an allocation, is caught after it runs (a write further on hits the guard page). */
static void check_padding()
{
    if (sticky != cudaSuccess)
        return;
    std::map<uintptr_t, Allocation> &table = allocations();
    for (std::map<uintptr_t, Allocation>::iterator it = table.begin(); it != table.end(); ++it) {
        const unsigned char *p = (const unsigned char *)it->first;
        const size_t rounded = (it->second.bytes + 15) & ~(size_t)15;
        for (size_t k = it->second.bytes; k < rounded; k++)
            if (p[k] != 0xa5) {
                fprintf(stderr, "orcu emulation: a kernel wrote past the end of a %zu-byte allocation\n", it->second.bytes);
                abort();
            }
    }
}

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
static std::vector<Fiber> fibers;
static Fiber *current = NULL;
static Context scheduler;
static const std::function<void()> *body = NULL;
static uint3 block_index;
static dim3 block_dim, grid_dim;
static unsigned char *dynamic_shared = NULL;

static void fiber_main()
{
    (*body)();
    current->state = DONE;
    context_switch(&current->context, &scheduler);  /* never resumed */
}

static void yield(State state)
{
    current->state = state;
    context_switch(&current->context, &scheduler);
}

static int lanes_in_warp(int warp, int threads)
{
    const int left = threads - warp * 32;
    return left < 32 ? left : 32;
}

/* Completes every warp operation whose lanes have all arrived; false on a bad mask. */
static bool settle_warps(int threads, bool *progress, char *why, size_t size)
{
    for (int warp = 0; warp * 32 < threads; warp++) {
        const int lanes = lanes_in_warp(warp, threads);
        Fiber *lane_fiber[32];
        for (int l = 0; l < lanes; l++)
            lane_fiber[l] = &fibers[warp * 32 + l];
        for (int l = 0; l < lanes; l++) {
            Fiber *f = lane_fiber[l];
            if (f->state != AT_WARP)
                continue;
            const unsigned mask = f->mask;
            if (!(mask >> l & 1u)) {
                snprintf(why, size, "warp operation in block (%u,%u,%u), thread %d: the mask 0x%08x leaves out the calling lane %d",
                         block_index.x, block_index.y, block_index.z, f->linear, mask, l);
                return false;
            }
            bool ready = true;
            for (int m = 0; m < 32; m++) {
                if (!(mask >> m & 1u))
                    continue;
                if (m >= lanes || lane_fiber[m]->state == DONE || lane_fiber[m]->state == AT_BARRIER) {
                    snprintf(why, size, "warp operation with mask 0x%08x in block (%u,%u,%u), warp %d: lane %d %s",
                             mask, block_index.x, block_index.y, block_index.z, warp, m,
                             m >= lanes ? "does not exist (the block is smaller)" :
                             lane_fiber[m]->state == DONE ? "has exited" : "waits at __syncthreads()");
                    return false;
                }
                if (lane_fiber[m]->state != AT_WARP)
                    ready = false;
                else if (lane_fiber[m]->mask != mask || lane_fiber[m]->op != f->op) {
                    snprintf(why, size, "lanes %d and %d of warp %d in block (%u,%u,%u) meet at different warp operations (masks 0x%08x and 0x%08x)",
                             l, m, warp, block_index.x, block_index.y, block_index.z, mask, lane_fiber[m]->mask);
                    return false;
                }
            }
            if (!ready)
                continue;
            for (int m = 0; m < 32; m++) {
                if (!(mask >> m & 1u))
                    continue;
                Fiber *g = lane_fiber[m];
                const int width = g->width, base = m - m % width;
                int src = m;
                switch (g->op) {
                case SHFL_DOWN: src = m % width + g->operand < width ? m + g->operand : m; break;
                case SHFL_UP: src = m % width - g->operand >= 0 ? m - g->operand : m; break;
                case SHFL_XOR: src = ((m ^ g->operand) - base) < width && (m ^ g->operand) >= base ? (m ^ g->operand) : m; break;
                case SHFL_IDX: src = base + ((g->operand % width) + width) % width; break;
                case SYNC: break;
                }
                /* an inactive source lane gives an undefined value on a GPU: here, the caller's own */
                g->result = (src < lanes && (mask >> src & 1u)) ? lane_fiber[src]->value : g->value;
            }
            for (int m = 0; m < 32; m++)
                if (mask >> m & 1u)
                    lane_fiber[m]->state = RUNNABLE;
            *progress = true;
        }
    }
    return true;
}

/* ---- bank conflicts of the TSG's shared tiles (ORCU_SHARED_TILE) ---------------------- */
/* Each access to a tile is logged with its call site; a lane's n-th access at a site since the
 * last barrier is one request together with the other lanes' n-th there (lanes run the same
 * code; a lane that skips a guarded access is inactive in it). At each barrier and at the
 * block's end, every request is counted as the hardware serialises it (orcu/codegen/banks.py:
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
ORCU_EMU_HOT static void *grow(void *data, size_t *capacity, size_t needed, size_t element)
{
    if (needed <= *capacity)
        return data;
    size_t wanted = *capacity ? *capacity : 256;
    while (wanted < needed)
        wanted *= 2;
    void *grown = realloc(data, wanted * element);
    if (grown == NULL) {
        fprintf(stderr, "orcu emulation: out of memory for the access log (%zu entries)\n", needed);
        exit(EXIT_FAILURE);
    }
    *capacity = wanted;
    return grown;
}
ORCU_EMU_HOT static void log_push(AccessLog *log, const BankAccess &a)
{
    log->data = (BankAccess *)grow(log->data, &log->capacity, log->size + 1, sizeof(BankAccess));
    log->data[log->size++] = a;
}

/* log[0, n) ordered so that each request (one site, warp and visit) is contiguous, its lanes in
 * order, in linear time (a hash of the requests, then a counting sort): the log of a block
 * holds every access of its threads between two barriers, millions for a grid-stride loop.
 * *count is the number of requests; (*starts)[r] is where request r begins in the array
 * returned, (*starts)[*count] = n. Both stay valid until the next call. */
ORCU_EMU_HOT static const BankAccess *group_requests(const BankAccess *log, size_t n, size_t *requests, size_t **starts)
{
    static size_t *slot = NULL, *group = NULL, *first = NULL, *offset = NULL, slots = 0, groups_cap = 0, entries_cap = 0, offsets_cap = 0;
    static BankAccess *sorted = NULL;
    static size_t sorted_cap = 0;
    size_t table = 64;
    while (table < 2 * n)
        table *= 2;
    slot = (size_t *)grow(slot, &slots, table, sizeof(size_t));
    for (size_t k = 0; k < table; k++)
        slot[k] = (size_t)-1;
    group = (size_t *)grow(group, &entries_cap, n, sizeof(size_t));
    first = (size_t *)grow(first, &groups_cap, n, sizeof(size_t));
    size_t count = 0;
    for (size_t i = 0; i < n; i++) {
        const BankAccess &a = log[i];
        uint64_t h = (uint64_t)(uintptr_t)a.site * 0x9e3779b97f4a7c15ull ^ ((uint64_t)(unsigned)a.warp << 32 | (unsigned)a.visit);
        h *= 0xff51afd7ed558ccdull;
        size_t k = (size_t)(h >> 20) & (table - 1);
        for (;; k = (k + 1) & (table - 1)) {
            if (slot[k] == (size_t)-1) {
                slot[k] = count;
                first[count++] = i;
                break;
            }
            const BankAccess &b = log[first[slot[k]]];
            if (b.site == a.site && b.warp == a.warp && b.visit == a.visit)
                break;
        }
        group[i] = slot[k];
    }
    offset = (size_t *)grow(offset, &offsets_cap, count + 1, sizeof(size_t));
    for (size_t g = 0; g <= count; g++)
        offset[g] = 0;
    for (size_t i = 0; i < n; i++)
        offset[group[i] + 1]++;
    for (size_t g = 0; g < count; g++)
        offset[g + 1] += offset[g];
    sorted = (BankAccess *)grow(sorted, &sorted_cap, n, sizeof(BankAccess));
    for (size_t i = 0; i < n; i++)
        sorted[offset[group[i]]++] = log[i];
    for (size_t g = count; g > 0; g--)  /* each offset now ends its group: shift back to starts */
        offset[g] = offset[g - 1];
    offset[0] = 0;
    for (size_t g = 0; g < count; g++)  /* a request's lanes in order: nearly so already */
        for (size_t i = offset[g] + 1; i < offset[g + 1]; i++)
            for (size_t j = i; j > offset[g] && sorted[j].lane < sorted[j - 1].lane; j--) {
                const BankAccess t = sorted[j];
                sorted[j] = sorted[j - 1];
                sorted[j - 1] = t;
            }
    *requests = count;
    *starts = offset;
    return sorted;
}

static AccessLog bank_log = {NULL, 0, 0};
static bool banks_on = false;  /* a kernel's first launch is checked; its later ones repeat it */
static bool in_kernel = false;  /* a block's thread runs (not the scheduler between them) */
static bool in_hook = false;  /* the emulation's own work inside a kernel, not the kernel's accesses */

/* The running lane's access at `site`: its warp, and its visit there since the last barrier. */
ORCU_EMU_HOT static BankAccess visit(const void *site, int size, int ways, uintptr_t address, const char *tile)
{
    Fiber *f = current;
    size_t k = 0;
    while (k < f->visit_n && f->visits[k].site != site)  /* a few sites per kernel */
        k++;
    if (k == f->visit_n) {
        f->visits = (Fiber::SiteVisits *)grow(f->visits, &f->visit_cap, k + 1, sizeof(Fiber::SiteVisits));
        f->visits[k].site = site;
        f->visits[k].count = 0;
        f->visit_n++;
    }
    return BankAccess{site, f->linear / 32, f->visits[k].count++, f->linear % 32, size, ways, address, tile};
}

static void log_bank(const void *site, const void *p, int size, int ways, const char *tile)
{
    in_hook = true;
    log_push(&bank_log, visit(site, size, ways, (uintptr_t)p, tile));
    in_hook = false;
}

/* The most distinct words one bank serves in one phase of the request [first, last); in
 * `wavefronts`, the shared-memory cycles of the request: each phase's worst bank, summed. */
static int request_ways(const BankAccess *first, const BankAccess *last, unsigned long long *wavefronts)
{
    const int bytes = first->size < 4 ? 4 : first->size, per_phase = 128 / bytes;
    uintptr_t words[32][32];  /* per bank, the distinct words of the current phase */
    int count[32], worst = 1, phase = -1, phase_worst = 0;
    *wavefronts = 0;
    for (const BankAccess *a = first; a != last; a++) {
        if (a->lane / per_phase != phase) {
            *wavefronts += phase_worst;
            phase_worst = 1;
            phase = a->lane / per_phase;
            memset(count, 0, sizeof count);
        }
        for (uintptr_t w = a->address / 4; w <= (a->address + bytes - 1) / 4; w++) {
            const int bank = (int)(w % 32);
            int k = 0;
            while (k < count[bank] && words[bank][k] != w)
                k++;
            if (k == count[bank] && count[bank] < 32)
                words[bank][count[bank]++] = w;
            worst = count[bank] > worst ? count[bank] : worst;
            phase_worst = count[bank] > phase_worst ? count[bank] : phase_worst;
        }
    }
    *wavefronts += phase_worst;
    return worst;
}

/* ---- memory traffic, counted (builds with ORCU_EMULATION_SECTORS) ---------------------- */
/* Such a build is compiled with -fsanitize=thread, whose instrumentation calls __tsan_readN /
 * __tsan_writeN before each load and store; orcu's hooks below (no runtime is linked) log the
 * accesses that a kernel's threads make to device memory in the harness's checked call, grouped
 * into warp requests as the bank log is, and count each request's distinct 32-byte sectors. The
 * shared tiles' requests and the words of their worst bank are counted too. At exit the totals
 * go to stderr as one JSON line, for orcu/model.py's inputs and the tests of the static figures. */
struct SiteCount { unsigned long long requests, sectors; int write; };  /* a shared tile's `sectors`: its wavefronts */
static std::map<const void *, SiteCount> sector_counts, tile_counts;  /* by call site */
static AccessLog sector_log = {NULL, 0, 0};
static bool counting = false;  /* a launch to count runs */
static bool counted = false;  /* the harness has had the launches of the call it counts */
static unsigned long long counted_blocks = 0, counted_threads = 0;  /* the counted launches' blocks, the last's block size */

/* The count of a site, found once per site and run of requests (std::map's nodes stay put). */
static SiteCount *site_count(std::map<const void *, SiteCount> &counts, const void *site)
{
    static std::map<const void *, SiteCount> *last_counts = NULL;
    static const void *last_site = NULL;
    static SiteCount *last = NULL;
    if (last == NULL || last_counts != &counts || last_site != site) {
        last = &counts[site];
        last_counts = &counts;
        last_site = site;
    }
    return last;
}

/* The distinct 32-byte sectors of the request [first, last). */
ORCU_EMU_HOT static unsigned long long request_sectors(const BankAccess *first, const BankAccess *last)
{
    uintptr_t sectors[128];
    int n = 0;
    for (const BankAccess *a = first; a != last; a++)
        for (uintptr_t sector = a->address / 32; sector <= (a->address + a->size - 1) / 32; sector++) {
            int k = 0;
            while (k < n && sectors[k] != sector)
                k++;
            if (k == n && n < 128)
                sectors[n++] = sector;
        }
    return (unsigned long long)n;
}

static void count_sectors()
{
    size_t requests, *starts;
    const BankAccess *grouped = group_requests(sector_log.data, sector_log.size, &requests, &starts);
    for (size_t r = 0; r < requests; r++) {
        const BankAccess &first = grouped[starts[r]];
        SiteCount *c = site_count(sector_counts, first.site);
        c->requests++;
        c->sectors += request_sectors(&first, grouped + starts[r + 1]);
        c->write = first.ways;
    }
    sector_log.size = 0;
}

static void print_memory_counts()
{
    unsigned long long requests[2] = {0, 0}, sectors[2] = {0, 0}, tile_requests = 0, tile_ways = 0;
    for (const auto &site : sector_counts) {
        requests[site.second.write] += site.second.requests;
        sectors[site.second.write] += site.second.sectors;
    }
    for (const auto &site : tile_counts) {
        tile_requests += site.second.requests;
        tile_ways += site.second.sectors;
    }
    fprintf(stderr, "orcu emulation memory: {\"load_requests\": %llu, \"load_sectors\": %llu, \"store_requests\": %llu, "
            "\"store_sectors\": %llu, \"global_sites\": %zu, \"shared_requests\": %llu, \"shared_wavefronts\": %llu, "
            "\"blocks\": %llu, \"threads\": %llu}\n", requests[0], sectors[0], requests[1], sectors[1], sector_counts.size(),
            tile_requests, tile_ways, counted_blocks, counted_threads);
}

/* The allocations the last accesses fell in: a kernel touches a few arrays, and none is
 * allocated or freed while it runs (launch() empties this before each counted launch). */
static struct { uintptr_t start, end; } recent_allocations[4];
static int recent_next = 0;

#ifdef ORCU_EMULATION_SECTORS
static const bool memory_counts_at_exit = atexit(print_memory_counts) == 0;

ORCU_EMU_HOT static void log_global(const void *site, const void *p, int size, bool write)
{
    if (!counting || !in_kernel || in_hook)
        return;
    if ((const char *)p >= current->stack && (const char *)p < current->stack + STACK)
        return;  /* the thread's locals: most accesses at -O0 */
    in_hook = true;
    const uintptr_t at = (uintptr_t)p;
    int k = 0;
    while (k < 4 && !(recent_allocations[k].start <= at && at < recent_allocations[k].end))
        k++;
    if (k == 4) {
        std::map<uintptr_t, Allocation> &table = allocations();
        std::map<uintptr_t, Allocation>::iterator it = table.upper_bound(at);
        if (it != table.begin() && at < (--it)->first + it->second.bytes + 1) {
            k = recent_next;
            recent_next = (recent_next + 1) % 4;
            recent_allocations[k].start = it->first;
            recent_allocations[k].end = it->first + it->second.bytes + 1;
        }
    }
    if (k < 4) {
        /* Allocations here end at a guard page, so they start 16-byte aligned; cudaMalloc's start on
         * 256 bytes: the sectors are counted as if this one did. */
        log_push(&sector_log, visit(site, size, write, at - recent_allocations[k].start % 256, NULL));  /* `ways`: whether it stores */
    }
    in_hook = false;
}
}  // namespace orcu_emu

extern "C" {
#define ORCU_HOOKS(n)                                                                                                        \
    __attribute__((no_sanitize_thread)) void __tsan_read##n(void *p) { orcu_emu::log_global(__builtin_return_address(0), p, n, false); }  \
    __attribute__((no_sanitize_thread)) void __tsan_write##n(void *p) { orcu_emu::log_global(__builtin_return_address(0), p, n, true); }  \
    __attribute__((no_sanitize_thread)) void __tsan_unaligned_read##n(void *p) { orcu_emu::log_global(__builtin_return_address(0), p, n, false); }  \
    __attribute__((no_sanitize_thread)) void __tsan_unaligned_write##n(void *p) { orcu_emu::log_global(__builtin_return_address(0), p, n, true); }
ORCU_HOOKS(1) ORCU_HOOKS(2) ORCU_HOOKS(4) ORCU_HOOKS(8) ORCU_HOOKS(16)
#undef ORCU_HOOKS
__attribute__((no_sanitize_thread)) void __tsan_init() {}
__attribute__((no_sanitize_thread)) void __tsan_func_entry(void *) {}
__attribute__((no_sanitize_thread)) void __tsan_func_exit(void *) {}
__attribute__((no_sanitize_thread)) void __tsan_vptr_update(void *, void *) {}
__attribute__((no_sanitize_thread)) void __tsan_read_range(void *, long) {}
__attribute__((no_sanitize_thread)) void __tsan_write_range(void *, long) {}
}

namespace orcu_emu {
#endif

static bool check_banks(char *why, size_t size)
{
    count_sectors();
    size_t requests, *starts;
    const BankAccess *grouped = group_requests(bank_log.data, bank_log.size, &requests, &starts);
    const BankAccess *worst = NULL;  /* the first request over its figure, in the order of BankAccess */
    int worst_ways = 0;
    for (size_t r = 0; r < requests; r++) {
        const BankAccess &first = grouped[starts[r]];
        unsigned long long wavefronts;
        const int ways = request_ways(&first, grouped + starts[r + 1], &wavefronts);
        if (counting) {
            SiteCount *c = site_count(tile_counts, first.site);
            c->requests++;
            c->sectors += wavefronts;
        }
        if (ways > first.ways && (worst == NULL || first < *worst)) {
            worst = &first;
            worst_ways = ways;
        }
    }
    if (worst != NULL)
        snprintf(why, size, "shared tile %s in block (%u,%u,%u): a request of warp %d puts %d words in one bank; "
                 "its declaration says at most %d", worst->tile, block_index.x, block_index.y, block_index.z,
                 worst->warp, worst_ways, worst->ways);
    bank_log.size = 0;
    for (Fiber &f : fibers)
        f.visit_n = 0;
    return worst == NULL;
}

template <typename A, bool last = std::rank<typename std::remove_extent<A>::type>::value == 0> struct tile_view;
template <typename A> struct tile_view<A, true> {
    A *a;
    int ways;
    const char *name;
    /* not inlined: its return address names the access in the kernel */
    __attribute__((noinline)) typename std::remove_extent<A>::type &operator[](long long i) const
    {
        typename std::remove_extent<A>::type &element = (*a)[i];
        if (banks_on)
            log_bank(__builtin_return_address(0), &element, (int)sizeof element, ways, name);
        return element;
    }
};
template <typename A> struct tile_view<A, false> {
    A *a;
    int ways;
    const char *name;
    __attribute__((always_inline)) inline tile_view<typename std::remove_extent<A>::type> operator[](long long i) const
    {
        return tile_view<typename std::remove_extent<A>::type>{&(*a)[i], ways, name};
    }
};
template <typename A> struct tile {
    alignas(16) A data;
    int ways;
    const char *name;
    tile(const char *name_, int ways_) : ways(ways_), name(name_) {}
    __attribute__((always_inline)) inline decltype(auto) operator[](long long i)
    {
        return tile_view<A>{&data, ways, name}[i];
    }
};
/* A vector of the tile's consecutive elements at `p` (ORCU_TILE_VECTOR): one logged access of
 * the vector's size. Not inlined: its return address names the access in the kernel. */
template <typename V, typename A> __attribute__((noinline)) V tile_vector(const tile<A> &t, const void *p)
{
    if (banks_on)
        log_bank(__builtin_return_address(0), p, (int)sizeof(V), t.ways, t.name);
    return *(const V *)p;
}

/* Runs one block; false (with the reason in `why`) when its threads cannot all finish. */
static bool run_block(int threads, char *why, size_t size)
{
    bank_log.size = 0;
    for (Fiber &f : fibers)
        f.visit_n = 0;
    if ((int)fibers.size() < threads)
        fibers.resize(threads);
    for (int t = 0; t < threads; t++) {
        Fiber &f = fibers[t];
        if (f.stack == NULL) {
            f.stack = (char *)mmap(NULL, STACK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (f.stack == MAP_FAILED) {
                perror("orcu emulation: mmap");
                exit(EXIT_FAILURE);
            }
        }
        context_start(&f.context, f.stack, STACK, fiber_main);
        f.state = RUNNABLE;
        f.linear = t;
        f.index.x = t % block_dim.x;
        f.index.y = t / block_dim.x % block_dim.y;
        f.index.z = t / (block_dim.x * block_dim.y);
    }
    for (;;) {
        bool ran = false;
        for (int t = 0; t < threads; t++) {
            if (fibers[t].state != RUNNABLE)
                continue;
            current = &fibers[t];
            in_kernel = true;
            context_switch(&scheduler, &current->context);
            in_kernel = false;
            ran = true;
        }
        if (ran)
            continue;
        int done = 0, barrier = 0;
        for (int t = 0; t < threads; t++) {
            done += fibers[t].state == DONE;
            barrier += fibers[t].state == AT_BARRIER;
        }
        if (done == threads)
            return check_banks(why, size);
        bool progress = false;
        if (!settle_warps(threads, &progress, why, size))
            return false;
        if (progress)
            continue;
        if (barrier == threads - done && done == 0) {
            if (!check_banks(why, size))
                return false;
            for (int t = 0; t < threads; t++)
                fibers[t].state = RUNNABLE;
            continue;
        }
        if (barrier > 0) {
            int missing = -1;
            for (int t = 0; t < threads && missing < 0; t++)
                if (fibers[t].state != AT_BARRIER)
                    missing = t;
            snprintf(why, size, "__syncthreads() in block (%u,%u,%u): %d of %d threads wait there, thread %d never arrives (%s)",
                     block_index.x, block_index.y, block_index.z, barrier, threads, missing,
                     fibers[missing].state == DONE ? "it has exited" : "it waits at a warp operation");
            return false;
        }
        snprintf(why, size, "threads of block (%u,%u,%u) wait at warp operations that can never complete",
                 block_index.x, block_index.y, block_index.z);
        return false;
    }
}

static unsigned long long seed_from_environment()
{
    const char *text = getenv("ORCU_EMULATION_SEED");
    return text != NULL ? strtoull(text, NULL, 10) : 0;
}

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

static double now_ms()
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

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

/* Fibers switch only at barriers and warp operations, so an atomic is a plain update. */
template <typename T> static inline T atomicAdd(T *p, T v) { T old = *p; *p = old + v; return old; }
template <typename T> static inline T atomicSub(T *p, T v) { T old = *p; *p = old - v; return old; }
template <typename T> static inline T atomicMin(T *p, T v) { T old = *p; *p = v < old ? v : old; return old; }
template <typename T> static inline T atomicMax(T *p, T v) { T old = *p; *p = v > old ? v : old; return old; }
template <typename T> static inline T atomicExch(T *p, T v) { T old = *p; *p = v; return old; }
template <typename T> static inline T atomicCAS(T *p, T compare, T v) { T old = *p; if (old == compare) *p = v; return old; }

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
static inline const char *cudaGetErrorString(cudaError_t err)
{
    switch (err) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorInvalidDevicePointer: return "invalid device pointer";
    case cudaErrorLaunchFailure: return "unspecified launch failure";
    case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
    case cudaErrorHostMemoryAlreadyRegistered: return "part or all of the requested memory range is already mapped";
    case cudaErrorHostMemoryNotRegistered: return "pointer does not correspond to a registered memory region";
    }
    return "unknown error";
}
static inline cudaError_t cudaGetLastError() { cudaError_t e = orcu_emu::last; orcu_emu::last = orcu_emu::sticky; return e; }
static inline cudaError_t cudaPeekAtLastError() { return orcu_emu::last; }
static inline cudaError_t cudaDeviceSynchronize() { orcu_emu::legacy_sync(); return orcu_emu::sticky; }
static inline cudaError_t cudaStreamSynchronize(cudaStream_t s)
{
    if (s == NULL)
        orcu_emu::legacy_sync();
    return orcu_emu::sticky;
}

static inline cudaError_t cudaMalloc(void **p, size_t bytes)
{
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    const size_t rounded = (bytes + 15) & ~(size_t)15;
    const size_t data_pages = (rounded + page - 1) / page;
    const size_t mapped = (data_pages + 1) * page;
    char *base = (char *)mmap(NULL, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED)
        return orcu_emu::fail(cudaErrorMemoryAllocation, "cudaMalloc: out of memory");
    mprotect(base + data_pages * page, page, PROT_NONE);
    char *start = base + data_pages * page - rounded;
    memset(start, 0xa5, rounded);  /* device memory starts as garbage, never as zeros */
    orcu_emu::Allocation a = {base, mapped, bytes};
    orcu_emu::allocations()[(uintptr_t)start] = a;
    orcu_emu::counters.device_allocations++;
    *p = start;
    return cudaSuccess;
}
template <typename T> static inline cudaError_t cudaMalloc(T **p, size_t bytes) { return cudaMalloc((void **)p, bytes); }
static inline cudaError_t cudaFree(void *p)
{
    if (p == NULL)
        return cudaSuccess;
    std::map<uintptr_t, orcu_emu::Allocation>::iterator it = orcu_emu::allocations().find((uintptr_t)p);
    if (it == orcu_emu::allocations().end())
        return orcu_emu::fail(cudaErrorInvalidDevicePointer, "cudaFree of a pointer cudaMalloc did not return");
    const orcu_emu::Allocation a = it->second;
    orcu_emu::check_padding();
    munmap(a.base, a.mapped);
    orcu_emu::allocations().erase(it);
    return orcu_emu::sticky;
}
static inline bool orcu_emu_pageable(const void *p)
{
    uintptr_t start;
    return orcu_emu::find_allocation(p) == NULL && orcu_emu::find_pinned(p, &start) == NULL;
}
static inline cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, cudaMemcpyKind, cudaStream_t stream = 0)
{
    if (orcu_emu::sticky != cudaSuccess)
        return orcu_emu::sticky;
    if (!orcu_emu::ordered_after_default_stream(stream, "a copy"))
        return orcu_emu::last;
    if (stream == NULL)
        orcu_emu::legacy_work();
    if (orcu_emu::find_allocation(dst) != NULL && orcu_emu::find_allocation(src) == NULL) {
        orcu_emu::counters.copies_to_device++;
        orcu_emu::counters.bytes_to_device += bytes;
    } else if (orcu_emu::find_allocation(src) != NULL && orcu_emu::find_allocation(dst) == NULL) {
        orcu_emu::counters.copies_to_host++;
        orcu_emu::counters.bytes_to_host += bytes;
    }
    if (bytes)
        memmove(dst, src, bytes);
    return cudaSuccess;
}
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
static inline cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind)
{
    /* From pageable memory to the device, cudaMemcpy returns once the data is staged: the copy
     * to the device may still run. Every other copy returns when it is done. */
    const cudaError_t err = cudaMemcpyAsync(dst, src, bytes, kind, 0);
    if (!(orcu_emu_pageable(src) && !orcu_emu_pageable(dst)))
        orcu_emu::legacy_sync();
    return err;
}
static inline cudaError_t cudaMemset(void *p, int value, size_t bytes) { memset(p, value, bytes); return orcu_emu::sticky; }
/* Pinned allocations get pages of their own, as on a GPU: no user array shares them. */
static inline cudaError_t cudaHostAlloc(void **p, size_t bytes, unsigned)
{
    const size_t mapped = orcu_emu::page_up(bytes ? bytes : 1);
    *p = mmap(NULL, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (*p == MAP_FAILED) {
        *p = NULL;
        return orcu_emu::quiet_error(cudaErrorMemoryAllocation);
    }
    orcu_emu::Pinned pin = {mapped, false};
    orcu_emu::pinned()[(uintptr_t)*p] = pin;
    orcu_emu::counters.pinned_allocations++;
    return cudaSuccess;
}
static inline cudaError_t cudaMallocHost(void **p, size_t bytes) { return cudaHostAlloc(p, bytes, cudaHostAllocDefault); }
template <typename T> static inline cudaError_t cudaMallocHost(T **p, size_t bytes) { return cudaMallocHost((void **)p, bytes); }
static inline cudaError_t cudaFreeHost(void *p)
{
    std::map<uintptr_t, orcu_emu::Pinned>::iterator it = orcu_emu::pinned().find((uintptr_t)p);
    if (p == NULL)
        return cudaSuccess;
    if (it == orcu_emu::pinned().end() || it->second.registered)
        return orcu_emu::fail(cudaErrorInvalidValue, "cudaFreeHost of a pointer cudaMallocHost did not return");
    munmap(p, it->second.bytes);
    orcu_emu::pinned().erase(it);
    return cudaSuccess;
}
static inline cudaError_t cudaHostGetDevicePointer(void **device, void *host, unsigned)
{
    uintptr_t start;
    if (orcu_emu::find_pinned(host, &start) == NULL)
        return orcu_emu::quiet_error(cudaErrorInvalidValue);
    *device = host;
    return cudaSuccess;
}
/* Pins the pages [p, p + bytes) lies on; a page pinned already (by another range) makes it fail. */
static inline cudaError_t cudaHostRegister(void *p, size_t bytes, unsigned)
{
    if (p == NULL || bytes == 0)
        return orcu_emu::quiet_error(cudaErrorInvalidValue);
    const uintptr_t first = orcu_emu::page_down((uintptr_t)p), end = orcu_emu::page_up((uintptr_t)p + bytes);
    for (std::map<uintptr_t, orcu_emu::Pinned>::iterator it = orcu_emu::pinned().begin(); it != orcu_emu::pinned().end(); ++it)
        if (orcu_emu::page_down(it->first) < end && first < orcu_emu::page_up(it->first + it->second.bytes))
            return orcu_emu::quiet_error(cudaErrorHostMemoryAlreadyRegistered);
    orcu_emu::Pinned pin = {bytes, true};
    orcu_emu::pinned()[(uintptr_t)p] = pin;
    orcu_emu::counters.registrations++;
    return cudaSuccess;
}
static inline cudaError_t cudaHostUnregister(void *p)
{
    std::map<uintptr_t, orcu_emu::Pinned>::iterator it = orcu_emu::pinned().find((uintptr_t)p);
    if (it == orcu_emu::pinned().end() || !it->second.registered)
        return orcu_emu::quiet_error(cudaErrorHostMemoryNotRegistered);
    orcu_emu::pinned().erase(it);
    return cudaSuccess;
}
static inline cudaError_t cudaPointerGetAttributes(cudaPointerAttributes *a, const void *p)
{
    uintptr_t start;
    a->type = orcu_emu::find_allocation(p) ? cudaMemoryTypeDevice
            : orcu_emu::find_pinned(p, &start) ? cudaMemoryTypeHost : cudaMemoryTypeUnregistered;
    a->device = 0;
    a->devicePointer = a->hostPointer = (void *)p;
    return cudaSuccess;
}

static inline cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags)
{
    static int next = 0;
    *s = new orcu_emu_stream();
    (*s)->id = ++next;
    (*s)->flags = flags;
    (*s)->seen = 0;  /* work the default stream had before is not ordered before this stream's either */
    orcu_emu::counters.streams_created++;
    return cudaSuccess;
}
static inline cudaError_t cudaStreamCreate(cudaStream_t *s) { return cudaStreamCreateWithFlags(s, 0); }
static inline cudaError_t cudaStreamDestroy(cudaStream_t s) { delete s; return cudaSuccess; }
static inline cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned)
{
    *e = new orcu_emu_event();
    (*e)->ms = 0;
    (*e)->epoch = 0;
    orcu_emu::counters.events_created++;
    return cudaSuccess;
}
static inline cudaError_t cudaEventCreate(cudaEvent_t *e) { return cudaEventCreateWithFlags(e, cudaEventDefault); }
static inline cudaError_t cudaEventDestroy(cudaEvent_t e) { delete e; return cudaSuccess; }
/* An event recorded on the default stream marks its work so far; a stream that waits for it is ordered after that work. */
static inline cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s = 0)
{
    e->ms = orcu_emu::now_ms();
    e->epoch = s == NULL ? orcu_emu::legacy_epoch : s->seen;
    return cudaSuccess;
}
static inline cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned = 0)
{
    if (s != NULL && e->epoch > s->seen)
        s->seen = e->epoch;
    return cudaSuccess;
}
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
static inline cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int)
{
    switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = ORCU_EMULATION_MAX_THREADS; break;
    case cudaDevAttrMaxGridDimX: *value = 2147483647; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = ORCU_EMULATION_SHARED_PER_BLOCK; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = ORCU_EMULATION_SHARED_OPTIN; break;
    case cudaDevAttrMultiProcessorCount: *value = ORCU_EMULATION_SMS; break;
    case cudaDevAttrComputeCapabilityMajor: *value = ORCU_EMULATION_CC / 10; break;
    case cudaDevAttrComputeCapabilityMinor: *value = ORCU_EMULATION_CC % 10; break;
    }
    return cudaSuccess;
}

#endif
