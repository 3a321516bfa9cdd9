/* streamCount as Orio's tests set it: any positive number of streams (CUDA sets no limit). */
void vecxpy(int n, double *x, double *y) {
    int i;
    /*@ begin PerfTuning (
    def performance_params { param SC[] = [2, 30]; }
    def input_params { param n[] = [3000]; }
    def input_vars { decl dynamic double x[n] = random; decl dynamic double y[n] = random; }
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=64, blockCount=30, streamCount=SC)
    for (i = 0; i <= n - 1; i++)
        y[i] = x[i] + y[i];
    ) @*/
    /*@ end @*/
    /*@ end @*/
}
