/* Two loops of one Loop region, each with its own transform (Orio writes them so): each
   becomes a kernel, launched in order, and the arrays stay on the device between them. */
void waxpy_then_scale(int n, double a, double *x, double *y, double *w) {
    int i, j;
    /*@ begin PerfTuning (
    def performance_params { param TC1[] = [32, 128]; param TC2[] = [64, 256]; }
    def input_params { param n[] = [2000]; }
    def input_vars { decl dynamic double x[n] = random; decl dynamic double y[n] = random; decl dynamic double w[n] = 0; decl double a = 1.5; }
    ) @*/
    /*@ begin Loop(
    transform CUDA(threadCount=TC1, blockCount=8)
    for (i = 0; i <= n - 1; i++)
        w[i] = a * x[i] + y[i];
    transform CUDA(threadCount=TC2)
    for (j = 0; j <= n - 1; j++)
        y[j] = 2.0 * w[j];
    ) @*/
    /*@ end @*/
    /*@ end @*/
}
