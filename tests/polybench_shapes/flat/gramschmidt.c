#include <math.h>
void kernel_gramschmidt(int m, int n, double *A, double *R, double *Q)
{
  int i, j, k;
  double nrm;
  /*@ begin PerfTuning (
  def performance_params { }
  def input_params { param m[] = [30]; param n[] = [20]; }
  def input_vars { decl dynamic double A[m*n] = random; decl dynamic double R[n*n] = 0; decl dynamic double Q[m*n] = 0; }
  ) @*/
  /*@ begin Loop(
  for (k = 0; k < n; k++)
    {
      nrm = 0.0;
      transform CUDA(mapping='auto')
      for (i = 0; i < m; i++)
        nrm += A[i*n + k] * A[i*n + k];
      R[k*n + k] = sqrt(nrm);
      transform CUDA(mapping='auto')
      for (i = 0; i < m; i++)
        Q[i*n + k] = A[i*n + k] / R[k*n + k];
      transform CUDA(mapping='auto')
      for (j = k + 1; j < n; j++)
        {
          R[k*n + j] = 0.0;
          for (i = 0; i < m; i++)
            R[k*n + j] += Q[i*n + k] * A[i*n + j];
          for (i = 0; i < m; i++)
            A[i*n + j] = A[i*n + j] - Q[i*n + k] * R[k*n + j];
        }
    }
  ) @*/
  /*@ end @*/
  /*@ end @*/
}
