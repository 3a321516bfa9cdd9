/* Rodinia's pathfinder: each step's row of costs from the previous row's through pointers swapped each step. */
#define MIN(a, b) ((a) <= (b) ? (a) : (b))
void pathfinder(int rows, int cols, const int *wall, int *buffer, int *result)
{
    int t, n, min;
    int *src, *dst, *temp;
    /*@ begin PerfTuning (
    def performance_params { }
    def input_params { param rows[] = [6]; param cols[] = [37]; }
    def input_vars { decl dynamic int wall[rows*cols] = random; decl dynamic int buffer[cols] = random; decl dynamic int result[cols] = random; }
    ) @*/
    dst = result;
    src = buffer;
    /*@ begin Loop(
    for (t = 0; t < rows - 1; t++) {
        temp = src;
        src = dst;
        dst = temp;
        transform CUDA(mapping='auto')
        for (n = 0; n < cols; n++) {
            min = src[n];
            if (n > 0)
                min = MIN(min, src[n - 1]);
            if (n < cols - 1)
                min = MIN(min, src[n + 1]);
            dst[n] = wall[(t + 1) * cols + n] + min;
        }
    }
    ) @*/
    /*@ end @*/
    /*@ end @*/
}
