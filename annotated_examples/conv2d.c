/* 2-D convolution of an (n + k - 1) x (m + k - 1) image with a k x k mask, row-major:
 * out is n x m. Each thread computes one output pixel; thread x along the rows. */
void conv2d(int n, int m, int k, const float *in, const float *mask, float *out) {
    int i, j, p, q;
    float acc;
    /*@ begin PerfTuning (
    def performance_params {
        param TC[] = [64, 128, 256];
    }
    def input_params {
        param n[] = [33, 64];
        param m[] = [45];
        param k[] = [5];
    }
    def input_vars {
        decl dynamic float in[(n + k - 1)*(m + k - 1)] = random;
        decl dynamic float mask[k*k] = random;
        decl dynamic float out[n*m] = 0;
    }
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto', threadCount=TC)
    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++) {
            acc = 0.0f;
            for (p = 0; p < k; p++)
                for (q = 0; q < k; q++)
                    acc += in[(i + p)*(m + k - 1) + j + q] * mask[p*k + q];
            out[i*m + j] = acc;
        }
    ) @*/
    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++) {
            acc = 0.0f;
            for (p = 0; p < k; p++)
                for (q = 0; q < k; q++)
                    acc += in[(i + p)*(m + k - 1) + j + q] * mask[p*k + q];
            out[i*m + j] = acc;
        }
    /*@ end @*/
    /*@ end @*/
}
