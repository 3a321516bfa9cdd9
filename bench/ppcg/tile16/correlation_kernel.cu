#include "correlation_kernel.hu"
__global__ void kernel0(double *corr, int m, int n)
{
    int b0 = blockIdx.x;
    int t0 = threadIdx.x;

    if (m >= 16 * b0 + t0 + 2)
      corr[(16 * b0 + t0) * 1200 + (16 * b0 + t0)] = 1.;
}
__global__ void kernel1(double *data, double *mean, int m, int n)
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
__global__ void kernel2(double *data, double float_n, double *mean, double *stddev, int m, int n)
{
    int b0 = blockIdx.x;
    int t0 = threadIdx.x;
    double private_mean[1];
    double private_stddev[1];

    #define ppcg_min(x,y)    ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x < _y ? _x : _y; })
    for (int c0 = 16 * b0; c0 < m; c0 += 524288) {
      if (m >= t0 + c0 + 1) {
        private_mean[0] = mean[t0 + c0];
        private_stddev[0] = 0.;
        private_mean[0] /= float_n;
        for (int c1 = 0; c1 < n; c1 += 16)
          for (int c3 = 0; c3 <= ppcg_min(15, n - c1 - 1); c3 += 1)
            private_stddev[0] += ((data[(c1 + c3) * 1200 + (t0 + c0)] - private_mean[0]) * (data[(c1 + c3) * 1200 + (t0 + c0)] - private_mean[0]));
        stddev[t0 + c0] = private_stddev[0];
        mean[t0 + c0] = private_mean[0];
      }
      __syncthreads();
    }
}
__global__ void kernel3(double eps, double float_n, double *stddev, int m, int n)
{
    int b0 = blockIdx.x;
    int t0 = threadIdx.x;
    double private_stddev[1];

    for (int c0 = 16 * b0; c0 < m; c0 += 524288)
      if (m >= t0 + c0 + 1) {
        private_stddev[0] = stddev[t0 + c0];
        private_stddev[0] /= float_n;
        private_stddev[0] = sqrt(private_stddev[0]);
        private_stddev[0] = ((private_stddev[0] <= eps) ? 1. : private_stddev[0]);
        stddev[t0 + c0] = private_stddev[0];
      }
}
__global__ void kernel4(double *data, double float_n, double *mean, double *stddev, int m, int n)
{
    int b0 = blockIdx.y, b1 = blockIdx.x;
    int t0 = threadIdx.y, t1 = threadIdx.x;
    double private_data[1][1];
    __shared__ double shared_mean[16];
    __shared__ double shared_stddev[16];

    {
      if (t0 == 0 && m >= 16 * b1 + t1 + 1)
        shared_mean[t1] = mean[16 * b1 + t1];
      __syncthreads();
      for (int c0 = 16 * b0; c0 < n; c0 += 4096)
        for (int c1 = 16 * b1; c1 < m; c1 += 4096) {
          if (b1 <= 74 && m >= 16 * b1 + t1 + 1 && n >= t0 + c0 + 1 && c1 == 16 * b1)
            private_data[0][0] = data[(t0 + c0) * 1200 + (16 * b1 + t1)];
          if (t0 == 0 && m >= t1 + c1 + 1)
            shared_stddev[t1] = stddev[t1 + c1];
          __syncthreads();
          if (b1 <= 74 && m >= 16 * b1 + t1 + 1 && n >= t0 + c0 + 1 && c1 == 16 * b1)
            private_data[0][0] -= shared_mean[t1];
          if (n >= t0 + c0 + 1 && m >= t1 + c1 + 1)
            private_data[0][0] /= (sqrt(float_n) * shared_stddev[t1]);
          __syncthreads();
          if (b1 <= 74 && m >= 16 * b1 + t1 + 1 && n >= t0 + c0 + 1 && c1 == 16 * b1)
            data[(t0 + c0) * 1200 + (16 * b1 + t1)] = private_data[0][0];
        }
    }
}
__global__ void kernel5(double *corr, int m, int n)
{
    int b0 = blockIdx.y, b1 = blockIdx.x;
    int t0 = threadIdx.y, t1 = threadIdx.x;

    if (m >= 16 * b1 + t1 + 2 && 16 * b1 + t1 >= 16 * b0 + t0 && 16 * b1 + t1 <= 1198)
      corr[(16 * b0 + t0) * 1200 + (16 * b1 + t1 + 1)] = 0.;
}
__global__ void kernel6(double *corr, double *data, int m, int n)
{
    int b0 = blockIdx.y, b1 = blockIdx.x;
    int t0 = threadIdx.y, t1 = threadIdx.x;
    double private_corr_0[1][1];
    __shared__ double shared_corr_1[16][16];
    __shared__ double shared_data_0[16][16];
    __shared__ double shared_data_1[16][16];

    for (int c1 = -(16 * ((b0 - b1 + 255) % 256)) + 16 * b0 + 4080; c1 < m; c1 += 4096) {
      if (b1 <= 74 && 16 * b1 + t1 >= 16 * b0 + t0 + 1 && m >= 16 * b1 + t1 + 1 && c1 == 16 * b1)
        private_corr_0[0][0] = corr[(16 * b0 + t0) * 1200 + (16 * b1 + t1)];
      __syncthreads();
      if (b1 <= 74 && c1 == 16 * b1)
        for (int c2 = 0; c2 < n - 15; c2 += 16) {
          shared_data_0[t0][t1] = data[(t0 + c2) * 1200 + (16 * b0 + t1)];
          shared_data_1[t0][t1] = data[(t0 + c2) * 1200 + (16 * b1 + t1)];
          __syncthreads();
          if (16 * b1 + t1 >= 16 * b0 + t0 + 1 && m >= 16 * b1 + t1 + 1)
            for (int c5 = 0; c5 <= 15; c5 += 1)
              private_corr_0[0][0] += (shared_data_0[c5][t0] * shared_data_1[c5][t1]);
          __syncthreads();
        }
      if (n >= 1 && n % 16 >= t0 + 1) {
        shared_data_0[t0][t1] = data[(-(n % 16) + n + t0) * 1200 + (16 * b0 + t1)];
        if (b1 <= 74)
          shared_data_1[t0][t1] = data[(-(n % 16) + n + t0) * 1200 + (16 * b1 + t1)];
      }
      __syncthreads();
      if (n >= 1 && b1 <= 74 && 16 * b1 + t1 >= 16 * b0 + t0 + 1 && m >= 16 * b1 + t1 + 1 && c1 == 16 * b1)
        for (int c5 = 0; c5 < n % 16; c5 += 1)
          private_corr_0[0][0] += (shared_data_0[c5][t0] * shared_data_1[c5][t1]);
      if (t1 + c1 >= 16 * b0 + t0 + 1 && m >= t1 + c1 + 1)
        shared_corr_1[t1][t0] = private_corr_0[0][0];
      __syncthreads();
      if (n >= 1 && b1 <= 74 && 16 * b1 + t1 >= 16 * b0 + t0 + 1 && m >= 16 * b1 + t1 + 1 && c1 == 16 * b1)
        corr[(16 * b0 + t0) * 1200 + (16 * b1 + t1)] = private_corr_0[0][0];
      __syncthreads();
      if (t0 + c1 >= 16 * b0 + t1 + 1 && m >= t0 + c1 + 1)
        corr[(t0 + c1) * 1200 + (16 * b0 + t1)] = shared_corr_1[t0][t1];
    }
}
