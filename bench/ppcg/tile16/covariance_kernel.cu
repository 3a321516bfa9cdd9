#include "covariance_kernel.hu"
__global__ void kernel0(double *data, double *mean, int m, int n)
{
    int b0 = blockIdx.x;
    int t0 = threadIdx.x;
    double private_mean[1];

    #define ppcg_min(x,y)    ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x < _y ? _x : _y; })
    for (int c0 = 16 * b0; c0 < m; c0 += 524288) {
      if (m >= t0 + c0 + 1) {
        private_mean[0] = 0.;
        for (int c1 = 0; c1 < n; c1 += 16)
          for (int c3 = 0; c3 <= ppcg_min(15, n - c1 - 1); c3 += 1)
            private_mean[0] += data[(c1 + c3) * 1200 + (t0 + c0)];
        mean[t0 + c0] = private_mean[0];
      }
      __syncthreads();
    }
}
__global__ void kernel1(double float_n, double *mean, int m, int n)
{
    int b0 = blockIdx.x;
    int t0 = threadIdx.x;

    for (int c0 = 16 * b0; c0 < m; c0 += 524288)
      if (m >= t0 + c0 + 1)
        mean[t0 + c0] /= float_n;
}
__global__ void kernel2(double *data, double *mean, int m, int n)
{
    int b0 = blockIdx.y, b1 = blockIdx.x;
    int t0 = threadIdx.y, t1 = threadIdx.x;
    __shared__ double shared_mean[16];

    {
      if (t0 == 0 && m >= 16 * b1 + t1 + 1)
        shared_mean[t1] = mean[16 * b1 + t1];
      __syncthreads();
      if (m >= 16 * b1 + t1 + 1)
        for (int c0 = 16 * b0; c0 < n; c0 += 4096)
          if (n >= t0 + c0 + 1)
            data[(t0 + c0) * 1200 + (16 * b1 + t1)] -= shared_mean[t1];
    }
}
__global__ void kernel3(double *cov, int m, int n)
{
    int b0 = blockIdx.y, b1 = blockIdx.x;
    int t0 = threadIdx.y, t1 = threadIdx.x;

    if (m >= 16 * b1 + t1 + 1 && 16 * b1 + t1 >= 16 * b0 + t0)
      cov[(16 * b0 + t0) * 1200 + (16 * b1 + t1)] = 0.;
}
__global__ void kernel4(double *cov, double *data, double float_n, int m, int n)
{
    int b0 = blockIdx.y, b1 = blockIdx.x;
    int t0 = threadIdx.y, t1 = threadIdx.x;
    __shared__ double shared_data_0[16][16];
    __shared__ double shared_data_1[16][16];

    #define ppcg_min(x,y)    ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x < _y ? _x : _y; })
    for (int c1 = -(16 * ((b0 - b1 + 255) % 256)) + 16 * b0 + 4080; c1 < m; c1 += 4096) {
      if (c1 >= 16 * b1 + 4096) {
        if (n >= 1 && n % 16 >= t0 + 1) {
          shared_data_0[t0][t1] = data[(-(n % 16) + n + t0) * 1200 + (16 * b0 + t1)];
          if (b1 <= 74)
            shared_data_1[t0][t1] = data[(-(n % 16) + n + t0) * 1200 + (16 * b1 + t1)];
        }
        __syncthreads();
        if (m >= t1 + c1 + 1)
          cov[(t1 + c1) * 1200 + (16 * b0 + t0)] = cov[(16 * b0 + t0) * 1200 + (t1 + c1)];
        __syncthreads();
      } else {
        if (n <= 0) {
          __syncthreads();
          if (b1 <= 74 && m >= 16 * b1 + t1 + 1 && 16 * b1 + t1 >= 16 * b0 + t0)
            cov[(16 * b0 + t0) * 1200 + (16 * b1 + t1)] /= (float_n - 1.);
          if (m >= 16 * b1 + t1 + 1 && 16 * b1 + t1 >= 16 * b0 + t0)
            cov[(16 * b1 + t1) * 1200 + (16 * b0 + t0)] = cov[(16 * b0 + t0) * 1200 + (16 * b1 + t1)];
          __syncthreads();
        }
        if (b1 <= 74) {
          for (int c2 = 0; c2 < n; c2 += 16) {
            if (n >= t0 + c2 + 1) {
              shared_data_0[t0][t1] = data[(t0 + c2) * 1200 + (16 * b0 + t1)];
              shared_data_1[t0][t1] = data[(t0 + c2) * 1200 + (16 * b1 + t1)];
            }
            __syncthreads();
            if (m >= 16 * b1 + t1 + 1 && 16 * b1 + t1 >= 16 * b0 + t0) {
              for (int c5 = 0; c5 <= ppcg_min(15, n - c2 - 1); c5 += 1)
                cov[(16 * b0 + t0) * 1200 + (16 * b1 + t1)] += (shared_data_0[c5][t0] * shared_data_1[c5][t1]);
              if (c2 + 15 >= n) {
                cov[(16 * b0 + t0) * 1200 + (16 * b1 + t1)] /= (float_n - 1.);
                cov[(16 * b1 + t1) * 1200 + (16 * b0 + t0)] = cov[(16 * b0 + t0) * 1200 + (16 * b1 + t1)];
              }
            }
            __syncthreads();
          }
          if (n >= 16 && n % 16 == 0) {
            __syncthreads();
            if (m >= 16 * b1 + t1 + 1 && 16 * b1 + t1 >= 16 * b0 + t0) {
              cov[(16 * b0 + t0) * 1200 + (16 * b1 + t1)] /= (float_n - 1.);
              cov[(16 * b1 + t1) * 1200 + (16 * b0 + t0)] = cov[(16 * b0 + t0) * 1200 + (16 * b1 + t1)];
            }
            __syncthreads();
          }
        } else if (n >= 1) {
          if (n % 16 >= t0 + 1)
            shared_data_0[t0][t1] = data[(-(n % 16) + n + t0) * 1200 + (16 * b0 + t1)];
          __syncthreads();
          if (m >= 16 * b1 + t1 + 1)
            cov[(16 * b1 + t1) * 1200 + (16 * b0 + t0)] = cov[(16 * b0 + t0) * 1200 + (16 * b1 + t1)];
          __syncthreads();
        }
      }
    }
}
