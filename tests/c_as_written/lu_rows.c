/* PolyBench's lu as it ships: for each row, the part left of the diagonal stays on the host (a
 * loop with no transform of its own), the rest of the row is a kernel. */
void kernel_lu(int n, double A[n][n])
{
    int i, j, k;
    /*@ begin PerfTuning (
    def performance_params { }
    def input_params { param n[] = [20]; }
    def input_vars { decl dynamic double A[n][n] = random; arg init_file = 'lu_rows_init.inc'; }
    ) @*/
    /*@ begin Loop(
    for (i = 0; i < n; i++) {
        for (j = 0; j < i; j++) {
            for (k = 0; k < j; k++)
                A[i][j] -= A[i][k] * A[k][j];
            A[i][j] /= A[j][j];
        }
        transform CUDA(mapping='auto')
        for (j = i; j < n; j++)
            for (k = 0; k < i; k++)
                A[i][j] -= A[i][k] * A[k][j];
    }
    ) @*/
    /*@ end @*/
    /*@ end @*/
}
