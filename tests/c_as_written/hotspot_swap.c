/* hotspot3D's time loop (in 2-D): a stencil from tIn into tOut with its edges clamped, a weight
 * computed on the host each step, then the buffers swap through a pointer declared in the region. */
void hotspot(int nx, int ny, int steps, float *tIn, float *tOut)
{
    /*@ begin PerfTuning (
    def performance_params { }
    def input_params { param nx[] = [21]; param ny[] = [19]; param steps[] = [3]; }
    def input_vars { decl dynamic float tIn[nx*ny] = random; decl dynamic float tOut[nx*ny] = 0; }
    ) @*/
    /*@ begin Loop(
    for (int t = 0; t < steps; t++) {
        float cc = 0.5f / (t + 1);
        transform CUDA(mapping='auto')
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                int w = (x == 0) ? x : x - 1;
                int e = (x == nx - 1) ? x : x + 1;
                tOut[y*nx + x] = cc * tIn[y*nx + x] + 0.25f * (tIn[y*nx + w] + tIn[y*nx + e]);
            }
        float *temp = tIn;
        tIn = tOut;
        tOut = temp;
    }
    ) @*/
    /*@ end @*/
    /*@ end @*/
}
