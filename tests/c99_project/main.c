#include <stdio.h>

void scale2d(int n, int m, double A[n][m], double alpha);
void gemm(int ni, int nj, int nk, double alpha, double C[ni][nj], const double A[restrict ni][nk],
          const double B[restrict nk][nj]);
void sum3d(int r, int q, int p, const double A[r][q][p], double s[r][q]);
void rowscale(int n, const double x[n], double (*A)[n]);
void kernel_fdtd_2d(int tmax, int nx, int ny, double ex[nx][ny], double ey[nx][ny], double hz[nx][ny], const double _fict_[tmax]);

/* Each kernel on arrays of the caller's (C99 variable-length arrays), sizes other than the
   tuned ones; the output is every element, to compare with the plain C build's. */
int main(void)
{
    int n = 21, m = 17, p = 6;
    double A[n][m], B[m][n], C[n][n], T[n][m][p], s[n][m], E[n][m], x[n];
    for (int i = 0; i < n; i++) {
        x[i] = 1.0 + i % 5;
        for (int j = 0; j < m; j++) {
            A[i][j] = (i * 7 + j * 3) % 11 - 5.0;
            B[j][i] = (i * 5 + j) % 7 + 0.5;
            E[i][j] = (i * 3 + j * 2) % 5 - 1.5;
            for (int k = 0; k < p; k++)
                T[i][j][k] = (i + 2 * j + 3 * k) % 9 - 4.0;
        }
        for (int j = 0; j < n; j++)
            C[i][j] = (i + j) % 3;
    }
    scale2d(n, m, A, 0.5);
    gemm(n, n, m, 2.0, C, (const double (*)[m])A, (const double (*)[n])B);
    sum3d(n, m, p, (const double (*)[m][p])T, s);
    rowscale(n, x, C);
    kernel_fdtd_2d(p, n, m, A, s, E, x);  /* three n x m arrays of the caller's, and p steps */
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++)
            printf("%.17g ", C[i][j]);
        for (int j = 0; j < m; j++)
            printf("%.17g %.17g %.17g ", A[i][j], s[i][j], E[i][j]);
        printf("\n");
    }
    return 0;
}
