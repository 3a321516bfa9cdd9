void kernel_gemver(int n, double alpha, double beta, double A[n][n], double u1[n], double v1[n], double u2[n], double v2[n], double w[n], double x[n], double y[n], double z[n])
{
  int i, j;
  /*@ begin PerfTuning (
  def performance_params { }
  def input_params { param n[] = [40]; }
  def input_vars { decl dynamic double A[n][n] = random; decl dynamic double u1[n] = random; decl dynamic double v1[n] = random; decl dynamic double u2[n] = random; decl dynamic double v2[n] = random; decl dynamic double w[n] = 0; decl dynamic double x[n] = 0; decl dynamic double y[n] = random; decl dynamic double z[n] = random; decl double alpha = 1.5; decl double beta = 1.2; }
  ) @*/
  /*@ begin Loop(transform CUDA(mapping='auto')
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      A[i][j] = A[i][j] + u1[i] * v1[j] + u2[i] * v2[j];
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      x[i] = x[i] + beta * A[j][i] * y[j];
  for (i = 0; i < n; i++)
    x[i] = x[i] + z[i];
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      w[i] = w[i] +  alpha * A[i][j] * x[j];
  ) @*/
  /*@ end @*/
  /*@ end @*/
}
