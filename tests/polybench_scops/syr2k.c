void kernel_syr2k(int n, int m, double alpha, double beta, double C[n][n], double A[n][m], double B[n][m])
{
    int i, j, k;
    /*@ begin PerfTuning (
    def performance_params { }
    def input_params { param n[] = [30]; param m[] = [21]; }
    def input_vars {
        decl dynamic double C[n][n] = random; decl dynamic double A[n][m] = random; decl dynamic double B[n][m] = random;
        decl double alpha = 1.5; decl double beta = 1.2;
    }
    ) @*/
  /*@ begin Loop(transform CUDA(mapping='auto')
  for (i = 0; i < n; i++) {
      for (j = 0; j <= i; j++)
        C[i][j] *= beta;
      for (k = 0; k < m; k++)
        for (j = 0; j <= i; j++)
          C[i][j] += A[j][k] * alpha * B[i][k] + B[j][k] * alpha * A[i][k];
    }
  ) @*/
  /*@ end @*/
    /*@ end @*/
}
