/* PolyBench gesummv: y = alpha A x + beta B x, A and B row-major n x n: each row over the
 * threads of a warp, two sums folded at once. */
void gesummv(int n, double alpha, double beta, const double *A, const double *B, const double *x, double *y, double *tmp) {
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
        decl dynamic double B[n*n] = random;
        decl dynamic double x[n] = random;
        decl dynamic double y[n] = 0;
        decl dynamic double tmp[n] = 0;
        decl double alpha = 1.5;
        decl double beta = 1.2;
    }
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto', threadCount=TC)
    for (i = 0; i < n; i++) {
        tmp[i] = 0.0;
        y[i] = 0.0;
        for (j = 0; j < n; j++) {
            tmp[i] = A[i*n + j] * x[j] + tmp[i];
            y[i] = B[i*n + j] * x[j] + y[i];
        }
        y[i] = alpha * tmp[i] + beta * y[i];
    }
    ) @*/
    for (i = 0; i < n; i++) {
        tmp[i] = 0.0;
        y[i] = 0.0;
        for (j = 0; j < n; j++) {
            tmp[i] = A[i*n + j] * x[j] + tmp[i];
            y[i] = B[i*n + j] * x[j] + y[i];
        }
        y[i] = alpha * tmp[i] + beta * y[i];
    }
    /*@ end @*/
    /*@ end @*/
}
