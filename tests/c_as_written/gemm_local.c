/* A matrix product as nearly everyone writes it: the sum of a row and a column in a local. */
void gemm(int n, float alpha, const float *A, const float *B, float *C)
{
    /*@ begin PerfTuning (
    def performance_params { }
    def input_params { param n[] = [19]; }
    def input_vars { decl dynamic float A[n*n] = random; decl dynamic float B[n*n] = random; decl dynamic float C[n*n] = 0; decl float alpha = 1.5; }
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto')
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            float s = 0;
            for (int k = 0; k < n; k++)
                s += A[i*n + k] * B[k*n + j];
            C[i*n + j] = alpha * s;
        }
    ) @*/
    /*@ end @*/
    /*@ end @*/
}
