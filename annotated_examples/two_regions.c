/* Two Loop regions under one spec: an elementwise update, then a max reduction of
 * its result. Each region has its own threads and blocks. */
#include <math.h>

double scale_and_max(int n, double alpha, const double *x, double *z) {
    double zmax;
    int i;
    /*@ begin PerfTuning (
    def performance_params {
        param TC1[] = [128, 256, 512];
        param BC1[] = [device_sms, 2 * device_sms];
        param TC2[] = [256, 1024];
        param BC2[] = [device_sms // 2, device_sms];
        constraint same_work = TC2 * BC2 <= 2 * TC1 * BC1;
    }
    def input_params {
        param n[] = [12345];
    }
    def input_vars {
        decl dynamic double x[n] = random;
        decl dynamic double z[n] = 0;
        decl double alpha = -1.5;
    }
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC1, blockCount=BC1)
    for (i = 0; i < n; i++)
        z[i] = alpha * x[i] + 1.0;
    ) @*/
    for (i = 0; i < n; i++)
        z[i] = alpha * x[i] + 1.0;
    /*@ end @*/
    zmax = z[0];
    /*@ begin Loop(transform CUDA(threadCount=TC2, blockCount=BC2)
    for (i = 0; i < n; i++)
        zmax = fmax(zmax, z[i]);
    ) @*/
    for (i = 0; i < n; i++)
        zmax = fmax(zmax, z[i]);
    /*@ end @*/
    /*@ end @*/
    return zmax;
}
