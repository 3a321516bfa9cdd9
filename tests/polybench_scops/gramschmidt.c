#include <math.h>
void kernel_gramschmidt(int m, int n, double A[m][n], double R[n][n], double Q[m][n])
{
  int i, j, k;
  double nrm;
  /*@ begin PerfTuning (
  def performance_params { }
  def input_params { param m[] = [30]; param n[] = [20]; }
  def input_vars { decl dynamic double A[m][n] = random; decl dynamic double R[n][n] = 0; decl dynamic double Q[m][n] = 0; }
  ) @*/
  /*@ begin Loop(transform CUDA(mapping='auto')
  for (k = 0; k < n; k++)
    {
      nrm = 0.0;
      for (i = 0; i < m; i++)
        nrm += A[i][k] * A[i][k];
      R[k][k] = sqrt(nrm);
      for (i = 0; i < m; i++)
        Q[i][k] = A[i][k] / R[k][k];
      for (j = k + 1; j < n; j++)
        {
          R[k][j] = 0.0;
          for (i = 0; i < m; i++)
            R[k][j] += Q[i][k] * A[i][j];
          for (i = 0; i < m; i++)
            A[i][j] = A[i][j] - Q[i][k] * R[k][j];
        }
    }
  ) @*/
  /*@ end @*/
  /*@ end @*/
}
