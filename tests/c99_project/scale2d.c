/* A 2-D array parameter with run-time extents, scaled in place. */
void scale2d(int n, int m, double A[n][m], double alpha)
{
    int i, j;
    /*@ begin PerfTuning (
    def performance_params { }
    def input_params { param n[] = [37]; param m[] = [29]; }
    def input_vars { decl dynamic double A[n][m] = random; decl double alpha = 1.5; }
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto')
    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++)
            A[i][j] *= alpha;
    ) @*/
    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++)
            A[i][j] *= alpha;
    /*@ end @*/
    /*@ end @*/
}
