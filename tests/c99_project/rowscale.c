/* A pointer to rows of run-time length and a 1-D array parameter of run-time extent. */
void rowscale(int n, const double x[n], double (*A)[n])
{
    int i, j;
    /*@ begin PerfTuning (
    def performance_params { param TC[] = [32, 64]; }
    def input_params { param n[] = [45]; }
    def input_vars { decl dynamic double x[n] = random; decl dynamic double A[n][n] = random; }
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC)
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            A[i][j] = A[i][j] * x[i] + x[j];
    ) @*/
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            A[i][j] = A[i][j] * x[i] + x[j];
    /*@ end @*/
    /*@ end @*/
}
