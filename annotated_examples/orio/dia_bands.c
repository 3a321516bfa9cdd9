/* Three diagonals stored one after another (dia[i], dia[i + n], dia[i + 2*n]): for 0 <= i < n
   the bands never meet, so every iteration of 'i' writes elements of its own. */
void tridiag(int n, double *dia, double *x, double *y) {
    int i;
    /*@ begin PerfTuning (
    def performance_params { param TC[] = [32, 64]; }
    def input_params { param n[] = [1000]; }
    def input_vars { decl dynamic double dia[3*n] = random; decl dynamic double x[n] = random; decl dynamic double y[3*n] = 0; }
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC, blockCount=4)
    for (i = 0; i <= n - 1; i++) {
        y[i] = dia[i] * x[i];
        y[i + n] = dia[i + n] * x[i];
        y[i + 2*n] = y[i] + y[i + n] + dia[i + 2*n];
    }
    ) @*/
    /*@ end @*/
    /*@ end @*/
}
