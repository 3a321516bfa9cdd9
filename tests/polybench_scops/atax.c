void kernel_atax(int m, int n, double A[m][n], double x[n], double y[n], double tmp[m])
{
  int i, j;
  /*@ begin PerfTuning (
  def performance_params { }
  def input_params { param m[] = [38]; param n[] = [42]; }
  def input_vars { decl dynamic double A[m][n] = random; decl dynamic double x[n] = random; decl dynamic double y[n] = 0; decl dynamic double tmp[m] = 0; }
  ) @*/
  /*@ begin Loop(transform CUDA(mapping='auto')
  for (i = 0; i < n; i++)
    y[i] = 0;
  for (i = 0; i < m; i++)
    {
      tmp[i] = 0.0;
      for (j = 0; j < n; j++)
        tmp[i] = tmp[i] + A[i][j] * x[j];
      for (j = 0; j < n; j++)
        y[j] = y[j] + A[i][j] * tmp[i];
    }
  ) @*/
  /*@ end @*/
  /*@ end @*/
}
