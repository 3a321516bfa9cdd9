void kernel_2mm(int ni, int nj, int nk, int nl, double alpha, double beta, double tmp[ni][nj], double A[ni][nk],
                double B[nk][nj], double C[nj][nl], double D[ni][nl])
{
    int i, j, k;
    /*@ begin PerfTuning (
    def performance_params { }
    def input_params { param ni[] = [16]; param nj[] = [18]; param nk[] = [22]; param nl[] = [24]; }
    def input_vars {
        decl dynamic double tmp[ni][nj] = 0; decl dynamic double A[ni][nk] = random; decl dynamic double B[nk][nj] = random;
        decl dynamic double C[nj][nl] = random; decl dynamic double D[ni][nl] = random; decl double alpha = 1.5; decl double beta = 1.2;
    }
    ) @*/
  /*@ begin Loop(transform CUDA(mapping='auto')
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++) {
        tmp[i][j] = 0.0;
        for (k = 0; k < nk; ++k)
            tmp[i][j] += alpha * A[i][k] * B[k][j];
    }
  for (i = 0; i < ni; i++)
    for (j = 0; j < nl; j++) {
        D[i][j] *= beta;
        for (k = 0; k < nj; ++k)
            D[i][j] += tmp[i][k] * C[k][j];
    }
  ) @*/
  /*@ end @*/
    /*@ end @*/
}
