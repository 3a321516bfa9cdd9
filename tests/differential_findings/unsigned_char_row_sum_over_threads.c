/* A finding of the differential fuzzer (tests/differential.py), kept as a regression test. */
#include <math.h>
void kernel(int n, int m, const unsigned int *a, const unsigned int *b, double *y, double *w, unsigned char *z)
{
    int i, j;
    unsigned char acc;
    /*@ begin PerfTuning (
    def performance_params { param TC[] = [32, 64]; }
    def input_params { param n[] = [3]; param m[] = [1]; }
    def input_vars {
        decl dynamic unsigned int a[n*m] = random;
        decl dynamic unsigned int b[n*m] = random;
        decl dynamic double y[n] = 0;
        decl dynamic double w[n*m] = 0;
        decl dynamic unsigned char z[1] = 0;
    }
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC, mapping='auto')
    for (i = 0; i < n; i++) {
        unsigned char s = 0;
        for (j = 0; j < m; j++)
            if (a[i*m + j] < b[i*m + j]) s += (short)(a[i*m + j] * 3);
        y[i] = s;
    }
    ) @*/
    for (i = 0; i < n; i++) {
        unsigned char s = 0;
        for (j = 0; j < m; j++)
            if (a[i*m + j] < b[i*m + j]) s += (short)(a[i*m + j] * 3);
        y[i] = s;
    }
    /*@ end @*/
    /*@ end @*/
}
