void kernel_symm(int m, int n, double alpha, double beta, double C[m][n], double A[m][m], double B[m][n])
{
  int i, j, k;
  double temp2;
  /*@ begin PerfTuning (
  def performance_params { }
  def input_params { param m[] = [20]; param n[] = [30]; }
  def input_vars { decl dynamic double C[m][n] = random; decl dynamic double A[m][m] = random; decl dynamic double B[m][n] = random; decl double alpha = 1.5; decl double beta = 1.2; }
  ) @*/
  /*@ begin Loop(transform CUDA(mapping='auto')
  for (i = 0; i < m; i++)
     for (j = 0; j < n; j++ )
     {
       temp2 = 0;
       for (k = 0; k < i; k++) {
          C[k][j] += alpha*B[i][j] * A[i][k];
          temp2 += B[k][j] * A[i][k];
       }
       C[i][j] = beta * C[i][j] + alpha*B[i][j] * A[i][i] + alpha * temp2;
    }
  ) @*/
  /*@ end @*/
  /*@ end @*/
}
