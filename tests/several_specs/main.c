#include <stdio.h>
/* Defined in kernels.c, which the build replaces by its tuned version (kernels.tuned.h holds
   the same prototypes). Integer-valued inputs: every variant's sums are exact. */
void scale(int n, double a, double *x);
void matvec(int m, int n, double A[m][n], double x[n], double y[m]);
void stencil(int n, float in[n][n], float out[n][n]);

int main(void)
{
    static double x[1000], A[40][33], v[33], y[40];
    static float in[30][30], out[30][30];
    for (int k = 0; k < 1000; k++)
        x[k] = k % 7;
    for (int i = 0; i < 40; i++)
        for (int j = 0; j < 33; j++)
            A[i][j] = (i + j) % 5;
    for (int j = 0; j < 33; j++)
        v[j] = j % 3;
    for (int i = 0; i < 30; i++)
        for (int j = 0; j < 30; j++)
            in[i][j] = (float)((i * j) % 11);
    scale(1000, 3.0, x);
    matvec(40, 33, A, v, y);
    stencil(30, in, out);
    for (int k = 0; k < 1000; k += 97)
        printf("%.17g\n", x[k]);
    for (int i = 0; i < 40; i += 3)
        printf("%.17g\n", y[i]);
    for (int i = 1; i < 29; i += 4)
        printf("%.9g\n", out[i][i + 1 < 29 ? i + 1 : 1]);
    return 0;
}
