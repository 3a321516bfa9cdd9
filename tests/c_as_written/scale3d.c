/* A 3-D array kernel: each element from its neighbours along the last two axes. */
void scale3d(int r, int q, int p, const double A[r][q][p], double B[r][q][p])
{
    /*@ begin PerfTuning (
    def performance_params { }
    def input_params { param r[] = [5]; param q[] = [9]; param p[] = [11]; }
    def input_vars { decl dynamic double A[r][q][p] = random; decl dynamic double B[r][q][p] = 0; }
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto')
    for (int i = 0; i < r; i++)
        for (int j = 1; j < q; j++)
            for (int k = 1; k < p; k++)
                B[i][j][k] = 0.5 * A[i][j][k] + 0.25 * (A[i][j - 1][k] + A[i][j][k - 1]);
    ) @*/
    /*@ end @*/
    /*@ end @*/
}
