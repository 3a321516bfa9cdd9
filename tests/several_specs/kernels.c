/* Three kernels of a solver side by side, each with a tuning spec of its own (Orio's form: the
   loops as written stay between the markers, for a build without orcu). */
void scale(int n, double a, double *x)
{
    int i;
    /*@ begin PerfTuning (
    def performance_params { param TC[] = [64, 128]; }
    def input_params { param n[] = [1000]; }
    def input_vars { decl dynamic double x[n] = random; decl double a = 3; }
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC)
    for (i = 0; i < n; i++)
        x[i] = a * x[i];
    ) @*/
    for (i = 0; i < n; i++)
        x[i] = a * x[i];
    /*@ end @*/
    /*@ end @*/
}

void matvec(int m, int n, double A[m][n], double x[n], double y[m])
{
    int i, j;
    /*@ begin PerfTuning (
    def performance_params { }
    def input_params { param m[] = [40]; param n[] = [33]; }
    def input_vars { decl dynamic double A[m][n] = random; decl dynamic double x[n] = random; decl dynamic double y[m] = 0; }
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto')
    for (i = 0; i < m; i++) {
        double s = 0;
        for (j = 0; j < n; j++)
            s += A[i][j] * x[j];
        y[i] = s;
    }
    ) @*/
    for (i = 0; i < m; i++) {
        double s = 0;
        for (j = 0; j < n; j++)
            s += A[i][j] * x[j];
        y[i] = s;
    }
    /*@ end @*/
    /*@ end @*/
}

void stencil(int n, float in[n][n], float out[n][n])
{
    int i, j;
    /*@ begin PerfTuning (
    def performance_params { param TC[] = [32, 256]; }
    def input_params { param n[] = [30]; }
    def input_vars { decl dynamic float in[n][n] = random; decl dynamic float out[n][n] = 0; }
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC)
    for (i = 1; i < n - 1; i++)
        for (j = 1; j < n - 1; j++)
            out[i][j] = 0.25f * (in[i-1][j] + in[i+1][j] + in[i][j-1] + in[i][j+1]);
    ) @*/
    for (i = 1; i < n - 1; i++)
        for (j = 1; j < n - 1; j++)
            out[i][j] = 0.25f * (in[i-1][j] + in[i+1][j] + in[i][j-1] + in[i][j+1]);
    /*@ end @*/
    /*@ end @*/
}
