#include "gramschmidt_kernel.hu"
__global__ void kernel0(double *R, int n, int m)
{
    int b0 = blockIdx.y, b1 = blockIdx.x;
    int t0 = threadIdx.y, t1 = threadIdx.x;

    #define ppcg_min(x,y)    ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x < _y ? _x : _y; })
    #define ppcg_max(x,y)    ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x > _y ? _x : _y; })
    for (int c3 = ppcg_max(t1, -((t0 - t1 + 15) % 16) + 32 * b0 - 32 * b1 + t0 + 15); c3 <= ppcg_min(ppcg_min(31, n - 32 * b1 - 2), -32 * b1 + 1198); c3 += 16)
      R[(32 * b0 + t0) * 1200 + (32 * b1 + c3 + 1)] = 0.;
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
      for (int c1 = 32 * b0; c1 < m; c1 += 1048576)
        if (m >= t0 + c1 + 1)
          Q[(t0 + c1) * 1200 + c0] = (A[(t0 + c1) * 1200 + c0] / shared_R[0][0]);
    }
}
__global__ void kernel5(double *A, double *Q, double *R, int n, int m, int c0)
{
    int b0 = blockIdx.x;
    int t0 = threadIdx.x;
    __shared__ double shared_Q[32][1];
    double private_R[1][1];

    #define ppcg_min(x,y)    ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x < _y ? _x : _y; })
    if (32 * b0 + 31 >= c0) {
      if (n >= 32 * b0 + t0 + 2 && 32 * b0 + t0 <= 1198 && 32 * b0 + t0 >= c0)
        private_R[0][0] = R[c0 * 1200 + (32 * b0 + t0 + 1)];
      for (int c2 = 0; c2 < m; c2 += 32) {
        if (t0 == 0)
          for (int c3 = 0; c3 <= ppcg_min(31, m - c2 - 1); c3 += 1)
            shared_Q[c3][0] = Q[(c2 + c3) * 1200 + c0];
        __syncthreads();
        if (n >= 32 * b0 + t0 + 2 && 32 * b0 + t0 <= 1198 && 32 * b0 + t0 >= c0)
          for (int c4 = 0; c4 <= ppcg_min(31, m - c2 - 1); c4 += 1)
            private_R[0][0] += (shared_Q[c4][0] * A[(c2 + c4) * 1200 + (32 * b0 + t0 + 1)]);
        __syncthreads();
      }
      if (n >= 32 * b0 + t0 + 2 && 32 * b0 + t0 <= 1198 && 32 * b0 + t0 >= c0)
        R[c0 * 1200 + (32 * b0 + t0 + 1)] = private_R[0][0];
    }
}
__global__ void kernel6(double *A, double *Q, double *R, int n, int m, int c0)
{
    int b0 = blockIdx.y, b1 = blockIdx.x;
    int t0 = threadIdx.y, t1 = threadIdx.x;
    __shared__ double shared_A[32][32];

    #define ppcg_min(x,y)    ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x < _y ? _x : _y; })
    #define ppcg_max(x,y)    ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x > _y ? _x : _y; })
    #define ppcg_fdiv_q(n,d) (((n)<0) ? -((-(n)+(d)-1)/(d)) : (n)/(d))
    for (int c1 = -((-32 * b0 + c0 + 8160) % 8192) + c0 + 8160; c1 < n - 1; c1 += 8192)
      for (int c2 = 32 * b1; c2 < m; c2 += 8192) {
        if (c1 == 32 * b0 && m >= t0 + c2 + 1)
          for (int c4 = t1; c4 <= ppcg_min(31, -32 * b0 + 1198); c4 += 16)
            shared_A[t0][c4] = A[(t0 + c2) * 1200 + (32 * b0 + c4 + 1)];
        __syncthreads();
        if (n >= t0 + c1 + 2 && t0 + c1 >= c0)
          for (int c4 = t1; c4 <= ppcg_min(31, m - c2 - 1); c4 += 16)
            shared_A[c4][t0] = (shared_A[c4][t0] - (Q[(c2 + c4) * 1200 + c0] * R[c0 * 1200 + (t0 + c1 + 1)]));
        __syncthreads();
        if (m >= t0 + c2 + 1)
          for (int c4 = ppcg_max(t1, t1 + 16 * ppcg_fdiv_q(-t1 + c0 - c1 - 1, 16) + 16); c4 <= ppcg_min(31, n - c1 - 2); c4 += 16)
            A[(t0 + c2) * 1200 + (c1 + c4 + 1)] = shared_A[t0][c4];
      }
}
