/* Single-precision scaling with its spec in the sidecar file vecscale.c.orcu.yaml. */
void sscal(int n, float alpha, float *x) {
    int i;
    /*@ begin Loop(transform CUDA(threadCount=TC, blockCount=BC, preferL1Size=PL)
    for (i = 0; i < n; i++)
        x[i] = alpha * x[i];
    ) @*/
    for (i = 0; i < n; i++)
        x[i] = alpha * x[i];
    /*@ end @*/
}
