#include "jacobi-2d_kernel.hu"
__global__ void kernel0(double *A, double *B, int tsteps, int n, int c0)
{
    int b0 = blockIdx.y, b1 = blockIdx.x;
    int t0 = threadIdx.y, t1 = threadIdx.x;

    if (n >= 16 * b1 + t1 + 3 && 16 * b1 + t1 <= 1298)
      for (int c1 = 16 * b0; c1 < n - 2; c1 += 4096)
        if (n >= t0 + c1 + 3)
          B[(t0 + c1 + 1) * 1300 + (16 * b1 + t1 + 1)] = (0.20000000000000001 * ((((A[(t0 + c1 + 1) * 1300 + (16 * b1 + t1 + 1)] + A[(t0 + c1 + 1) * 1300 + (16 * b1 + t1)]) + A[(t0 + c1 + 1) * 1300 + (16 * b1 + t1 + 2)]) + A[(t0 + c1 + 2) * 1300 + (16 * b1 + t1 + 1)]) + A[(t0 + c1) * 1300 + (16 * b1 + t1 + 1)]));
}
__global__ void kernel1(double *A, double *B, int tsteps, int n, int c0)
{
    int b0 = blockIdx.y, b1 = blockIdx.x;
    int t0 = threadIdx.y, t1 = threadIdx.x;

    if (n >= 16 * b1 + t1 + 3 && 16 * b1 + t1 <= 1298)
      for (int c1 = 16 * b0; c1 < n - 2; c1 += 4096)
        if (n >= t0 + c1 + 3)
          A[(t0 + c1 + 1) * 1300 + (16 * b1 + t1 + 1)] = (0.20000000000000001 * ((((B[(t0 + c1 + 1) * 1300 + (16 * b1 + t1 + 1)] + B[(t0 + c1 + 1) * 1300 + (16 * b1 + t1)]) + B[(t0 + c1 + 1) * 1300 + (16 * b1 + t1 + 2)]) + B[(t0 + c1 + 2) * 1300 + (16 * b1 + t1 + 1)]) + B[(t0 + c1) * 1300 + (16 * b1 + t1 + 1)]));
}
