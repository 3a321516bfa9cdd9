/* y += sum over k of a[k] * X_k, the nv vectors X_k stored one after another in X:
 * a nested loop whose inner loop is unrolled by the tuner. */
void multi_axpy(int n, int nv, const double *a, const double *X, double *y) {
    int i, k;
    /*@ begin PerfTuning (
    def performance_params {
        param TC[] = [128, 256, 512];
        param BC[] = [device_sms * f for f in [1, 2, 4, 8]];
        param UIF[] = range(1, 5);
        constraint unroll_divides = nv % UIF == 0 or UIF == 1;
    }
    def input_params {
        param n[] = [50000];
        param nv[] = [4, 6];
    }
    def input_vars {
        decl static double a[nv] = random;
        decl static double X[n*nv] = random;
        decl static double y[n] = 0;
    }
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC, blockCount=BC, unrollInner=UIF)
    for (i = 0; i <= n-1; i++)
        for (k = 0; k <= nv-1; k++)
            y[i] += a[k] * X[i + k*n];
    ) @*/
    for (i = 0; i <= n-1; i++)
        for (k = 0; k <= nv-1; k++)
            y[i] += a[k] * X[i + k*n];
    /*@ end @*/
    /*@ end @*/
}
