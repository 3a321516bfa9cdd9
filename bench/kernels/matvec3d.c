/* y += A*x for the 7-point stencil matrix of an m x n x p grid, stored by diagonals (DIA):
 * Orio's matVec3D shape, as the OrCuda paper tunes it, at a production size (128^3 rows,
 * 14.7 million matrix entries). bench/bench_emulation.py times its emulated evaluations;
 * tests/test_orio_inputs.py validates every variant of it. */
void MatMult_SeqDIA(double* A, double* x, double* y, int* offsets, int m, int n, int p, int nos, int dof) {
    int i, j, col;
    /*@ begin PerfTuning (
    def performance_params {
        param TC[] = [128, 256];
        param BC[] = [device_sms, 4 * device_sms];
        param UIF[] = [1, 2];
    }
    def input_params {
        param m[] = [128];
        param n[] = [128];
        param p[] = [128];
        param nos = 7;
        param dof = 1;
    }
    def input_vars {
        decl static double A[m*n*p*nos*dof] = random;
        decl static double x[m*n*p*dof] = random;
        decl static double y[m*n*p*dof] = 0;
        decl static int offsets[nos] = {-m*n*dof, -m*dof, -dof, 0, dof, m*dof, m*n*dof};
    }
    ) @*/
    int nrows = m*n*p;
    int ndiags = nos;
    /*@ begin Loop(transform CUDA(threadCount=TC, blockCount=BC, unrollInner=UIF)
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
