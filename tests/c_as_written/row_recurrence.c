/* Each row smoothed in place from left to right, its left neighbour clamped at the edge: the
 * rows are independent, the columns run in order. */
void rows(int ny, int nx, float *A)
{
    /*@ begin PerfTuning (
    def performance_params { }
    def input_params { param ny[] = [37]; param nx[] = [29]; }
    def input_vars { decl dynamic float A[ny*nx] = random; }
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto')
    for (int y = 0; y < ny; y++)
        for (int x = 0; x < nx; x++) {
            int c = y * nx + x;
            int w = (x == 0) ? c : c - 1;
            A[c] = 0.5f * (A[c] + A[w]);
        }
    ) @*/
    /*@ end @*/
    /*@ end @*/
}
