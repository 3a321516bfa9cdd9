void kernel_mvt(int n, double x1[n], double x2[n], double y_1[n], double y_2[n], double A[n][n])
{
    int i, j;
    /*@ begin PerfTuning (
    def performance_params { }
    def input_params { param n[] = [40]; }
    def input_vars {
        decl dynamic double x1[n] = random; decl dynamic double x2[n] = random; decl dynamic double y_1[n] = random;
        decl dynamic double y_2[n] = random; decl dynamic double A[n][n] = random;
    }
    ) @*/
  /*@ begin Loop(transform CUDA(mapping='auto')
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
        x1[i] = x1[i] + A[i][j] * y_1[j];
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
        x2[i] = x2[i] + A[j][i] * y_2[j];
  ) @*/
  /*@ end @*/
    /*@ end @*/
}
