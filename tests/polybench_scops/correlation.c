#include <math.h>
void kernel_correlation(int m, int n, double float_n, double data[n][m], double corr[m][m], double mean[m], double stddev[m])
{
  int i, j, k;
  double eps = 0.1;
  /*@ begin PerfTuning (
  def performance_params { }
  def input_params { param m[] = [28]; param n[] = [32]; }
  def input_vars { decl dynamic double data[n][m] = random; decl dynamic double corr[m][m] = 0; decl dynamic double mean[m] = 0; decl dynamic double stddev[m] = 0; decl double float_n = 32.0; }
  ) @*/
  /*@ begin Loop(transform CUDA(mapping='auto')
  for (j = 0; j < m; j++)
    {
      mean[j] = 0.0;
      for (i = 0; i < n; i++)
        mean[j] += data[i][j];
      mean[j] /= float_n;
    }
  for (j = 0; j < m; j++)
    {
      stddev[j] = 0.0;
      for (i = 0; i < n; i++)
        stddev[j] += (data[i][j] - mean[j]) * (data[i][j] - mean[j]);
      stddev[j] /= float_n;
      stddev[j] = sqrt(stddev[j]);
      stddev[j] = stddev[j] <= eps ? 1.0 : stddev[j];
    }
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      {
        data[i][j] -= mean[j];
        data[i][j] /= sqrt(float_n) * stddev[j];
      }
  for (i = 0; i < m-1; i++)
    {
      corr[i][i] = 1.0;
      for (j = i+1; j < m; j++)
        {
          corr[i][j] = 0.0;
          for (k = 0; k < n; k++)
            corr[i][j] += (data[k][i] * data[k][j]);
          corr[j][i] = corr[i][j];
        }
    }
  ) @*/
  /*@ end @*/
  /*@ end @*/
  corr[m-1][m-1] = 1.0;
}
