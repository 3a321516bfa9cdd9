void kernel_covariance(int m, int n, double float_n, double *data, double *cov, double *mean)
{
  int i, j, k;
  /*@ begin PerfTuning (
  def performance_params { }
  def input_params { param m[] = [28]; param n[] = [32]; }
  def input_vars { decl dynamic double data[n*m] = random; decl dynamic double cov[m*m] = 0; decl dynamic double mean[m] = 0; decl double float_n = 32.0; }
  ) @*/
  /*@ begin Loop(transform CUDA(mapping='auto')
  for (j = 0; j < m; j++)
    {
      mean[j] = 0.0;
      for (i = 0; i < n; i++)
        mean[j] += data[i*m + j];
      mean[j] /= float_n;
    }
  ) @*/
  /*@ end @*/
  /*@ begin Loop(transform CUDA(mapping='auto')
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      data[i*m + j] -= mean[j];
  ) @*/
  /*@ end @*/
  /*@ begin Loop(transform CUDA(mapping='auto')
  for (i = 0; i < m; i++)
    for (j = i; j < m; j++)
      {
        cov[i*m + j] = 0.0;
        for (k = 0; k < n; k++)
          cov[i*m + j] += data[k*m + i] * data[k*m + j];
        cov[i*m + j] /= (float_n - 1.0);
        cov[j*m + i] = cov[i*m + j];
      }
  ) @*/
  /*@ end @*/
  /*@ end @*/
}
