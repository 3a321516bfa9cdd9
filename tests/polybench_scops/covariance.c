void kernel_covariance(int m, int n, double float_n, double data[n][m], double cov[m][m], double mean[m])
{
  int i, j, k;
  /*@ begin PerfTuning (
  def performance_params { }
  def input_params { param m[] = [28]; param n[] = [32]; }
  def input_vars { decl dynamic double data[n][m] = random; decl dynamic double cov[m][m] = 0; decl dynamic double mean[m] = 0; decl double float_n = 32.0; }
  ) @*/
  /*@ begin Loop(transform CUDA(mapping='auto')
  for (j = 0; j < m; j++)
    {
      mean[j] = 0.0;
      for (i = 0; i < n; i++)
        mean[j] += data[i][j];
      mean[j] /= float_n;
    }
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      data[i][j] -= mean[j];
  for (i = 0; i < m; i++)
    for (j = i; j < m; j++)
      {
        cov[i][j] = 0.0;
        for (k = 0; k < n; k++)
          cov[i][j] += data[k][i] * data[k][j];
        cov[i][j] /= (float_n - 1.0);
        cov[j][i] = cov[i][j];
      }
  ) @*/
  /*@ end @*/
  /*@ end @*/
}
