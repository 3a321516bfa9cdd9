void kernel_3mm(int ni, int nj, int nk, int nl, int nm, double E[ni][nj], double A[ni][nk], double B[nk][nj],
                double F[nj][nl], double C[nj][nm], double D[nm][nl], double G[ni][nl])
{
  int i, j, k;
  /*@ begin PerfTuning (
  def performance_params { }
  def input_params { param ni[] = [16]; param nj[] = [18]; param nk[] = [20]; param nl[] = [22]; param nm[] = [24]; }
  def input_vars {
    decl dynamic double E[ni][nj] = 0; decl dynamic double A[ni][nk] = random; decl dynamic double B[nk][nj] = random;
    decl dynamic double F[nj][nl] = 0; decl dynamic double C[nj][nm] = random; decl dynamic double D[nm][nl] = random;
    decl dynamic double G[ni][nl] = 0;
  }
  ) @*/
  /*@ begin Loop(transform CUDA(mapping='auto')
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++) {
      E[i][j] = 0.0;
      for (k = 0; k < nk; ++k)
        E[i][j] += A[i][k] * B[k][j];
    }
  for (i = 0; i < nj; i++)
    for (j = 0; j < nl; j++) {
      F[i][j] = 0.0;
      for (k = 0; k < nm; ++k)
        F[i][j] += C[i][k] * D[k][j];
    }
  for (i = 0; i < ni; i++)
    for (j = 0; j < nl; j++) {
      G[i][j] = 0.0;
      for (k = 0; k < nj; ++k)
        G[i][j] += E[i][k] * F[k][j];
    }
  ) @*/
  /*@ end @*/
  /*@ end @*/
}
