void kernel_jacobi_1d(int tsteps, int n, double A[n], double B[n])
{
  int t, i;
  /*@ begin PerfTuning (
  def performance_params { }
  def input_params { param tsteps[] = [5]; param n[] = [100]; }
  def input_vars { decl dynamic double A[n] = random; decl dynamic double B[n] = random; }
  ) @*/
  /*@ begin Loop(transform CUDA(mapping='auto')
  for (t = 0; t < tsteps; t++)
    {
      for (i = 1; i < n - 1; i++)
        B[i] = 0.33333 * (A[i-1] + A[i] + A[i + 1]);
      for (i = 1; i < n - 1; i++)
        A[i] = 0.33333 * (B[i-1] + B[i] + B[i + 1]);
    }
  ) @*/
  /*@ end @*/
  /*@ end @*/
}
