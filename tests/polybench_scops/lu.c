void kernel_lu(int n, double A[n][n])
{
  int i, j, k;
  /*@ begin PerfTuning (
  def performance_params { }
  def input_params { param n[] = [20]; }
  def input_vars { decl dynamic double A[n][n] = random; }
  ) @*/
  /*@ begin Loop(transform CUDA(mapping='auto')
  for (k = 0; k < n; k++) {
      for (j = k + 1; j < n; j++)
        A[k][j] = A[k][j] / A[k][k];
      for (i = k + 1; i < n; i++)
        for (j = k + 1; j < n; j++)
          A[i][j] = A[i][j] - A[i][k] * A[k][j];
    }
  ) @*/
  /*@ end @*/
  /*@ end @*/
}
