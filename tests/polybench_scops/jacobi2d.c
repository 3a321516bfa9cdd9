void kernel_jacobi_2d(int tsteps, int n, double A[n][n], double B[n][n])
{
  int t, i, j;
  /*@ begin PerfTuning (
  def performance_params { }
  def input_params { param tsteps[] = [4]; param n[] = [30]; }
  def input_vars { decl dynamic double A[n][n] = random; decl dynamic double B[n][n] = random; }
  ) @*/
  /*@ begin Loop(transform CUDA(mapping='auto')
  for (t = 0; t < tsteps; t++)
    {
      for (i = 1; i < n - 1; i++)
        for (j = 1; j < n - 1; j++)
          B[i][j] = 0.2 * (A[i][j] + A[i][j-1] + A[i][1+j] + A[1+i][j] + A[i-1][j]);
      for (i = 1; i < n - 1; i++)
        for (j = 1; j < n - 1; j++)
          A[i][j] = 0.2 * (B[i][j] + B[i][j-1] + B[i][1+j] + B[1+i][j] + B[i-1][j]);
    }
  ) @*/
  /*@ end @*/
  /*@ end @*/
}
