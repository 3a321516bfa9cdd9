#include "gesummv_kernel.hu"
__global__ void kernel0(double *A, double *B, double alpha, double beta, double *tmp, double *x, double *y, int n)
{
    int b0 = blockIdx.x;
    int t0 = threadIdx.x;
    __shared__ double shared_A[16][16];
    __shared__ double shared_B[16][16];
    double private_tmp[1];
    __shared__ double shared_x[16];
    double private_y[1];

    #define ppcg_min(x,y)    ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x < _y ? _x : _y; })
    for (int c0 = 16 * b0; c0 < n; c0 += 524288) {
      for (int c1 = 0; c1 <= n; c1 += 16) {
        if (t0 + c1 <= 1299) {
          for (int c2 = 0; c2 <= ppcg_min(15, n - c0 - 1); c2 += 1)
            shared_A[c2][t0] = A[(c0 + c2) * 1300 + (t0 + c1)];
          for (int c2 = 0; c2 <= ppcg_min(15, n - c0 - 1); c2 += 1)
            shared_B[c2][t0] = B[(c0 + c2) * 1300 + (t0 + c1)];
        }
        if (n >= t0 + c1 + 1)
          shared_x[t0] = x[t0 + c1];
        __syncthreads();
        if (n >= t0 + c0 + 1 && c1 == 0) {
          private_y[0] = 0.;
          private_tmp[0] = 0.;
        }
        if (n >= t0 + c0 + 1) {
          for (int c3 = 0; c3 <= ppcg_min(15, n - c1 - 1); c3 += 1) {
            private_y[0] = ((shared_B[t0][c3] * shared_x[c3]) + private_y[0]);
            private_tmp[0] = ((shared_A[t0][c3] * shared_x[c3]) + private_tmp[0]);
          }
          if (c1 + 15 >= n)
            private_y[0] = ((alpha * private_tmp[0]) + (beta * private_y[0]));
        }
        __syncthreads();
      }
      if (n >= t0 + c0 + 1) {
        y[t0 + c0] = private_y[0];
        tmp[t0 + c0] = private_tmp[0];
      }
      __syncthreads();
    }
}
