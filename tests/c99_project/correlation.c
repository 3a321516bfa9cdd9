/* PolyBench's correlation, its last nest: each row's sums below the diagonal, mirrored above it
   (a thread's rows i and i + 256 each keep their own sum in a register). */
void correlation(int m, int n, const double data[n][m], double corr[m][m])
{
    int i, j, k;
    /*@ begin PerfTuning (
    def performance_params { }
    def input_params { param m[] = [28]; param n[] = [32]; }
    def input_vars { decl dynamic double data[n][m] = random; decl dynamic double corr[m][m] = 0; }
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto')
    for (i = 0; i < m - 1; i++) {
        corr[i][i] = 1.0;
        for (j = i + 1; j < m; j++) {
            corr[i][j] = 0.0;
            for (k = 0; k < n; k++)
                corr[i][j] += data[k][i] * data[k][j];
            corr[j][i] = corr[i][j];
        }
    }
    ) @*/
    for (i = 0; i < m - 1; i++) {
        corr[i][i] = 1.0;
        for (j = i + 1; j < m; j++) {
            corr[i][j] = 0.0;
            for (k = 0; k < n; k++)
                corr[i][j] += data[k][i] * data[k][j];
            corr[j][i] = corr[i][j];
        }
    }
    /*@ end @*/
    /*@ end @*/
}
