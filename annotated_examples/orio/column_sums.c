/* s[j] accumulates over the outer loop 'i': Orio's mapping cannot spread 'i' over threads, but
   'j' is parallel, and the TSG makes it the loop the threads share. */
void colsum(int m, int n, double *r, double *A, double *s) {
    int i, j;
    /*@ begin PerfTuning (
    def performance_params { param TC[] = [32, 64]; }
    def input_params { param m[] = [150]; param n[] = [300]; }
    def input_vars { decl dynamic double r[m] = random; decl dynamic double A[m*n] = random; decl dynamic double s[n] = 0; }
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC, mapping='auto')
    for (i = 0; i <= m - 1; i++)
        for (j = 0; j <= n - 1; j++)
            s[j] += r[i] * A[i*n + j];
    ) @*/
    /*@ end @*/
    /*@ end @*/
}
