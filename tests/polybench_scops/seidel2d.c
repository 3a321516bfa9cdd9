void kernel_seidel_2d(int tsteps, int n, double A[n][n])
{
    int t, i, j;
    /*@ begin PerfTuning (
    def performance_params { }
    def input_params { param tsteps[] = [2]; param n[] = [20]; }
    def input_vars { decl dynamic double A[n][n] = random; }
    ) @*/
  /*@ begin Loop(transform CUDA(mapping='auto')
  for (t = 0; t <= tsteps - 1; t++)
    for (i = 1; i <= n - 2; i++)
      for (j = 1; j <= n - 2; j++)
        A[i][j] = (A[i-1][j-1] + A[i-1][j] + A[i-1][j+1] + A[i][j-1] + A[i][j] + A[i][j+1]
                   + A[i+1][j-1] + A[i+1][j] + A[i+1][j+1]) / 9.0;
  ) @*/
  /*@ end @*/
    /*@ end @*/
}
