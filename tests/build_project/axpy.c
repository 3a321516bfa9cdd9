void axpy(int n, double a, const double *x, double *y) {
    int i;
    /*@ begin PerfTuning (
    def performance_params { param TC[] = [32, 64]; }
    def input_params { param n[] = [1000]; }
    def input_vars { decl dynamic double x[n] = random; decl dynamic double y[n] = random; decl double a = 2.0; }
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC, blockCount=4)
    for (i = 0; i <= n - 1; i++)
        y[i] = a * x[i] + y[i];
    ) @*/
    for (i = 0; i <= n - 1; i++)
        y[i] = a * x[i] + y[i];
    /*@ end @*/
    /*@ end @*/
}
