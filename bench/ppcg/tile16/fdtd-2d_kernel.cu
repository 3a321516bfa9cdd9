#include "fdtd-2d_kernel.hu"
__global__ void kernel0(double *ey, double *hz, int tmax, int nx, int ny, int c0)
{
    int b0 = blockIdx.y, b1 = blockIdx.x;
    int t0 = threadIdx.y, t1 = threadIdx.x;

    if (ny >= 16 * b1 + t1 + 1)
      for (int c1 = 16 * b0; c1 < nx - 1; c1 += 4096)
        if (nx >= t0 + c1 + 2)
          ey[(t0 + c1 + 1) * 1200 + (16 * b1 + t1)] = (ey[(t0 + c1 + 1) * 1200 + (16 * b1 + t1)] - (0.5 * (hz[(t0 + c1 + 1) * 1200 + (16 * b1 + t1)] - hz[(t0 + c1) * 1200 + (16 * b1 + t1)])));
}
__global__ void kernel1(double *ex, double *hz, int tmax, int nx, int ny, int c0)
{
    int b0 = blockIdx.y, b1 = blockIdx.x;
    int t0 = threadIdx.y, t1 = threadIdx.x;

    if (ny >= 16 * b1 + t1 + 2 && 16 * b1 + t1 <= 1198)
      for (int c1 = 16 * b0; c1 < nx; c1 += 4096)
        if (nx >= t0 + c1 + 1)
          ex[(t0 + c1) * 1200 + (16 * b1 + t1 + 1)] = (ex[(t0 + c1) * 1200 + (16 * b1 + t1 + 1)] - (0.5 * (hz[(t0 + c1) * 1200 + (16 * b1 + t1 + 1)] - hz[(t0 + c1) * 1200 + (16 * b1 + t1)])));
}
__global__ void kernel2(double *_fict_, double *ex, double *ey, double *hz, int tmax, int nx, int ny, int c0)
{
    int b0 = blockIdx.y, b1 = blockIdx.x;
    int t0 = threadIdx.y, t1 = threadIdx.x;
    __shared__ double shared__fict_[1];
    __shared__ double shared_ey[17][16];

    #define ppcg_min(x,y)    ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x < _y ? _x : _y; })
    {
      if (t0 == 0 && t1 == 0)
        shared__fict_[0] = _fict_[c0];
      __syncthreads();
      if (ny >= 16 * b1 + 2)
        for (int c1 = 16 * b0; c1 < nx - 1; c1 += 4096) {
          for (int c2 = t0; c2 <= ppcg_min(16, nx - c1 - 1); c2 += 16)
            shared_ey[c2][t1] = ey[(c1 + c2) * 1200 + (16 * b1 + t1)];
          __syncthreads();
          if (b0 == 0 && t0 == 0 && ny >= 16 * b1 + t1 + 1 && c1 == 0)
            shared_ey[0][t1] = shared__fict_[0];
          if (ny >= 16 * b1 + t1 + 2 && nx >= t0 + c1 + 2)
            hz[(t0 + c1) * 1200 + (16 * b1 + t1)] = (hz[(t0 + c1) * 1200 + (16 * b1 + t1)] - (0.69999999999999996 * (((ex[(t0 + c1) * 1200 + (16 * b1 + t1 + 1)] - ex[(t0 + c1) * 1200 + (16 * b1 + t1)]) + shared_ey[t0 + 1][t1]) - shared_ey[t0][t1])));
          __syncthreads();
          if (b0 == 0 && t0 == 0 && ny >= 16 * b1 + t1 + 1 && c0 + 1 == tmax && c1 == 0)
            ey[0 * 1200 + (16 * b1 + t1)] = shared_ey[0][t1];
        }
      if (nx <= 1 && b0 == 0) {
        if (t0 == 0)
          shared_ey[0][t1] = ey[0 * 1200 + (16 * b1 + t1)];
        __syncthreads();
        if (t0 == 0 && ny >= 16 * b1 + t1 + 1)
          shared_ey[0][t1] = shared__fict_[0];
        __syncthreads();
        if (t0 == 0 && ny >= 16 * b1 + t1 + 1 && c0 + 1 == tmax)
          ey[0 * 1200 + (16 * b1 + t1)] = shared_ey[0][t1];
      } else if (nx >= 2 && b0 == 0 && 16 * b1 + 1 == ny) {
        for (int c2 = t0; c2 <= ppcg_min(16, nx - 1); c2 += 16)
          shared_ey[c2][t1] = ey[c2 * 1200 + (ny + t1 - 1)];
        __syncthreads();
        if (t0 == 0 && t1 == 0)
          shared_ey[0][0] = shared__fict_[0];
        __syncthreads();
        if (t0 == 0 && t1 == 0 && c0 + 1 == tmax)
          ey[0 * 1200 + (ny - 1)] = shared_ey[0][0];
      }
    }
}
