/* doitgen's shape: a 3-D array summed along its last axis into a 2-D one. */
void sum3d(int r, int q, int p, const double A[r][q][p], double s[r][q])
{
    int i, j, k;
    /*@ begin PerfTuning (
    def performance_params { }
    def input_params { param r[] = [9]; param q[] = [11]; param p[] = [13]; }
    def input_vars { decl dynamic double A[r][q][p] = random; decl dynamic double s[r][q] = 0; }
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto')
    for (i = 0; i < r; i++)
        for (j = 0; j < q; j++) {
            s[i][j] = 0.0;
            for (k = 0; k < p; k++)
                s[i][j] += A[i][j][k];
        }
    ) @*/
    for (i = 0; i < r; i++)
        for (j = 0; j < q; j++) {
            s[i][j] = 0.0;
            for (k = 0; k < p; k++)
                s[i][j] += A[i][j][k];
        }
    /*@ end @*/
    /*@ end @*/
}
