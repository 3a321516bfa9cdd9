void kernel_lu(int n, double *A)
{
  int i, j, k;
  /*@ begin PerfTuning (
  def performance_params { }
  def input_params { param n[] = [20]; }
  def input_vars { decl dynamic double A[n*n] = random; }
  ) @*/
  /*@ begin Loop(
  for (k = 0; k < n; k++) {
    transform CUDA(mapping='auto')
    for (j = k + 1; j < n; j++)
      A[k*n + j] = A[k*n + j] / A[k*n + k];
    transform CUDA(mapping='auto')
    for (i = k + 1; i < n; i++)
      for (j = k + 1; j < n; j++)
        A[i*n + j] = A[i*n + j] - A[i*n + k] * A[k*n + j];
  }
  ) @*/
  /*@ end @*/
  /*@ end @*/
}
