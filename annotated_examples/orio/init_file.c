/* Inputs filled by a C function of the user's, as Orio's 'arg init_file' does: the file
   defines void init_input_vars(), which sees the inputs and input sizes by name. */
void waxpby(int n, double a, double b, double *w, double *x, double *y) {
    int i;
    /*@ begin PerfTuning (
    def performance_params { param TC[] = [32, 64]; }
    def input_params { param n[] = [2000]; }
    def input_vars {
        decl dynamic double w[n] = 0;
        decl dynamic double x[n];
        decl dynamic double y[n];
        decl double a;
        decl double b;
        arg init_file = 'init_file_inputs.inc';
    }
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC, blockCount=8)
    for (i = 0; i <= n - 1; i++)
        w[i] = a * x[i] + b * y[i];
    ) @*/
    /*@ end @*/
    /*@ end @*/
}
