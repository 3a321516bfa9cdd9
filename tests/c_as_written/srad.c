/* Rodinia's srad (v2), as it ships but for the annotations: a time loop around three nests, the
 * statistics of a region of interest as a two-scalar reduction, host statements between the
 * nests, and derivatives through the neighbour index arrays with a scalar subscript k. */
void srad(int rows, int cols, int niter, int r1, int r2, int c1, int c2, float lambda, float *J, float *c,
          const int *iN, const int *iS, const int *jW, const int *jE, float *dN, float *dS, float *dW, float *dE)
{
    int i, j, k, iter;
    float sum, sum2, tmp, meanROI, varROI, q0sqr, Jc, G2, L, num, den, qsqr, cN, cS, cW, cE, D;
    int size_R = (r2 - r1 + 1) * (c2 - c1 + 1);
    /*@ begin PerfTuning (
    def performance_params { }
    def input_params { param rows[] = [19]; param cols[] = [23]; param niter[] = [2]; }
    def input_vars {
        decl int r1 = 2; decl int r2 = 12; decl int c1 = 3; decl int c2 = 17; decl float lambda = 0.5;
        decl dynamic float J[rows*cols] = random; decl dynamic float c[rows*cols] = 0;
        decl dynamic int iN[rows] = 0; decl dynamic int iS[rows] = 0; decl dynamic int jW[cols] = 0; decl dynamic int jE[cols] = 0;
        decl dynamic float dN[rows*cols] = 0; decl dynamic float dS[rows*cols] = 0;
        decl dynamic float dW[rows*cols] = 0; decl dynamic float dE[rows*cols] = 0;
        arg init_file = 'srad_init.inc';
    }
    ) @*/
    /*@ begin Loop(
    for (iter = 0; iter < niter; iter++) {
        sum = 0;
        sum2 = 0;
        transform CUDA(mapping='auto')
        for (i = r1; i <= r2; i++) {
            for (j = c1; j <= c2; j++) {
                tmp = J[i * cols + j];
                sum += tmp;
                sum2 += tmp * tmp;
            }
        }
        meanROI = sum / size_R;
        varROI = (sum2 / size_R) - meanROI * meanROI;
        q0sqr = varROI / (meanROI * meanROI);
        transform CUDA(mapping='auto')
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                k = i * cols + j;
                Jc = J[k];
                dN[k] = J[iN[i] * cols + j] - Jc;
                dS[k] = J[iS[i] * cols + j] - Jc;
                dW[k] = J[i * cols + jW[j]] - Jc;
                dE[k] = J[i * cols + jE[j]] - Jc;
                G2 = (dN[k] * dN[k] + dS[k] * dS[k] + dW[k] * dW[k] + dE[k] * dE[k]) / (Jc * Jc);
                L = (dN[k] + dS[k] + dW[k] + dE[k]) / Jc;
                num = (0.5f * G2) - ((1.0f / 16.0f) * (L * L));
                den = 1 + (.25f * L);
                qsqr = num / (den * den);
                den = (qsqr - q0sqr) / (q0sqr * (1 + q0sqr));
                c[k] = 1.0f / (1.0f + den);
                if (c[k] < 0)
                    c[k] = 0;
                else if (c[k] > 1)
                    c[k] = 1;
            }
        }
        transform CUDA(mapping='auto')
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                k = i * cols + j;
                cN = c[k];
                cS = c[iS[i] * cols + j];
                cW = c[k];
                cE = c[i * cols + jE[j]];
                D = cN * dN[k] + cS * dS[k] + cW * dW[k] + cE * dE[k];
                J[k] = J[k] + 0.25f * lambda * D;
            }
        }
    }
    ) @*/
    /*@ end @*/
    /*@ end @*/
}
