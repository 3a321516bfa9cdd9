void kernel_jacobi_2d(int tsteps, int n, double *A, double *B)
{
  int t, i, j;
  /*@ begin PerfTuning (
  def performance_params { }
  def input_params { param tsteps[] = [4]; param n[] = [30]; }
  def input_vars { decl dynamic double A[n*n] = random; decl dynamic double B[n*n] = random; }
  ) @*/
  /*@ begin Loop(
  for (t = 0; t < tsteps; t++)
    {
      transform CUDA(mapping='auto')
      for (i = 1; i < n - 1; i++)
        for (j = 1; j < n - 1; j++)
          B[i*n + j] = 0.2 * (A[i*n + j] + A[i*n + j-1] + A[i*n + 1+j] + A[(1+i)*n + j] + A[(i-1)*n + j]);
      transform CUDA(mapping='auto')
      for (i = 1; i < n - 1; i++)
        for (j = 1; j < n - 1; j++)
          A[i*n + j] = 0.2 * (B[i*n + j] + B[i*n + j-1] + B[i*n + 1+j] + B[(1+i)*n + j] + B[(i-1)*n + j]);
    }
  ) @*/
  /*@ end @*/
  /*@ end @*/
}
