/* A time-stepped stencil: the loop over t stays on the host and launches both kernels at every
   step; the arrays go to the device once before the steps and come back once after them. */
void jacobi1d(int T, int n, double *a, double *b) {
    int t, i, j;
    /*@ begin PerfTuning (
    def performance_params { param TC[] = [32, 128]; }
    def input_params { param T[] = [6]; param n[] = [3000]; }
    def input_vars { decl dynamic double a[n] = random; decl dynamic double b[n] = 0; }
    ) @*/
    /*@ begin Loop(
    for (t = 0; t <= T - 1; t++) {
        transform CUDA(threadCount=TC, blockCount=16)
        for (i = 1; i <= n - 2; i++)
            b[i] = 0.33333 * (a[i - 1] + a[i] + a[i + 1]);
        transform CUDA(threadCount=TC, blockCount=16)
        for (j = 1; j <= n - 2; j++)
            a[j] = b[j];
    }
    ) @*/
    /*@ end @*/
    /*@ end @*/
}
