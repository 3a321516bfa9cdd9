#include "syr2k_kernel.hu"
__global__ void kernel0(double *A, double *B, double *C, double alpha, double beta, int n, int m)
{
    int b0 = blockIdx.y, b1 = blockIdx.x;
    int t0 = threadIdx.y, t1 = threadIdx.x;
    __shared__ double shared_A_0[16][16];
    __shared__ double shared_A_1[16][16];
    __shared__ double shared_B_0[16][16];
    __shared__ double shared_B_1[16][16];
    double private_C[1][1];

    #define ppcg_min(x,y)    ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x < _y ? _x : _y; })
    for (int c0 = -(16 * ((-b0 + b1 + 255) % 256)) + 16 * b1 + 4080; c0 < n; c0 += 4096) {
      if (n >= t0 + c0 + 1 && t0 + c0 >= 16 * b1 + t1)
        private_C[0][0] = C[(t0 + c0) * 1200 + (16 * b1 + t1)];
      for (int c2 = 0; c2 < m; c2 += 16) {
        if (n >= 16 * b1 + t0 + 1 && t1 + c2 <= 999) {
          shared_A_0[t0][t1] = A[(16 * b1 + t0) * 1000 + (t1 + c2)];
          if (n >= t0 + c0 + 1) {
            shared_A_1[t0][t1] = A[(t0 + c0) * 1000 + (t1 + c2)];
            shared_B_0[t0][t1] = B[(t0 + c0) * 1000 + (t1 + c2)];
          }
          shared_B_1[t0][t1] = B[(16 * b1 + t0) * 1000 + (t1 + c2)];
        }
        __syncthreads();
        if (n >= t0 + c0 + 1 && t0 + c0 >= 16 * b1 + t1 && c2 == 0)
          private_C[0][0] *= beta;
        if (n >= t0 + c0 + 1 && t0 + c0 >= 16 * b1 + t1)
          for (int c5 = 0; c5 <= ppcg_min(15, m - c2 - 1); c5 += 1)
            private_C[0][0] += (((shared_A_0[t1][c5] * alpha) * shared_B_0[t0][c5]) + ((shared_B_1[t1][c5] * alpha) * shared_A_1[t0][c5]));
        __syncthreads();
      }
      if (m <= 0) {
        __syncthreads();
        if (n >= t0 + c0 + 1 && t0 + c0 >= 16 * b1 + t1)
          private_C[0][0] *= beta;
        __syncthreads();
      }
      if (n >= t0 + c0 + 1 && t0 + c0 >= 16 * b1 + t1)
        C[(t0 + c0) * 1200 + (16 * b1 + t1)] = private_C[0][0];
      __syncthreads();
    }
}
