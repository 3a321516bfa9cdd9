/* Orio's inputs often leave loop iterators undeclared: they are int, as Orio takes them. */
void scale2d(int m, int n, double a, double *A) {
    /*@ begin PerfTuning (
    def performance_params { param TC[] = [32, 128]; }
    def input_params { param m[] = [64]; param n[] = [48]; }
    def input_vars { decl dynamic double A[m*n] = random; decl double a = 1.5; }
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC, blockCount=8)
    for (i = 0; i <= m - 1; i++)
        for (j = 0; j <= n - 1; j++)
            A[i*n + j] = a * A[i*n + j];
    ) @*/
    /*@ end @*/
    /*@ end @*/
}
