/* Scalars each iteration sets before it reads them are private to it: a sum started anew in
   every iteration of 'j', and a value set on both branches of an 'if'. */
void matvec_abs(int n, double *A, double *x, double *y) {
    int i, j;
    double s, t;
    /*@ begin PerfTuning (
    def performance_params { param TC[] = [32, 64]; }
    def input_params { param n[] = [200]; }
    def input_vars { decl dynamic double A[n*n] = random; decl dynamic double x[n] = random; decl dynamic double y[n] = 0; }
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC, blockCount=4)
    for (j = 0; j <= n - 1; j++) {
        s = 0.0;
        for (i = 0; i <= n - 1; i++)
            s += A[j*n + i] * x[i];
        if (s > 0.0)
            t = s;
        else
            t = -s;
        y[j] = t;
    }
    ) @*/
    /*@ end @*/
    /*@ end @*/
}
