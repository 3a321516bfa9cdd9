/* PolyBench syr2k: the lower triangle of C = alpha (A B^T + B A^T) + beta C, C n x n and
 * A, B n x m, row-major. The inner loop's bound j <= i makes the grid triangular. */
void syr2k(int n, int m, double alpha, double beta, const double *A, const double *B, double *C) {
    int i, j, k;
    /*@ begin PerfTuning (
    def performance_params {
        param TC[] = [64, 128];
    }
    def input_params {
        param n[] = [37, 64];
        param m[] = [29];
    }
    def input_vars {
        decl dynamic double A[n*m] = random;
        decl dynamic double B[n*m] = random;
        decl dynamic double C[n*n] = random;
        decl double alpha = 1.5;
        decl double beta = 1.2;
    }
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto', threadCount=TC)
    for (i = 0; i < n; i++)
        for (j = 0; j <= i; j++) {
            C[i*n + j] *= beta;
            for (k = 0; k < m; k++)
                C[i*n + j] += A[j*m + k] * alpha * B[i*m + k] + B[j*m + k] * alpha * A[i*m + k];
        }
    ) @*/
    for (i = 0; i < n; i++)
        for (j = 0; j <= i; j++) {
            C[i*n + j] *= beta;
            for (k = 0; k < m; k++)
                C[i*n + j] += A[j*m + k] * alpha * B[i*m + k] + B[j*m + k] * alpha * A[i*m + k];
        }
    /*@ end @*/
    /*@ end @*/
}
