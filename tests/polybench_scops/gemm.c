void kernel_gemm(int ni, int nj, int nk, double alpha, double beta, double C[ni][nj], double A[ni][nk], double B[nk][nj])
{
  int i, j, k;
  /*@ begin PerfTuning (
  def performance_params { }
  def input_params { param ni[] = [20]; param nj[] = [25]; param nk[] = [30]; }
  def input_vars { decl dynamic double C[ni][nj] = random; decl dynamic double A[ni][nk] = random; decl dynamic double B[nk][nj] = random; decl double alpha = 1.5; decl double beta = 1.2; }
  ) @*/
  /*@ begin Loop(transform CUDA(mapping='auto')
  for (i = 0; i < ni; i++) {
    for (j = 0; j < nj; j++)
      C[i][j] *= beta;
    for (k = 0; k < nk; k++) {
       for (j = 0; j < nj; j++)
          C[i][j] += alpha * A[i][k] * B[k][j];
    }
  }
  ) @*/
  /*@ end @*/
  /*@ end @*/
}
