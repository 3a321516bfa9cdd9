void kernel_trmm(int m, int n, double alpha, double A[m][m], double B[m][n])
{
  int i, j, k;
  /*@ begin PerfTuning (
  def performance_params { }
  def input_params { param m[] = [20]; param n[] = [30]; }
  def input_vars { decl dynamic double A[m][m] = random; decl dynamic double B[m][n] = random; decl double alpha = 1.5; }
  ) @*/
  /*@ begin Loop(transform CUDA(mapping='auto')
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++) {
       for (k = i+1; k < m; k++)
          B[i][j] += A[k][i] * B[k][j];
       B[i][j] = alpha * B[i][j];
    }
  ) @*/
  /*@ end @*/
  /*@ end @*/
}
