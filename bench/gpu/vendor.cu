// The vendor's side of bench/gpu_all.py's comparisons: cuBLAS, cuSPARSE and the device's own
// copy, timed as orcu's harness times a variant (CUDA events around the calls, data already on
// the device, one warm-up, the median of the timed calls).
//
//     vendor CASE SIZE...    prints one JSON object: {"case", "sizes", "ms", "gb_per_s"?, "gflops"?}
//
// Cases (row-major operands, as the annotated examples hold them):
//   copy N            cudaMemcpy device to device of N doubles (bytes read and written count)
//   daxpy N | sdot N | dnrm2 N | sscal N
//   csr_spmv M        y += A x, A the 5-point DIA matrix of annotated_examples/spmv_dia.c on an
//                     M x M grid (offsets -M, -1, 0, 1, M), held in CSR for cuSPARSE
//   dgemv N M | dgemv_t N M       y = A x and y = A^T x, A n x m (doubles, as gemv.c, gemv_t.c)
//   sgemm N | dgemm N             C = alpha A B + beta C, n x n
//   sgemm_tf32 N                  sgemm with cuBLAS's TF32 tensor-core math (CUBLAS_TF32_TENSOR_OP_MATH)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusparse.h>

#define CHECK_CUDA(call)                                                                        \
    do {                                                                                        \
        cudaError_t e_ = (call);                                                                \
        if (e_ != cudaSuccess) {                                                                \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
            exit(1);                                                                            \
        }                                                                                       \
    } while (0)
#define CHECK_BLAS(call)                                                                        \
    do {                                                                                        \
        cublasStatus_t s_ = (call);                                                             \
        if (s_ != CUBLAS_STATUS_SUCCESS) {                                                      \
            fprintf(stderr, "%s:%d: %s: cuBLAS status %d\n", __FILE__, __LINE__, #call, (int)s_);  \
            exit(1);                                                                            \
        }                                                                                       \
    } while (0)
#define CHECK_SPARSE(call)                                                                      \
    do {                                                                                        \
        cusparseStatus_t s_ = (call);                                                           \
        if (s_ != CUSPARSE_STATUS_SUCCESS) {                                                    \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cusparseGetErrorString(s_)); \
            exit(1);                                                                            \
        }                                                                                       \
    } while (0)

static const int REPETITIONS = 20;

// Random values in [-1, 1) on the device: the operands' values do not change the time.
template <typename T>
static T *filled(size_t count)
{
    std::vector<T> host(count);
    unsigned state = 12345u;
    for (size_t k = 0; k < count; k++) {
        state = state * 1664525u + 1013904223u;
        host[k] = (T)((state >> 8) * (2.0 / 16777216.0) - 1.0);
    }
    T *device = nullptr;
    CHECK_CUDA(cudaMalloc(&device, count * sizeof(T) + 1));
    CHECK_CUDA(cudaMemcpy(device, host.data(), count * sizeof(T), cudaMemcpyHostToDevice));
    return device;
}

// The median time of one call of `body`, after one warm-up.
template <typename F>
static double timed(F body)
{
    cudaEvent_t start, stop;
    CHECK_CUDA(cudaEventCreate(&start));
    CHECK_CUDA(cudaEventCreate(&stop));
    body();
    CHECK_CUDA(cudaDeviceSynchronize());
    std::vector<float> samples;
    for (int r = 0; r < REPETITIONS; r++) {
        CHECK_CUDA(cudaEventRecord(start));
        body();
        CHECK_CUDA(cudaEventRecord(stop));
        CHECK_CUDA(cudaEventSynchronize(stop));
        float ms = 0.0f;
        CHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));
        samples.push_back(ms);
    }
    std::sort(samples.begin(), samples.end());
    CHECK_CUDA(cudaEventDestroy(start));
    CHECK_CUDA(cudaEventDestroy(stop));
    return samples[samples.size() / 2];
}

static void report(const char *name, const long *sizes, int count, double ms, double bytes, double flops)
{
    printf("{\"case\": \"%s\", \"sizes\": [", name);
    for (int k = 0; k < count; k++)
        printf("%s%ld", k ? ", " : "", sizes[k]);
    printf("], \"ms\": %.6f", ms);
    if (bytes > 0)
        printf(", \"gb_per_s\": %.1f", bytes / ms / 1e6);
    if (flops > 0)
        printf(", \"gflops\": %.1f", flops / ms / 1e6);
    printf("}\n");
}

// The 5-point matrix of spmv_dia.c's offsets {-m, -1, 0, 1, m} on an m x m grid, in CSR: every
// entry whose column lies inside the matrix, as the DIA kernel reads them.
static double csr_spmv(cusparseHandle_t sparse, long m)
{
    const long rows = m * m;
    const long offsets[5] = {-m, -1, 0, 1, m};
    std::vector<int> starts(rows + 1, 0), columns;
    columns.reserve(rows * 5);
    for (long i = 0; i < rows; i++) {
        for (long offset : offsets) {
            const long col = i + offset;
            if (col >= 0 && col < rows)
                columns.push_back((int)col);
        }
        starts[i + 1] = (int)columns.size();
    }
    const long nnz = (long)columns.size();
    int *d_starts = nullptr, *d_columns = nullptr;
    CHECK_CUDA(cudaMalloc(&d_starts, starts.size() * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&d_columns, columns.size() * sizeof(int)));
    CHECK_CUDA(cudaMemcpy(d_starts, starts.data(), starts.size() * sizeof(int), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(d_columns, columns.data(), columns.size() * sizeof(int), cudaMemcpyHostToDevice));
    double *values = filled<double>(nnz), *x = filled<double>(rows), *y = filled<double>(rows);
    cusparseSpMatDescr_t a;
    cusparseDnVecDescr_t vx, vy;
    CHECK_SPARSE(cusparseCreateCsr(&a, rows, rows, nnz, d_starts, d_columns, values, CUSPARSE_INDEX_32I,
                                   CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
    CHECK_SPARSE(cusparseCreateDnVec(&vx, rows, x, CUDA_R_64F));
    CHECK_SPARSE(cusparseCreateDnVec(&vy, rows, y, CUDA_R_64F));
    const double one = 1.0;
    size_t size = 0;
    CHECK_SPARSE(cusparseSpMV_bufferSize(sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, a, vx, &one, vy, CUDA_R_64F,
                                         CUSPARSE_SPMV_ALG_DEFAULT, &size));
    void *buffer = nullptr;
    CHECK_CUDA(cudaMalloc(&buffer, size + 1));
    const double ms = timed([&] {
        CHECK_SPARSE(cusparseSpMV(sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, a, vx, &one, vy, CUDA_R_64F,
                                  CUSPARSE_SPMV_ALG_DEFAULT, buffer));
    });
    CHECK_SPARSE(cusparseDestroySpMat(a));
    CHECK_SPARSE(cusparseDestroyDnVec(vx));
    CHECK_SPARSE(cusparseDestroyDnVec(vy));
    CHECK_CUDA(cudaFree(buffer));
    CHECK_CUDA(cudaFree(d_starts));
    CHECK_CUDA(cudaFree(d_columns));
    CHECK_CUDA(cudaFree(values));
    CHECK_CUDA(cudaFree(x));
    CHECK_CUDA(cudaFree(y));
    return ms;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s CASE SIZE...\n", argv[0]);
        return 2;
    }
    const char *name = argv[1];
    long sizes[2] = {atol(argv[2]), argc > 3 ? atol(argv[3]) : atol(argv[2])};
    const long n = sizes[0], m = sizes[1];
    cublasHandle_t blas;
    CHECK_BLAS(cublasCreate(&blas));
    // results of reductions stay on the device, as orcu's do until the host function copies them
    CHECK_BLAS(cublasSetPointerMode(blas, CUBLAS_POINTER_MODE_DEVICE));
    double *d_scalars = filled<double>(4);
    float *s_scalars = filled<float>(4);
    if (!strcmp(name, "copy")) {
        double *a = filled<double>(n), *b = filled<double>(n);
        const double ms = timed([&] { CHECK_CUDA(cudaMemcpy(b, a, n * sizeof(double), cudaMemcpyDeviceToDevice)); });
        report(name, sizes, 1, ms, 2.0 * 8 * n, 0);
    } else if (!strcmp(name, "daxpy")) {
        double *x = filled<double>(n), *y = filled<double>(n);
        const double ms = timed([&] { CHECK_BLAS(cublasDaxpy(blas, (int)n, d_scalars, x, 1, y, 1)); });
        report(name, sizes, 1, ms, 3.0 * 8 * n, 2.0 * n);
    } else if (!strcmp(name, "sdot")) {
        float *x = filled<float>(n), *y = filled<float>(n);
        const double ms = timed([&] { CHECK_BLAS(cublasSdot(blas, (int)n, x, 1, y, 1, s_scalars)); });
        report(name, sizes, 1, ms, 2.0 * 4 * n, 2.0 * n);
    } else if (!strcmp(name, "dnrm2")) {
        double *x = filled<double>(n);
        const double ms = timed([&] { CHECK_BLAS(cublasDnrm2(blas, (int)n, x, 1, d_scalars)); });
        report(name, sizes, 1, ms, 8.0 * n, 2.0 * n);
    } else if (!strcmp(name, "sscal")) {
        float *x = filled<float>(n);
        const double ms = timed([&] { CHECK_BLAS(cublasSscal(blas, (int)n, s_scalars, x, 1)); });
        report(name, sizes, 1, ms, 2.0 * 4 * n, 1.0 * n);
    } else if (!strcmp(name, "csr_spmv")) {
        cusparseHandle_t sparse;
        CHECK_SPARSE(cusparseCreate(&sparse));
        report(name, sizes, 1, csr_spmv(sparse, n), 8.0 * (5 * n * n + 3 * n * n) + 4.0 * (6 * n * n), 2.0 * 5 * n * n);
        CHECK_SPARSE(cusparseDestroy(sparse));
    } else if (!strcmp(name, "dgemv") || !strcmp(name, "dgemv_t")) {
        // Row-major A (n x m) is column-major A^T (m x n): y = A x is op T on it, y = A^T x op N.
        const bool transposed = !strcmp(name, "dgemv_t");
        double *a = filled<double>(n * m), *x = filled<double>(std::max(n, m)), *y = filled<double>(std::max(n, m));
        CHECK_BLAS(cublasSetPointerMode(blas, CUBLAS_POINTER_MODE_HOST));
        const double one = 1.0, zero = 0.0;
        const double ms = timed([&] {
            CHECK_BLAS(cublasDgemv(blas, transposed ? CUBLAS_OP_N : CUBLAS_OP_T, (int)m, (int)n, &one, a, (int)m, x, 1,
                                   &zero, y, 1));
        });
        report(name, sizes, 2, ms, 8.0 * (n * m + n + m), 2.0 * n * m);
    } else if (!strcmp(name, "sgemm") || !strcmp(name, "sgemm_tf32") || !strcmp(name, "dgemm")) {
        // Row-major C = A B is column-major C^T = B^T A^T: the operands swap, no transposes.
        CHECK_BLAS(cublasSetPointerMode(blas, CUBLAS_POINTER_MODE_HOST));
        if (!strcmp(name, "sgemm_tf32"))
            CHECK_BLAS(cublasSetMathMode(blas, CUBLAS_TF32_TENSOR_OP_MATH));
        const bool single = strcmp(name, "dgemm") != 0;
        const size_t count = (size_t)n * n;
        double ms;
        if (single) {
            float *a = filled<float>(count), *b = filled<float>(count), *c = filled<float>(count);
            const float alpha = 1.5f, beta = 0.5f;
            ms = timed([&] {
                CHECK_BLAS(cublasSgemm(blas, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)n, (int)n, &alpha, b, (int)n, a, (int)n,
                                       &beta, c, (int)n));
            });
        } else {
            double *a = filled<double>(count), *b = filled<double>(count), *c = filled<double>(count);
            const double alpha = 1.5, beta = 0.5;
            ms = timed([&] {
                CHECK_BLAS(cublasDgemm(blas, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)n, (int)n, &alpha, b, (int)n, a, (int)n,
                                       &beta, c, (int)n));
            });
        }
        report(name, sizes, 1, ms, 0, 2.0 * n * n * n);
    } else {
        fprintf(stderr, "unknown case %s\n", name);
        return 2;
    }
    CHECK_BLAS(cublasDestroy(blas));
    return 0;
}
