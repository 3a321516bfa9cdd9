/* Sparse matrix-vector product y += A*x with A in DIA format: the annotated
 * example of the OrCuda paper (Mametjanov et al., Figure 3), for current GPUs. */
void MatMult_SeqDia(double* A, double* x, double* y, int* offsets,
                    int m, int n, int nos, int dof) {
    int i, j, col;
    /*@ begin PerfTuning (
    def performance_params {
        param TC[] = range(32, 1025, 32);
        param BC[] = [device_sms * k for k in [1, 2, 4, 8]];  # Fermi had 14 SMs; the GPU's own count
        param UIF[] = range(1, 6);
        param PL[] = [16, 48];
        param CFLAGS[] = map(join, product(['', '-use_fast_math'],
                                           ['', '-O1', '-O2', '-O3']));
    }
    def input_params {
        param m[] = [32, 64, 128, 256, 512];
        param n[] = [32, 64, 128, 256, 512];
        param nos = 5;
        param dof = 1;
        constraint sq = (m == n);
    }
    def input_vars {
        decl static double A[m*n*nos*dof] = random;
        decl static double x[m*n*dof] = random;
        decl static double y[m*n*dof] = 0;
        decl static int offsets[nos] = {-m*dof, -dof, 0, dof, m*dof};
    }
    def build {
        arg build_command = 'nvcc -O3 @CFLAGS';
    }
    def performance_counter {
        arg repetitions = 5;
    }
    ) @*/
    int nrows = m*n;
    int ndiags = nos;
    /*@ begin Loop(transform CUDA(threadCount=TC, blockCount=BC,
                                  preferL1Size=PL, unrollInner=UIF)
    for (i = 0; i <= nrows-1; i++) {
        for (j = 0; j <= ndiags-1; j++) {
            col = i + offsets[j];
            if (col >= 0 && col < nrows)
                y[i] += A[i + j*nrows] * x[col];
        }
    }
    ) @*/
    for (i = 0; i <= nrows-1; i++) {
        for (j = 0; j <= ndiags-1; j++) {
            col = i + offsets[j];
            if (col >= 0 && col < nrows)
                y[i] += A[i + j*nrows] * x[col];
        }
    }
    /*@ end @*/
    /*@ end @*/
}
