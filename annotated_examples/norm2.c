/* Euclidean norm: the sum of squares is tuned on the GPU, the square root stays on the host. */
#include <math.h>

double dnrm2(int n, const double *x) {
    double s;
    int i;
    /*@ begin PerfTuning (
    def performance_params {
        param TC[] = range(32, 1025, 32);
        param BC[] = [device_sms * k for k in [1, 2, 3, 4, 8]];
        constraint occupancy = TC * BC <= 1024 * 132 * 2;
    }
    def input_params {
        param n[] = [999, 4000037];
    }
    def input_vars {
        decl dynamic double x[n] = random;
    }
    def search {
        arg algorithm = 'Simplex';
        arg total_runs = 40;
        arg simplex_reflection_coef = 1.0;
        arg simplex_expansion_coef = 2.0;
    }
    ) @*/
    s = 0.0;
    /*@ begin Loop(transform CUDA(threadCount=TC, blockCount=BC)
    for (i = 0; i <= n-1; i++)
        s += x[i] * x[i];
    ) @*/
    for (i = 0; i <= n-1; i++)
        s += x[i] * x[i];
    /*@ end @*/
    /*@ end @*/
    return sqrt(s);
}
