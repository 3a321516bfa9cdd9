void kernel_heat_3d(int tsteps, int n, double *A, double *B)
{
  int t, i, j, k;
  /*@ begin PerfTuning (
  def performance_params { }
  def input_params { param tsteps[] = [3]; param n[] = [12]; }
  def input_vars { decl dynamic double A[n*n*n] = random; decl dynamic double B[n*n*n] = random; }
  ) @*/
  /*@ begin Loop(
  for (t = 1; t <= tsteps; t++) {
      transform CUDA(mapping='auto')
      for (i = 1; i < n-1; i++)
          for (j = 1; j < n-1; j++)
              for (k = 1; k < n-1; k++)
                  B[(i*n + j)*n + k] = 0.125 * (A[((i+1)*n + j)*n + k] - 2.0 * A[(i*n + j)*n + k] + A[((i-1)*n + j)*n + k])
                             + 0.125 * (A[(i*n + j+1)*n + k] - 2.0 * A[(i*n + j)*n + k] + A[(i*n + j-1)*n + k])
                             + 0.125 * (A[(i*n + j)*n + k+1] - 2.0 * A[(i*n + j)*n + k] + A[(i*n + j)*n + k-1])
                             + A[(i*n + j)*n + k];
      transform CUDA(mapping='auto')
      for (i = 1; i < n-1; i++)
          for (j = 1; j < n-1; j++)
              for (k = 1; k < n-1; k++)
                  A[(i*n + j)*n + k] = 0.125 * (B[((i+1)*n + j)*n + k] - 2.0 * B[(i*n + j)*n + k] + B[((i-1)*n + j)*n + k])
                             + 0.125 * (B[(i*n + j+1)*n + k] - 2.0 * B[(i*n + j)*n + k] + B[(i*n + j-1)*n + k])
                             + 0.125 * (B[(i*n + j)*n + k+1] - 2.0 * B[(i*n + j)*n + k] + B[(i*n + j)*n + k-1])
                             + B[(i*n + j)*n + k];
  }
  ) @*/
  /*@ end @*/
  /*@ end @*/
}
