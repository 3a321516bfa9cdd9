/* A statement after the loop in the region (Orio's norm): it runs on the host after the
   kernel, on the sum the kernel produced. */
#include <math.h>

double nrm2(int n, double *x) {
    int i;
    double r;
    /*@ begin PerfTuning (
    def performance_params { param TC[] = [32, 128]; }
    def input_params { param n[] = [5000]; }
    def input_vars { decl dynamic double x[n] = random; }
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC, blockCount=8)
    r = 0.0;
    for (i = 0; i <= n - 1; i++)
        r = r + x[i] * x[i];
    r = sqrt(r);
    ) @*/
    /*@ end @*/
    /*@ end @*/
    return r;
}
