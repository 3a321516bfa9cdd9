/* sgemm.c on the TF32 tensor cores: allowReducedPrecision=True lets the TSG offer tensorCores for
   this float product, each operand rounded to TF32 (10 mantissa bits) and the sums in float, as
   cuBLAS's CUBLAS_TF32_TENSOR_OP_MATH does. Its variants are checked to 2^-10 of each result's
   size instead of float's bound; without the opt-in a float product never leaves float. */
void sgemm_tf32(int n, float alpha, float beta, const float *A, const float *B, float *C) {
    int i, j, k;
    float sum;
    /*@ begin PerfTuning (
    def performance_params {
        param TC[] = [64, 128, 256];
    }
    def input_params {
        param n[] = [37, 64];
    }
    def input_vars {
        decl dynamic float A[n*n] = random;
        decl dynamic float B[n*n] = random;
        decl dynamic float C[n*n] = random;
        decl float alpha = 1.5;
        decl float beta = 0.5;
    }
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto', threadCount=TC, allowReducedPrecision=True)
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            sum = 0.0f;
            for (k = 0; k < n; k++)
                sum += A[i*n + k] * B[k*n + j];
            C[i*n + j] = alpha * sum + beta * C[i*n + j];
        }
    ) @*/
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            sum = 0.0f;
            for (k = 0; k < n; k++)
                sum += A[i*n + k] * B[k*n + j];
            C[i*n + j] = alpha * sum + beta * C[i*n + j];
        }
    /*@ end @*/
    /*@ end @*/
}
