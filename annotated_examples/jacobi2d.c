/* One sweep of the 2-D 5-point Jacobi stencil on an n x n row-major grid: b from a.
 * A 2-D grid of threads, thread x along the rows, asked for by hand (threadLoops). */
void jacobi2d(int n, const double *a, double *b) {
    int i, j;
    /*@ begin PerfTuning (
    def performance_params {
        param TC[] = [64, 128, 256];
    }
    def input_params {
        param n[] = [37, 66];
    }
    def input_vars {
        decl dynamic double a[n*n] = random;
        decl dynamic double b[n*n] = 0;
    }
    ) @*/
    /*@ begin Loop(transform CUDA(threadLoops=['j', 'i'], threadCount=TC)
    for (i = 1; i < n - 1; i++)
        for (j = 1; j < n - 1; j++)
            b[i*n + j] = 0.2 * (a[i*n + j] + a[i*n + j - 1] + a[i*n + j + 1] + a[(i - 1)*n + j] + a[(i + 1)*n + j]);
    ) @*/
    for (i = 1; i < n - 1; i++)
        for (j = 1; j < n - 1; j++)
            b[i*n + j] = 0.2 * (a[i*n + j] + a[i*n + j - 1] + a[i*n + j + 1] + a[(i - 1)*n + j] + a[(i + 1)*n + j]);
    /*@ end @*/
    /*@ end @*/
}
