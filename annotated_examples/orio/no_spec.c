/* Orio's regression inputs have a Loop region and no PerfTuning spec. Tune with the sizes
   given on the command line, e.g. orcu tune no_spec.c --input n=100000; orcu assumes the rest. */
void VecAXPY(int n, double a, double *x, double *y) {
    register int i;
    /*@ begin Loop(transform CUDA(threadCount=64)
    for (i = 0; i <= n - 1; i++)
        y[i] = y[i] + a * x[i];
    ) @*/
    /*@ end @*/
}
