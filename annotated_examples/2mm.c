/* PolyBench 2mm: D = alpha A B C + beta D (A: ni x nk, B: nk x nj, C: nj x nl, D: ni x nl,
 * row-major), as two matrix products: tmp = alpha A B, then D = beta D + tmp C. */
void mm2(int ni, int nj, int nk, int nl, double alpha, double beta, const double *A, const double *B, const double *C,
         double *D, double *tmp) {
    int i, j, k;
    /*@ begin PerfTuning (
    def performance_params {
        param TC[] = [64, 128];
    }
    def input_params {
        param ni[] = [33, 48];
        param nj[] = [35];
        param nk[] = [37];
        param nl[] = [39];
    }
    def input_vars {
        decl dynamic double A[ni*nk] = random;
        decl dynamic double B[nk*nj] = random;
        decl dynamic double C[nj*nl] = random;
        decl dynamic double D[ni*nl] = random;
        decl dynamic double tmp[ni*nj] = 0;
        decl double alpha = 1.5;
        decl double beta = 1.2;
    }
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto', threadCount=TC)
    for (i = 0; i < ni; i++)
        for (j = 0; j < nj; j++) {
            tmp[i*nj + j] = 0.0;
            for (k = 0; k < nk; k++)
                tmp[i*nj + j] += alpha * A[i*nk + k] * B[k*nj + j];
        }
    ) @*/
    for (i = 0; i < ni; i++)
        for (j = 0; j < nj; j++) {
            tmp[i*nj + j] = 0.0;
            for (k = 0; k < nk; k++)
                tmp[i*nj + j] += alpha * A[i*nk + k] * B[k*nj + j];
        }
    /*@ end @*/
    /*@ begin Loop(transform CUDA(mapping='auto', threadCount=TC)
    for (i = 0; i < ni; i++)
        for (j = 0; j < nl; j++) {
            D[i*nl + j] *= beta;
            for (k = 0; k < nj; k++)
                D[i*nl + j] += tmp[i*nj + k] * C[k*nl + j];
        }
    ) @*/
    for (i = 0; i < ni; i++)
        for (j = 0; j < nl; j++) {
            D[i*nl + j] *= beta;
            for (k = 0; k < nj; k++)
                D[i*nl + j] += tmp[i*nj + k] * C[k*nl + j];
        }
    /*@ end @*/
    /*@ end @*/
}
