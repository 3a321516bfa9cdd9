void kernel_bicg(int m, int n, double A[n][m], double s[m], double q[n], double p[m], double r[n])
{
    int i, j;
    /*@ begin PerfTuning (
    def performance_params { }
    def input_params { param m[] = [38]; param n[] = [42]; }
    def input_vars {
        decl dynamic double A[n][m] = random; decl dynamic double s[m] = 0; decl dynamic double q[n] = 0;
        decl dynamic double p[m] = random; decl dynamic double r[n] = random;
    }
    ) @*/
  /*@ begin Loop(transform CUDA(mapping='auto')
  for (i = 0; i < m; i++)
    s[i] = 0;
  for (i = 0; i < n; i++)
    {
      q[i] = 0.0;
      for (j = 0; j < m; j++)
        {
          s[j] = s[j] + r[i] * A[i][j];
          q[i] = q[i] + A[i][j] * p[j];
        }
    }
  ) @*/
  /*@ end @*/
    /*@ end @*/
}
