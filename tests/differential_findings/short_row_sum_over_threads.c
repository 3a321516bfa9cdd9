/* A finding of the differential fuzzer (tests/differential.py), kept as a regression test. */
#include <math.h>
void kernel(int n, int m, const int *a, const int *b, float *y, float *w, short *z)
{
    int i, j;
    short acc;
    /*@ begin PerfTuning (
    def performance_params { param TC[] = [32, 64]; }
    def input_params { param n[] = [3]; param m[] = [5]; }
    def input_vars {
        decl dynamic int a[n*m] = random;
        decl dynamic int b[n*m] = random;
        decl dynamic float y[n] = 0;
        decl dynamic float w[n*m] = 0;
        decl dynamic short z[1] = 0;
    }
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC, mapping='auto')
    for (i = 0; i < n; i++) {
        short s = 0;
        for (j = 0; j < m; j++)
            if (a[i*m + j] > 0) s++;
        y[i] = s;
    }
    ) @*/
    for (i = 0; i < n; i++) {
        short s = 0;
        for (j = 0; j < m; j++)
            if (a[i*m + j] > 0) s++;
        y[i] = s;
    }
    /*@ end @*/
    /*@ end @*/
}
