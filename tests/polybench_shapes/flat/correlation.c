#include <math.h>
void kernel_correlation(int m, int n, double float_n, double *data, double *corr, double *mean, double *stddev)
{
  int i, j, k;
  double eps = 0.1;
  /*@ begin PerfTuning (
  def performance_params { }
  def input_params { param m[] = [28]; param n[] = [32]; }
  def input_vars { decl dynamic double data[n*m] = random; decl dynamic double corr[m*m] = 0; decl dynamic double mean[m] = 0; decl dynamic double stddev[m] = 0; decl double float_n = 32.0; }
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
   for (j = 0; j < m; j++)
    {
      stddev[j] = 0.0;
      for (i = 0; i < n; i++)
        stddev[j] += (data[i*m + j] - mean[j]) * (data[i*m + j] - mean[j]);
      stddev[j] /= float_n;
      stddev[j] = sqrt(stddev[j]);
      stddev[j] = stddev[j] <= eps ? 1.0 : stddev[j];
    }
  ) @*/
  /*@ end @*/
  /*@ begin Loop(transform CUDA(mapping='auto')
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      {
        data[i*m + j] -= mean[j];
        data[i*m + j] /= sqrt(float_n) * stddev[j];
      }
  ) @*/
  /*@ end @*/
  /*@ begin Loop(transform CUDA(mapping='auto')
  for (i = 0; i < m-1; i++)
    {
      corr[i*m + i] = 1.0;
      for (j = i+1; j < m; j++)
        {
          corr[i*m + j] = 0.0;
          for (k = 0; k < n; k++)
            corr[i*m + j] += (data[k*m + i] * data[k*m + j]);
          corr[j*m + i] = corr[i*m + j];
        }
    }
  ) @*/
  /*@ end @*/
  /*@ end @*/
  corr[(m-1)*m + m-1] = 1.0;
}
