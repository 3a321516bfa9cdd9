/* PolyBench's gemm as a C99 prototype (const, restrict), the sum in a local of the nest. */
void gemm(int ni, int nj, int nk, double alpha, double C[ni][nj], const double A[restrict ni][nk],
          const double B[restrict nk][nj])
{
    int i, j, k;
    /*@ begin PerfTuning (
    def performance_params { }
    def input_params { param ni[] = [33]; param nj[] = [40]; param nk[] = [27]; }
    def input_vars {
        decl dynamic double A[ni][nk] = random;
        decl dynamic double B[nk][nj] = random;
        decl dynamic double C[ni][nj] = random;
        decl double alpha = 1.5;
    }
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto')
    for (i = 0; i < ni; i++)
        for (j = 0; j < nj; j++) {
            double s = 0.0;
            for (k = 0; k < nk; k++)
                s += A[i][k] * B[k][j];
            C[i][j] = alpha * s;
        }
    ) @*/
    for (i = 0; i < ni; i++)
        for (j = 0; j < nj; j++) {
            double s = 0.0;
            for (k = 0; k < nk; k++)
                s += A[i][k] * B[k][j];
            C[i][j] = alpha * s;
        }
    /*@ end @*/
    /*@ end @*/
}
