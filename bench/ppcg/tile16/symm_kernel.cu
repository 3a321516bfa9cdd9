#include "symm_kernel.hu"
__global__ void kernel0(double *A, double *B, double *C, double alpha, double beta, int m, int n)
{
    int b0 = blockIdx.y, b1 = blockIdx.x;
    int t0 = threadIdx.y, t1 = threadIdx.x;
    __shared__ double shared_A_1[16][16];
    double private_temp2;

    for (int c0 = 16 * b0; c0 < m; c0 += 4096) {
      if (m >= 16 * b0 + t0 + 1 && 16 * b0 + t1 <= 999 && c0 == 16 * b0)
        shared_A_1[t0][t1] = A[(16 * b0 + t0) * 1000 + (16 * b0 + t1)];
      __syncthreads();
      if (n >= 16 * b1 + t1 + 1 && m >= t0 + c0 + 1) {
        private_temp2 = 0;
        if (m >= 2)
          for (int c4 = 0; c4 < t0 + c0; c4 += 1)
            private_temp2 += (B[c4 * 1200 + (16 * b1 + t1)] * A[(t0 + c0) * 1000 + c4]);
        C[(t0 + c0) * 1200 + (16 * b1 + t1)] = (((beta * C[(t0 + c0) * 1200 + (16 * b1 + t1)]) + ((alpha * B[(t0 + c0) * 1200 + (16 * b1 + t1)]) * shared_A_1[t0][t0])) + (alpha * private_temp2));
      }
      __syncthreads();
    }
}
__global__ void kernel1(double *A, double *B, double *C, double alpha, int m, int n)
{
    int b0 = blockIdx.y, b1 = blockIdx.x;
    int t0 = threadIdx.y, t1 = threadIdx.x;
    __shared__ double shared_A[16][16];
    __shared__ double shared_B[16][16];
    double private_C[1][1];

    #define ppcg_min(x,y)    ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x < _y ? _x : _y; })
    #define ppcg_max(x,y)    ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x > _y ? _x : _y; })
    for (int c1 = 16 * b1; c1 < m - 1; c1 += 4096) {
      if (n >= 16 * b0 + t0 + 1 && m >= t1 + c1 + 2)
        private_C[0][0] = C[(t1 + c1) * 1200 + (16 * b0 + t0)];
      for (int c2 = c1; c2 < m - 1; c2 += 16) {
        if (16 * b1 + t1 <= 999 && c1 == 16 * b1 && m >= t0 + c2 + 2)
          shared_A[t0][t1] = A[(t0 + c2 + 1) * 1000 + (16 * b1 + t1)];
        if (m >= t0 + c2 + 2)
          shared_B[t0][t1] = B[(t0 + c2 + 1) * 1200 + (16 * b0 + t1)];
        __syncthreads();
        if (n >= 16 * b0 + t0 + 1)
          for (int c5 = ppcg_max(0, t1 + c1 - c2); c5 <= ppcg_min(15, m - c2 - 2); c5 += 1)
            private_C[0][0] += ((alpha * shared_B[c5][t0]) * shared_A[c5][t1]);
        __syncthreads();
      }
      if (n >= 16 * b0 + t0 + 1 && m >= t1 + c1 + 2)
        C[(t1 + c1) * 1200 + (16 * b0 + t0)] = private_C[0][0];
      __syncthreads();
    }
}
