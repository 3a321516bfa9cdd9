/* y = a*x + y in double precision, tuned over threads, blocks, streams and the
 * L1/shared-memory split. */
void daxpy(int n, double a, const double *x, double *y) {
    int i;
    /*@ begin PerfTuning (
    def performance_params {
        param TC[] = range(64, 1025, 64);
        param BC[] = [device_sms // 2, device_sms, 2 * device_sms, 4 * device_sms];  # by the GPU's multiprocessors
        param SC[] = range(1, 5);
        param PL[] = [16, 32, 48];
        constraint enough_threads = TC * BC >= 8192;
    }
    def input_params {
        param n[] = [100000, 1000003];
    }
    def input_vars {
        decl dynamic double x[n] = random;
        decl dynamic double y[n] = random;
        decl double a = 2.5;
    }
    def performance_counter {
        arg repetitions = 10;
    }
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC, blockCount=BC, streamCount=SC, preferL1Size=PL)
    for (i = 0; i <= n-1; i++)
        y[i] = a * x[i] + y[i];
    ) @*/
    for (i = 0; i <= n-1; i++)
        y[i] = a * x[i] + y[i];
    /*@ end @*/
    /*@ end @*/
}
