/* A block-diagonal product in Orio's DIA style: an inner loop under an 'if'. Its iterator k and
   the scalars row and col are set before they are read in every iteration of 'i' (on every
   path that reads them), so they are private to it. */
void blockdia(int nrows, int ndofs, int ndiags, const int *offsets, double *A, double *x, double *y) {
    int i, j, k, row, col;
    double ysum;
    /*@ begin PerfTuning (
    def performance_params { param TC[] = [32, 64]; }
    def input_params { param nrows[] = [600]; param ndofs[] = [3]; param ndiags[] = [3]; }
    def input_vars {
        decl dynamic double A[nrows*ndofs*ndiags] = random;
        decl dynamic double x[nrows] = random;
        decl dynamic double y[nrows] = 0;
        decl static int offsets[ndiags] = [-1, 0, 1];
    }
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC, blockCount=8)
    for (i = 0; i <= nrows - 1; i++) {
        ysum = 0.0;
        for (j = 0; j <= ndiags - 1; j++) {
            row = i + j * nrows * ndofs;
            col = (i / ndofs + offsets[j]) * ndofs;
            if (col >= 0 && col < nrows)
                for (k = 0; k <= ndofs - 1 && col + k < nrows; k++)
                    ysum += A[row + k * nrows] * x[col + k];
        }
        y[i] = ysum;
    }
    ) @*/
    /*@ end @*/
    /*@ end @*/
}
