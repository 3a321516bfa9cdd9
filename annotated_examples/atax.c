/* PolyBench atax: y = A^T (A x), A row-major (n rows of m), in two nests: tmp = A x (a row
 * over the threads of a warp), then y = A^T tmp (one y[j] per thread). */
void atax(int n, int m, const double *A, const double *x, double *y, double *tmp) {
    int i, j;
    /*@ begin PerfTuning (
    def performance_params {
        param TC[] = [64, 128];
    }
    def input_params {
        param n[] = [37, 64];
        param m[] = [43];
    }
    def input_vars {
        decl dynamic double A[n*m] = random;
        decl dynamic double x[m] = random;
        decl dynamic double y[m] = 0;
        decl dynamic double tmp[n] = 0;
    }
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto', threadCount=TC)
    for (i = 0; i < n; i++) {
        tmp[i] = 0.0;
        for (j = 0; j < m; j++)
            tmp[i] = tmp[i] + A[i*m + j] * x[j];
    }
    ) @*/
    for (i = 0; i < n; i++) {
        tmp[i] = 0.0;
        for (j = 0; j < m; j++)
            tmp[i] = tmp[i] + A[i*m + j] * x[j];
    }
    /*@ end @*/
    /*@ begin Loop(transform CUDA(mapping='auto', threadCount=TC)
    for (j = 0; j < m; j++) {
        y[j] = 0.0;
        for (i = 0; i < n; i++)
            y[j] = y[j] + A[i*m + j] * tmp[i];
    }
    ) @*/
    for (j = 0; j < m; j++) {
        y[j] = 0.0;
        for (i = 0; i < n; i++)
            y[j] = y[j] + A[i*m + j] * tmp[i];
    }
    /*@ end @*/
    /*@ end @*/
}
