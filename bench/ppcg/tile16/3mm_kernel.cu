#include "3mm_kernel.hu"
__global__ void kernel0(double *C, double *D, double *F, int ni, int nl, int nj, int nm, int nk)
{
    int b0 = blockIdx.y, b1 = blockIdx.x;
    int t0 = threadIdx.y, t1 = threadIdx.x;
    __shared__ double shared_C[16][16];
    __shared__ double shared_D[16][16];
    double private_F[1][1];

    #define ppcg_min(x,y)    ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x < _y ? _x : _y; })
    for (int c0 = 16 * b0; c0 < nj; c0 += 4096) {
      if (nm >= 1 && nj >= t0 + c0 + 1)
        shared_C[t0][t1] = C[(t0 + c0) * 1200 + t1];
      if (nm >= t0 + 1 && 16 * b1 + t1 <= 1099)
        shared_D[t0][t1] = D[t0 * 1100 + (16 * b1 + t1)];
      __syncthreads();
      if (nl >= 16 * b1 + t1 + 1 && 16 * b1 + t1 <= 1099 && nj >= t0 + c0 + 1) {
        private_F[0][0] = 0.;
        for (int c5 = 0; c5 <= ppcg_min(15, nm - 1); c5 += 1)
          private_F[0][0] += (shared_C[t0][c5] * shared_D[c5][t1]);
      }
      __syncthreads();
      for (int c2 = 16; c2 < nm; c2 += 16) {
        if (nj >= t0 + c0 + 1 && t1 + c2 <= 1199)
          shared_C[t0][t1] = C[(t0 + c0) * 1200 + (t1 + c2)];
        if (16 * b1 + t1 <= 1099 && nm >= t0 + c2 + 1)
          shared_D[t0][t1] = D[(t0 + c2) * 1100 + (16 * b1 + t1)];
        __syncthreads();
        if (nl >= 16 * b1 + t1 + 1 && 16 * b1 + t1 <= 1099 && nj >= t0 + c0 + 1)
          for (int c5 = 0; c5 <= ppcg_min(15, nm - c2 - 1); c5 += 1)
            private_F[0][0] += (shared_C[t0][c5] * shared_D[c5][t1]);
        __syncthreads();
      }
      if (nl >= 16 * b1 + t1 + 1 && 16 * b1 + t1 <= 1099 && nj >= t0 + c0 + 1)
        F[(t0 + c0) * 1100 + (16 * b1 + t1)] = private_F[0][0];
      __syncthreads();
    }
}
__global__ void kernel1(double *A, double *B, double *E, int ni, int nl, int nj, int nm, int nk)
{
    int b0 = blockIdx.y, b1 = blockIdx.x;
    int t0 = threadIdx.y, t1 = threadIdx.x;
    __shared__ double shared_A[16][16];
    __shared__ double shared_B[16][16];
    double private_E[1][1];

    #define ppcg_min(x,y)    ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x < _y ? _x : _y; })
    for (int c0 = 16 * b0; c0 < ni; c0 += 4096) {
      if (nk >= 1 && ni >= t0 + c0 + 1)
        shared_A[t0][t1] = A[(t0 + c0) * 1000 + t1];
      if (nk >= t0 + 1 && 16 * b1 + t1 <= 899)
        shared_B[t0][t1] = B[t0 * 900 + (16 * b1 + t1)];
      __syncthreads();
      if (nj >= 16 * b1 + t1 + 1 && 16 * b1 + t1 <= 899 && ni >= t0 + c0 + 1) {
        private_E[0][0] = 0.;
        for (int c5 = 0; c5 <= ppcg_min(15, nk - 1); c5 += 1)
          private_E[0][0] += (shared_A[t0][c5] * shared_B[c5][t1]);
      }
      __syncthreads();
      for (int c2 = 16; c2 < nk; c2 += 16) {
        if (ni >= t0 + c0 + 1 && t1 + c2 <= 999)
          shared_A[t0][t1] = A[(t0 + c0) * 1000 + (t1 + c2)];
        if (16 * b1 + t1 <= 899 && nk >= t0 + c2 + 1)
          shared_B[t0][t1] = B[(t0 + c2) * 900 + (16 * b1 + t1)];
        __syncthreads();
        if (nj >= 16 * b1 + t1 + 1 && 16 * b1 + t1 <= 899 && ni >= t0 + c0 + 1)
          for (int c5 = 0; c5 <= ppcg_min(15, nk - c2 - 1); c5 += 1)
            private_E[0][0] += (shared_A[t0][c5] * shared_B[c5][t1]);
        __syncthreads();
      }
      if (nj >= 16 * b1 + t1 + 1 && 16 * b1 + t1 <= 899 && ni >= t0 + c0 + 1)
        E[(t0 + c0) * 900 + (16 * b1 + t1)] = private_E[0][0];
      __syncthreads();
    }
}
__global__ void kernel2(double *E, double *F, double *G, int ni, int nl, int nj, int nm, int nk)
{
    int b0 = blockIdx.y, b1 = blockIdx.x;
    int t0 = threadIdx.y, t1 = threadIdx.x;
    __shared__ double shared_E[16][16];
    __shared__ double shared_F[16][16];
    double private_G[1][1];

    #define ppcg_min(x,y)    ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x < _y ? _x : _y; })
    for (int c0 = 16 * b0; c0 < ni; c0 += 4096) {
      if (nj >= 1 && ni >= t0 + c0 + 1)
        shared_E[t0][t1] = E[(t0 + c0) * 900 + t1];
      if (nj >= t0 + 1 && 16 * b1 + t1 <= 1099)
        shared_F[t0][t1] = F[t0 * 1100 + (16 * b1 + t1)];
      __syncthreads();
      if (nl >= 16 * b1 + t1 + 1 && 16 * b1 + t1 <= 1099 && ni >= t0 + c0 + 1) {
        private_G[0][0] = 0.;
        for (int c5 = 0; c5 <= ppcg_min(15, nj - 1); c5 += 1)
          private_G[0][0] += (shared_E[t0][c5] * shared_F[c5][t1]);
      }
      __syncthreads();
      for (int c2 = 16; c2 < nj; c2 += 16) {
        if (ni >= t0 + c0 + 1 && t1 + c2 <= 899)
          shared_E[t0][t1] = E[(t0 + c0) * 900 + (t1 + c2)];
        if (16 * b1 + t1 <= 1099 && nj >= t0 + c2 + 1)
          shared_F[t0][t1] = F[(t0 + c2) * 1100 + (16 * b1 + t1)];
        __syncthreads();
        if (nl >= 16 * b1 + t1 + 1 && 16 * b1 + t1 <= 1099 && ni >= t0 + c0 + 1)
          for (int c5 = 0; c5 <= ppcg_min(15, nj - c2 - 1); c5 += 1)
            private_G[0][0] += (shared_E[t0][c5] * shared_F[c5][t1]);
        __syncthreads();
      }
      if (nl >= 16 * b1 + t1 + 1 && 16 * b1 + t1 <= 1099 && ni >= t0 + c0 + 1)
        G[(t0 + c0) * 1100 + (16 * b1 + t1)] = private_G[0][0];
      __syncthreads();
    }
}
