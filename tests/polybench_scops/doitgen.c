void kernel_doitgen(int nr, int nq, int np, double A[nr][nq][np], double C4[np][np], double sum[np])
{
  int r, q, p, s;
  /*@ begin PerfTuning (
  def performance_params { }
  def input_params { param nr[] = [10]; param nq[] = [8]; param np[] = [12]; }
  def input_vars { decl dynamic double A[nr][nq][np] = random; decl dynamic double C4[np][np] = random; decl dynamic double sum[np] = 0; }
  ) @*/
  /*@ begin Loop(transform CUDA(mapping='auto')
  for (r = 0; r < nr; r++)
    for (q = 0; q < nq; q++)  {
      for (p = 0; p < np; p++)  {
        sum[p] = 0.0;
        for (s = 0; s < np; s++)
          sum[p] += A[r][q][s] * C4[s][p];
      }
      for (p = 0; p < np; p++)
        A[r][q][p] = sum[p];
    }
  ) @*/
  /*@ end @*/
  /*@ end @*/
}
