/* A five-point stencil with its weight a constant declared in the nest. */
void smooth(int n, int m, const double A[n][m], double B[n][m])
{
    int i, j;
    /*@ begin PerfTuning (
    def performance_params { }
    def input_params { param n[] = [21]; param m[] = [23]; }
    def input_vars { decl dynamic double A[n][m] = random; decl dynamic double B[n][m] = 0; }
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto')
    for (i = 1; i < n - 1; i++)
        for (j = 1; j < m - 1; j++) {
            const double c = 0.2;
            B[i][j] = c * (A[i][j] + A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1]);
        }
    ) @*/
    /*@ end @*/
    /*@ end @*/
}
