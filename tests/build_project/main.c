#include <stdio.h>
/* Defined in axpy.c and scale.c, which the build replaces by their tuned versions
   (these are the prototypes axpy.tuned.h and scale.tuned.h hold). */
void axpy(int n, double a, const double *x, double *y);
void scale(double *x);
int main(void)
{
    static double x[N], y[N];
    for (int k = 0; k < N; k++) {
        x[k] = 0.5 + k % 7;
        y[k] = 1.0 / (1 + k % 5);
    }
    axpy(N, 2.0, x, y);
    scale(y);
    for (int k = 0; k < N; k += 97)
        printf("%.17g\n", y[k]);
    return 0;
}
