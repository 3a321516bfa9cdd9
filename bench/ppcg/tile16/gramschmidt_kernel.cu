#include "gramschmidt_kernel.hu"
__global__ void kernel0(double *R, int n, int m)
{
    int b0 = blockIdx.y, b1 = blockIdx.x;
    int t0 = threadIdx.y, t1 = threadIdx.x;

    if (n >= 16 * b1 + t1 + 2 && 16 * b1 + t1 >= 16 * b0 + t0 && 16 * b1 + t1 <= 1198)
      R[(16 * b0 + t0) * 1200 + (16 * b1 + t1 + 1)] = 0.;
}
__global__ void kernel1(double *nrm, int n, int m, int c0)
{

    nrm[0] = 0.;
}
__global__ void kernel2(double *A, double *nrm, int n, int m, int c0)
{
    double private_nrm;

    {
      private_nrm = *nrm;
      for (int c1 = 0; c1 < m; c1 += 1)
        private_nrm += (A[c1 * 1200 + c0] * A[c1 * 1200 + c0]);
      *nrm = private_nrm;
    }
}
__global__ void kernel3(double *R, double *nrm, int n, int m, int c0)
{

    R[c0 * 1200 + c0] = sqrt(nrm[0]);
}
__global__ void kernel4(double *A, double *Q, double *R, int n, int m, int c0)
{
    int b0 = blockIdx.x;
    int t0 = threadIdx.x;
    __shared__ double shared_R[1][1];

    {
      if (t0 == 0)
        shared_R[0][0] = R[c0 * 1200 + c0];
      __syncthreads();
      for (int c1 = 16 * b0; c1 < m; c1 += 524288)
        if (m >= t0 + c1 + 1)
          Q[(t0 + c1) * 1200 + c0] = (A[(t0 + c1) * 1200 + c0] / shared_R[0][0]);
    }
}
__global__ void kernel5(double *A, double *Q, double *R, int n, int m, int c0)
{
    int b0 = blockIdx.x;
    int t0 = threadIdx.x;
    __shared__ double shared_Q[16][1];
    double private_R[1][1];

    #define ppcg_min(x,y)    ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x < _y ? _x : _y; })
    if (16 * b0 + 15 >= c0) {
      if (n >= 16 * b0 + t0 + 2 && 16 * b0 + t0 <= 1198 && 16 * b0 + t0 >= c0)
        private_R[0][0] = R[c0 * 1200 + (16 * b0 + t0 + 1)];
      for (int c2 = 0; c2 < m; c2 += 16) {
        if (t0 == 0)
          for (int c3 = 0; c3 <= ppcg_min(15, m - c2 - 1); c3 += 1)
            shared_Q[c3][0] = Q[(c2 + c3) * 1200 + c0];
        __syncthreads();
        if (n >= 16 * b0 + t0 + 2 && 16 * b0 + t0 <= 1198 && 16 * b0 + t0 >= c0)
          for (int c4 = 0; c4 <= ppcg_min(15, m - c2 - 1); c4 += 1)
            private_R[0][0] += (shared_Q[c4][0] * A[(c2 + c4) * 1200 + (16 * b0 + t0 + 1)]);
        __syncthreads();
      }
      if (n >= 16 * b0 + t0 + 2 && 16 * b0 + t0 <= 1198 && 16 * b0 + t0 >= c0)
        R[c0 * 1200 + (16 * b0 + t0 + 1)] = private_R[0][0];
    }
}
__global__ void kernel6(double *A, double *Q, double *R, int n, int m, int c0)
{
    int b0 = blockIdx.y, b1 = blockIdx.x;
    int t0 = threadIdx.y, t1 = threadIdx.x;
    __shared__ double shared_A[16][16];
    __shared__ double shared_Q[16][1];
    __shared__ double shared_R[1][16];

    for (int c1 = -((-16 * b0 + c0 + 4080) % 4096) + c0 + 4080; c1 < n - 1; c1 += 4096) {
      if (t0 == 0 && 16 * b0 + t1 <= 1198 && c1 == 16 * b0)
        shared_R[0][t1] = R[c0 * 1200 + (16 * b0 + t1 + 1)];
      for (int c2 = 16 * b1; c2 < m; c2 += 4096) {
        if (16 * b0 + t1 <= 1198 && c1 == 16 * b0 && m >= t0 + c2 + 1)
          shared_A[t0][t1] = A[(t0 + c2) * 1200 + (16 * b0 + t1 + 1)];
        if (t1 == 0 && m >= t0 + c2 + 1)
          shared_Q[t0][0] = Q[(t0 + c2) * 1200 + c0];
        __syncthreads();
        if (n >= t0 + c1 + 2 && t0 + c1 >= c0 && m >= t1 + c2 + 1)
          shared_A[t1][t0] = (shared_A[t1][t0] - (shared_Q[t1][0] * shared_R[0][t0]));
        __syncthreads();
        if (n >= t1 + c1 + 2 && t1 + c1 >= c0 && m >= t0 + c2 + 1)
          A[(t0 + c2) * 1200 + (t1 + c1 + 1)] = shared_A[t0][t1];
      }
    }
}
