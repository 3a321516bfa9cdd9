/* PolyBench's fdtd-2d: a time loop around four nests, the arrays kept on the device across them. */
void kernel_fdtd_2d(int tmax, int nx, int ny, double *ex, double *ey, double *hz, const double *_fict_)
{
    int t, i, j;
    /*@ begin PerfTuning (
    def performance_params { }
    def input_params { param tmax[] = [5]; param nx[] = [20]; param ny[] = [30]; }
    def input_vars {
        decl dynamic double ex[nx*ny] = random;
        decl dynamic double ey[nx*ny] = random;
        decl dynamic double hz[nx*ny] = random;
        decl dynamic double _fict_[tmax] = random;
    }
    ) @*/
    /*@ begin Loop(
    for (t = 0; t < tmax; t++) {
        transform CUDA(mapping='auto')
        for (j = 0; j < ny; j++)
            ey[0*ny + j] = _fict_[t];
        transform CUDA(mapping='auto')
        for (i = 1; i < nx; i++)
            for (j = 0; j < ny; j++)
                ey[i*ny + j] = ey[i*ny + j] - 0.5 * (hz[i*ny + j] - hz[(i - 1)*ny + j]);
        transform CUDA(mapping='auto')
        for (i = 0; i < nx; i++)
            for (j = 1; j < ny; j++)
                ex[i*ny + j] = ex[i*ny + j] - 0.5 * (hz[i*ny + j] - hz[i*ny + j - 1]);
        transform CUDA(mapping='auto')
        for (i = 0; i < nx - 1; i++)
            for (j = 0; j < ny - 1; j++)
                hz[i*ny + j] = hz[i*ny + j] - 0.7 * (ex[i*ny + j + 1] - ex[i*ny + j] + ey[(i + 1)*ny + j] - ey[i*ny + j]);
    }
    ) @*/
    for (t = 0; t < tmax; t++) {
        for (j = 0; j < ny; j++)
            ey[0*ny + j] = _fict_[t];
        for (i = 1; i < nx; i++)
            for (j = 0; j < ny; j++)
                ey[i*ny + j] = ey[i*ny + j] - 0.5 * (hz[i*ny + j] - hz[(i - 1)*ny + j]);
        for (i = 0; i < nx; i++)
            for (j = 1; j < ny; j++)
                ex[i*ny + j] = ex[i*ny + j] - 0.5 * (hz[i*ny + j] - hz[i*ny + j - 1]);
        for (i = 0; i < nx - 1; i++)
            for (j = 0; j < ny - 1; j++)
                hz[i*ny + j] = hz[i*ny + j] - 0.7 * (ex[i*ny + j + 1] - ex[i*ny + j] + ey[(i + 1)*ny + j] - ey[i*ny + j]);
    }
    /*@ end @*/
    /*@ end @*/
}
