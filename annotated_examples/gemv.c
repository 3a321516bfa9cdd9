/* y = A x with A row-major (n rows of m): the TSG spreads each row over a warp of threads,
 * which read consecutive elements of the row, and folds their partial sums. */
void gemv(int n, int m, const double *A, const double *x, double *y) {
    int i, j;
    /*@ begin PerfTuning (
    def performance_params {
        param TC[] = [64, 128, 256];
    }
    def input_params {
        param n[] = [37, 64];
        param m[] = [45];
    }
    def input_vars {
        decl dynamic double A[n*m] = random;
        decl dynamic double x[m] = random;
        decl dynamic double y[n] = 0;
    }
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto', threadCount=TC)
    for (i = 0; i < n; i++) {
        y[i] = 0.0;
        for (j = 0; j < m; j++)
            y[i] += A[i*m + j] * x[j];
    }
    ) @*/
    for (i = 0; i < n; i++) {
        y[i] = 0.0;
        for (j = 0; j < m; j++)
            y[i] += A[i*m + j] * x[j];
    }
    /*@ end @*/
    /*@ end @*/
}
