/* C = alpha A B + beta C, all row-major n x n: a 2-D grid over C, thread x along its rows;
 * each block covers TI rows and TJ columns of C. */
void dgemm(int n, double alpha, double beta, const double *A, const double *B, double *C) {
    int i, j, k;
    double sum;
    /*@ begin PerfTuning (
    def performance_params {
        param TI[] = [4, 8];
        param TJ[] = [16, 32];
    }
    def input_params {
        param n[] = [37, 64];
    }
    def input_vars {
        decl dynamic double A[n*n] = random;
        decl dynamic double B[n*n] = random;
        decl dynamic double C[n*n] = random;
        decl double alpha = 1.5;
        decl double beta = 0.5;
    }
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto', tile={'i': TI, 'j': TJ})
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            sum = 0.0;
            for (k = 0; k < n; k++)
                sum += A[i*n + k] * B[k*n + j];
            C[i*n + j] = alpha * sum + beta * C[i*n + j];
        }
    ) @*/
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            sum = 0.0;
            for (k = 0; k < n; k++)
                sum += A[i*n + k] * B[k*n + j];
            C[i*n + j] = alpha * sum + beta * C[i*n + j];
        }
    /*@ end @*/
    /*@ end @*/
}
