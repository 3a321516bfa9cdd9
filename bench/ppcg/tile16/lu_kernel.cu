#include "lu_kernel.hu"
__global__ void kernel0(double *A, int n, int c0)
{
    int b0 = blockIdx.x;
    int t0 = threadIdx.x;
    __shared__ double shared_A_1[1][1];

    {
      if (t0 == 0)
        shared_A_1[0][0] = A[c0 * 2000 + c0];
      __syncthreads();
      for (int c1 = -((-16 * b0 + c0 + 524272) % 524288) + c0 + 524272; c1 < n - 1; c1 += 524288)
        if (n >= t0 + c1 + 2 && t0 + c1 >= c0)
          A[(t0 + c1 + 1) * 2000 + c0] /= shared_A_1[0][0];
    }
}
__global__ void kernel1(double *A, int n, int c0)
{
    int b0 = blockIdx.y, b1 = blockIdx.x;
    int t0 = threadIdx.y, t1 = threadIdx.x;
    __shared__ double shared_A_1[16][1];
    __shared__ double shared_A_2[1][16];

    {
      if (n >= 16 * b0 + t0 + 2 && t1 == 0)
        shared_A_1[t0][0] = A[(16 * b0 + t0 + 1) * 2000 + c0];
      if (t0 == 0 && 16 * b1 + t1 <= 1998)
        shared_A_2[0][t1] = A[c0 * 2000 + (16 * b1 + t1 + 1)];
      __syncthreads();
      if (n >= 16 * b1 + t1 + 2 && 16 * b1 + t1 >= 16 * b0 + t0 && 16 * b1 + t1 <= 1998 && 16 * b0 + t0 >= c0)
        A[(16 * b0 + t0 + 1) * 2000 + (16 * b1 + t1 + 1)] -= (shared_A_1[t0][0] * shared_A_2[0][t1]);
    }
}
__global__ void kernel2(double *A, int n, int c0)
{
    int b0 = blockIdx.y, b1 = blockIdx.x;
    int t0 = threadIdx.y, t1 = threadIdx.x;
    __shared__ double shared_A_1[16][1];
    __shared__ double shared_A_2[1][16];

    {
      if (t0 == 0 && 16 * b1 + t1 <= 1998)
        shared_A_2[0][t1] = A[c0 * 2000 + (16 * b1 + t1 + 1)];
      if (16 * b1 + 15 >= c0)
        for (int c1 = 16 * ((b0 - b1 + 256) % 256) + 16 * b1; c1 < n - 2; c1 += 4096) {
          if (t1 == 0 && n >= t0 + c1 + 3)
            shared_A_1[t0][0] = A[(t0 + c1 + 2) * 2000 + c0];
          __syncthreads();
          if (16 * b1 + t1 <= 1998 && 16 * b1 + t1 >= c0 && n >= t0 + c1 + 3 && t0 + c1 >= 16 * b1 + t1)
            A[(t0 + c1 + 2) * 2000 + (16 * b1 + t1 + 1)] -= (shared_A_1[t0][0] * shared_A_2[0][t1]);
          __syncthreads();
        }
    }
}
