void kernel_gesummv(int n, double alpha, double beta, double A[n][n], double B[n][n], double tmp[n], double x[n], double y[n])
{
    int i, j;
    /*@ begin PerfTuning (
    def performance_params { }
    def input_params { param n[] = [45]; }
    def input_vars {
        decl dynamic double A[n][n] = random; decl dynamic double B[n][n] = random; decl dynamic double tmp[n] = 0;
        decl dynamic double x[n] = random; decl dynamic double y[n] = 0; decl double alpha = 1.5; decl double beta = 1.2;
    }
    ) @*/
  /*@ begin Loop(transform CUDA(mapping='auto')
  for (i = 0; i < n; i++) {
        tmp[i] = 0.0;
        y[i] = 0.0;
        for (j = 0; j < n; j++) {
            tmp[i] = A[i][j] * x[j] + tmp[i];
            y[i] = B[i][j] * x[j] + y[i];
        }
        y[i] = alpha * tmp[i] + beta * y[i];
    }
  ) @*/
  /*@ end @*/
    /*@ end @*/
}
