/* A finding of the differential fuzzer (tests/differential.py), kept as a regression test. */
#include <math.h>
void kernel(int n, int m, const int *a, const int *b, int *y, int *w, float *z)
{
    int i, j;
    float acc;
    /*@ begin PerfTuning (
    def performance_params { param TC[] = [32, 64]; }
    def input_params { param n[] = [40]; param m[] = [5]; }
    def input_vars {
        decl dynamic int a[n*m] = random;
        decl dynamic int b[n*m] = random;
        decl dynamic int y[n] = 0;
        decl dynamic int w[n*m] = 0;
        decl dynamic float z[1] = 0;
    }
    ) @*/
    acc = a[0];
    /*@ begin Loop(transform CUDA(threadCount=TC)
    for (i = 0; i < n*m; i++)
        acc = acc + (double)a[i] * b[i];
    ) @*/
    for (i = 0; i < n*m; i++)
        acc = acc + (double)a[i] * b[i];
    /*@ end @*/
    z[0] = acc;
    /*@ end @*/
}
