// Kernel of the loop at t.c:4 in f():
//     for (i = 0; i < n; i++)
//         y[i] += c[0] * x[i];
// Each thread runs iterations of 'i' a whole grid apart, so any grid covers any trip count.
__global__ void orcu_f_1_kernel(
    int orcu_lo,
    int orcu_hi,
    double *__restrict__ y,
    const double *__restrict__ c,
    const double *__restrict__ x)
{
    int i;
    for (i = orcu_lo + (int)(blockIdx.x * blockDim.x + threadIdx.x); i < orcu_hi; i += (int)(gridDim.x * blockDim.x)) {
        y[i] += c[0] * x[i];
    }
}

// Runs the loop at t.c:4 on the GPU (threadCount=128, blockCount=4, streamCount=4);
// returns when its results are in host memory.
void orcu_f_1(int n, double *y, const double *c, const double *x)
{
    const int orcu_lo = 0, orcu_hi = n;
    if (orcu_hi <= orcu_lo)
        return;  // no iteration: nothing to compute or move
    const long long orcu_trip = (long long)orcu_hi - orcu_lo;
    const int orcu_threads = 128;
    const int orcu_blocks = 4;

    // Device copies of the arrays, indexed as on the host so the loop body runs unchanged.
    double *d_y;
    ORCU_CHECK(cudaMalloc((void **)&d_y, sizeof(double) * orcu_count(0, n)));
    double *d_c;
    ORCU_CHECK(cudaMalloc((void **)&d_c, sizeof(double) * orcu_count(0, 1)));
    double *d_x;
    ORCU_CHECK(cudaMalloc((void **)&d_x, sizeof(double) * orcu_count(0, n)));

    // Pinned host memory, so that copies run asynchronously.
    const bool orcu_pinned_y = orcu_pin(y, sizeof(double) * orcu_count(0, n));
    const bool orcu_pinned_x = orcu_pin(x, sizeof(double) * orcu_count(0, n));

    ORCU_CHECK(cudaMemcpy(d_c, c, sizeof(double) * orcu_count(0, 1), cudaMemcpyHostToDevice));

    // streamCount=4: chunk s runs iterations [trip*s/4, trip*(s+1)/4) in its own stream, so its
    // copies overlap the other chunks' kernels.
    cudaStream_t orcu_stream[4];
    for (int orcu_s = 0; orcu_s < 4; orcu_s++)
        ORCU_CHECK(cudaStreamCreateWithFlags(&orcu_stream[orcu_s], cudaStreamNonBlocking));
    for (int orcu_s = 0; orcu_s < 4; orcu_s++) {
        const int orcu_chunk_lo = orcu_lo + (int)(orcu_trip * orcu_s / 4);
        const int orcu_chunk_hi = orcu_lo + (int)(orcu_trip * (orcu_s + 1) / 4 - 1) + 1;
        if (orcu_chunk_hi <= orcu_chunk_lo)
            continue;  // more streams than iterations
        ORCU_CHECK(cudaMemcpyAsync(d_y + orcu_chunk_lo, y + orcu_chunk_lo, sizeof(double) * (size_t)(orcu_chunk_hi - orcu_chunk_lo), cudaMemcpyHostToDevice, orcu_stream[orcu_s]));
        ORCU_CHECK(cudaMemcpyAsync(d_x + orcu_chunk_lo, x + orcu_chunk_lo, sizeof(double) * (size_t)(orcu_chunk_hi - orcu_chunk_lo), cudaMemcpyHostToDevice, orcu_stream[orcu_s]));
        ORCU_LAUNCH(orcu_f_1_kernel, orcu_blocks, orcu_threads, 0, orcu_stream[orcu_s], orcu_chunk_lo, orcu_chunk_hi, d_y, d_c, d_x);
        ORCU_CHECK(cudaGetLastError());
        ORCU_CHECK(cudaMemcpyAsync(y + orcu_chunk_lo, d_y + orcu_chunk_lo, sizeof(double) * (size_t)(orcu_chunk_hi - orcu_chunk_lo), cudaMemcpyDeviceToHost, orcu_stream[orcu_s]));
    }
    for (int orcu_s = 0; orcu_s < 4; orcu_s++) {
        ORCU_CHECK(cudaStreamSynchronize(orcu_stream[orcu_s]));
        ORCU_CHECK(cudaStreamDestroy(orcu_stream[orcu_s]));
    }

    if (orcu_pinned_y)
        ORCU_CHECK(cudaHostUnregister((void *)(y)));
    if (orcu_pinned_x)
        ORCU_CHECK(cudaHostUnregister((void *)(x)));
    ORCU_CHECK(cudaFree(d_y));
    ORCU_CHECK(cudaFree(d_c));
    ORCU_CHECK(cudaFree(d_x));
}
