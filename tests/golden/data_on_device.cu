// Kernel of the loop at t.c:4 in f():
//     for (i = 0; i < n; i++)
//         y[i] = a * x[i] + y[i];
// Each thread runs iterations of 'i' a whole grid apart, so any grid covers any trip count.
__global__ void orcu_f_1_kernel(int orcu_lo, int orcu_hi, double *y, const double *x, double a)
{
    int i;
    for (i = orcu_lo + (int)(blockIdx.x * blockDim.x + threadIdx.x); i < orcu_hi; i += (int)(gridDim.x * blockDim.x)) {
        y[i] = a * x[i] + y[i];
    }
}

// Runs the loop at t.c:4 on the GPU (threadCount=128, blockCount=4, dataOnDevice=True);
// returns when its results are in device memory.
void orcu_f_1(int n, double *y, double a, const double *x)
{
    const int orcu_lo = 0, orcu_hi = n;
    if (orcu_hi <= orcu_lo)
        return;  // no iteration: nothing to compute or move
    const int orcu_threads = 128;
    const int orcu_blocks = 4;

    ORCU_LAUNCH(orcu_f_1_kernel, orcu_blocks, orcu_threads, 0, 0, orcu_lo, orcu_hi, y, x, a);
    ORCU_CHECK(cudaGetLastError());
    ORCU_CHECK(cudaDeviceSynchronize());  // dataOnDevice: no copy waits for the kernel, so wait here
}
