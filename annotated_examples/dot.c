/* Single-precision dot product, written with '<' bounds: a '+' reduction. */
float sdot(int n, const float *x, const float *y) {
    float r;
    int i;
    /*@ begin PerfTuning (
    def performance_params {
        param TC[] = [32, 64, 128, 256, 512, 1024];
        param BC[] = [device_sms * k for k in range(1, 9)];
        param CB[] = [False, True];
    }
    def input_params {
        param n[] = [1, 1000, 1 << 20];
    }
    def input_vars {
        decl dynamic float x[n] = random;
        decl dynamic float y[n] = random;
    }
    def search {
        arg algorithm = 'Random';
        arg total_runs = 24;
    }
    ) @*/
    r = 0.0f;
    /*@ begin Loop(transform CUDA(threadCount=TC, blockCount=BC, cacheBlocks=CB)
    for (i = 0; i < n; i++)
        r += x[i] * y[i];
    ) @*/
    for (i = 0; i < n; i++)
        r += x[i] * y[i];
    /*@ end @*/
    /*@ end @*/
    return r;
}
