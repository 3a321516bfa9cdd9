/* Orio's style: the size N is a macro the build defines. */
void scale(double *x) {
    int i;
    /*@ begin PerfTuning (
    def performance_params { param TC[] = [32, 64]; }
    def input_params { param N[] = [1000]; }
    def input_vars { decl dynamic double x[N] = random; }
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC, blockCount=4)
    for (i = 0; i <= N - 1; i++)
        x[i] = 3.0 * x[i];
    ) @*/
    for (i = 0; i <= N - 1; i++)
        x[i] = 3.0 * x[i];
    /*@ end @*/
    /*@ end @*/
}
