/* PolyBench mvt: x1 += A y1 and x2 += A^T y2, A row-major n x n, one nest each. */
void mvt(int n, const double *A, double *x1, double *x2, const double *y1, const double *y2) {
    int i, j;
    /*@ begin PerfTuning (
    def performance_params {
        param TC[] = [64, 128];
    }
    def input_params {
        param n[] = [37, 64];
    }
    def input_vars {
        decl dynamic double A[n*n] = random;
        decl dynamic double x1[n] = random;
        decl dynamic double x2[n] = random;
        decl dynamic double y1[n] = random;
        decl dynamic double y2[n] = random;
    }
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto', threadCount=TC)
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            x1[i] = x1[i] + A[i*n + j] * y1[j];
    ) @*/
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            x1[i] = x1[i] + A[i*n + j] * y1[j];
    /*@ end @*/
    /*@ begin Loop(transform CUDA(mapping='auto', threadCount=TC)
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            x2[i] = x2[i] + A[j*n + i] * y2[j];
    ) @*/
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            x2[i] = x2[i] + A[j*n + i] * y2[j];
    /*@ end @*/
    /*@ end @*/
}
