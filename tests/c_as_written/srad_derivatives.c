void srad(int rows, int cols, const double *J, const int *iN, const int *iS, const int *jW, const int *jE, double *dN, double *dS, double *dW, double *dE, double *c)
{
    int i, j, k;
    double Jc, G2;
    /*@ begin PerfTuning (
    def performance_params { param TC[] = [32, 64]; }
    def input_params { param rows[] = [20]; param cols[] = [30]; }
    def input_vars {
        decl dynamic double J[rows*cols] = random; decl dynamic int iN[rows] = 0; decl dynamic int iS[rows] = 0;
        decl dynamic int jW[cols] = 0; decl dynamic int jE[cols] = 0;
        decl dynamic double dN[rows*cols] = 0; decl dynamic double dS[rows*cols] = 0; decl dynamic double dW[rows*cols] = 0;
        decl dynamic double dE[rows*cols] = 0; decl dynamic double c[rows*cols] = 0;
    }
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC)
    for (i = 0; i < rows; i++) {
        for (j = 0; j < cols; j++) {
            k = i * cols + j;
            Jc = J[k];
            dN[k] = J[iN[i] * cols + j] - Jc;
            dS[k] = J[iS[i] * cols + j] - Jc;
            dW[k] = J[i * cols + jW[j]] - Jc;
            dE[k] = J[i * cols + jE[j]] - Jc;
            G2 = (dN[k] * dN[k] + dS[k] * dS[k] + dW[k] * dW[k] + dE[k] * dE[k]) / (Jc * Jc);
            c[k] = 1.0 / (1.0 + G2);
        }
    }
    ) @*/
    /*@ end @*/
    /*@ end @*/
}
