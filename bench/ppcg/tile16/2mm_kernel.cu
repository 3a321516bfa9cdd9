#include "2mm_kernel.hu"
__global__ void kernel0(double *A, double *B, double alpha, double *tmp, int ni, int nl, int nj, int nk)
{
    int b0 = blockIdx.y, b1 = blockIdx.x;
    int t0 = threadIdx.y, t1 = threadIdx.x;
    __shared__ double shared_A[16][16];
    __shared__ double shared_B[16][16];
    double private_tmp[1][1];

    #define ppcg_min(x,y)    ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x < _y ? _x : _y; })
    for (int c0 = 16 * b0; c0 < ni; c0 += 4096) {
      if (nk >= 1 && ni >= t0 + c0 + 1)
        shared_A[t0][t1] = A[(t0 + c0) * 1100 + t1];
      if (nk >= t0 + 1 && 16 * b1 + t1 <= 899)
        shared_B[t0][t1] = B[t0 * 900 + (16 * b1 + t1)];
      __syncthreads();
      if (nj >= 16 * b1 + t1 + 1 && 16 * b1 + t1 <= 899 && ni >= t0 + c0 + 1) {
        private_tmp[0][0] = 0.;
        for (int c5 = 0; c5 <= ppcg_min(15, nk - 1); c5 += 1)
          private_tmp[0][0] += ((alpha * shared_A[t0][c5]) * shared_B[c5][t1]);
      }
      __syncthreads();
      for (int c2 = 16; c2 < nk; c2 += 16) {
        if (ni >= t0 + c0 + 1 && t1 + c2 <= 1099)
          shared_A[t0][t1] = A[(t0 + c0) * 1100 + (t1 + c2)];
        if (16 * b1 + t1 <= 899 && nk >= t0 + c2 + 1)
          shared_B[t0][t1] = B[(t0 + c2) * 900 + (16 * b1 + t1)];
        __syncthreads();
        if (nj >= 16 * b1 + t1 + 1 && 16 * b1 + t1 <= 899 && ni >= t0 + c0 + 1)
          for (int c5 = 0; c5 <= ppcg_min(15, nk - c2 - 1); c5 += 1)
            private_tmp[0][0] += ((alpha * shared_A[t0][c5]) * shared_B[c5][t1]);
        __syncthreads();
      }
      if (nj >= 16 * b1 + t1 + 1 && 16 * b1 + t1 <= 899 && ni >= t0 + c0 + 1)
        tmp[(t0 + c0) * 900 + (16 * b1 + t1)] = private_tmp[0][0];
      __syncthreads();
    }
}
__global__ void kernel1(double *C, double *D, double beta, double *tmp, int ni, int nl, int nj, int nk)
{
    int b0 = blockIdx.y, b1 = blockIdx.x;
    int t0 = threadIdx.y, t1 = threadIdx.x;
    __shared__ double shared_C[16][16];
    double private_D[1][1];
    __shared__ double shared_tmp[16][16];

    #define ppcg_min(x,y)    ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x < _y ? _x : _y; })
    for (int c0 = 16 * b0; c0 < ni; c0 += 4096) {
      if (nl >= 16 * b1 + t1 + 1 && ni >= t0 + c0 + 1)
        private_D[0][0] = D[(t0 + c0) * 1200 + (16 * b1 + t1)];
      if (nj >= t0 + 1)
        shared_C[t0][t1] = C[t0 * 1200 + (16 * b1 + t1)];
      if (nj >= 1 && ni >= t0 + c0 + 1)
        shared_tmp[t0][t1] = tmp[(t0 + c0) * 900 + t1];
      __syncthreads();
      if (nl >= 16 * b1 + t1 + 1 && ni >= t0 + c0 + 1) {
        private_D[0][0] *= beta;
        for (int c5 = 0; c5 <= ppcg_min(15, nj - 1); c5 += 1)
          private_D[0][0] += (shared_tmp[t0][c5] * shared_C[c5][t1]);
      }
      __syncthreads();
      for (int c2 = 16; c2 < nj; c2 += 16) {
        if (nj >= t0 + c2 + 1)
          shared_C[t0][t1] = C[(t0 + c2) * 1200 + (16 * b1 + t1)];
        if (ni >= t0 + c0 + 1 && t1 + c2 <= 899)
          shared_tmp[t0][t1] = tmp[(t0 + c0) * 900 + (t1 + c2)];
        __syncthreads();
        if (nl >= 16 * b1 + t1 + 1 && ni >= t0 + c0 + 1)
          for (int c5 = 0; c5 <= ppcg_min(15, nj - c2 - 1); c5 += 1)
            private_D[0][0] += (shared_tmp[t0][c5] * shared_C[c5][t1]);
        __syncthreads();
      }
      if (nl >= 16 * b1 + t1 + 1 && ni >= t0 + c0 + 1)
        D[(t0 + c0) * 1200 + (16 * b1 + t1)] = private_D[0][0];
      __syncthreads();
    }
}
