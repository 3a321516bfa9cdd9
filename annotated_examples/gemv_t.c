/* y = A^T x with A row-major (n rows of m): each thread computes one y[j], walking down a
 * column, while the threads of a warp read consecutive elements of each row. */
void gemv_t(int n, int m, const double *A, const double *x, double *y) {
    int i, j;
    /*@ begin PerfTuning (
    def performance_params {
        param TC[] = [64, 128, 256];
    }
    def input_params {
        param n[] = [41];
        param m[] = [37, 64];
    }
    def input_vars {
        decl dynamic double A[n*m] = random;
        decl dynamic double x[n] = random;
        decl dynamic double y[m] = 0;
    }
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto', threadCount=TC)
    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++)
            y[j] += A[i*m + j] * x[i];
    ) @*/
    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++)
            y[j] += A[i*m + j] * x[i];
    /*@ end @*/
    /*@ end @*/
}
