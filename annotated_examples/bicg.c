/* PolyBench bicg: s = A^T r and q = A p, A row-major (n rows of m), one nest each. */
void bicg(int n, int m, const double *A, const double *r, const double *p, double *s, double *q) {
    int i, j;
    /*@ begin PerfTuning (
    def performance_params {
        param TC[] = [64, 128];
    }
    def input_params {
        param n[] = [37, 64];
        param m[] = [45];
    }
    def input_vars {
        decl dynamic double A[n*m] = random;
        decl dynamic double r[n] = random;
        decl dynamic double p[m] = random;
        decl dynamic double s[m] = 0;
        decl dynamic double q[n] = 0;
    }
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto', threadCount=TC)
    for (j = 0; j < m; j++) {
        s[j] = 0.0;
        for (i = 0; i < n; i++)
            s[j] = s[j] + r[i] * A[i*m + j];
    }
    ) @*/
    for (j = 0; j < m; j++) {
        s[j] = 0.0;
        for (i = 0; i < n; i++)
            s[j] = s[j] + r[i] * A[i*m + j];
    }
    /*@ end @*/
    /*@ begin Loop(transform CUDA(mapping='auto', threadCount=TC)
    for (i = 0; i < n; i++) {
        q[i] = 0.0;
        for (j = 0; j < m; j++)
            q[i] = q[i] + A[i*m + j] * p[j];
    }
    ) @*/
    for (i = 0; i < n; i++) {
        q[i] = 0.0;
        for (j = 0; j < m; j++)
            q[i] = q[i] + A[i*m + j] * p[j];
    }
    /*@ end @*/
    /*@ end @*/
}
