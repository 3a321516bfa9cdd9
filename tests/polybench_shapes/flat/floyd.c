void kernel_floyd_warshall(int n, int *path)
{
  int i, j, k;
  /*@ begin PerfTuning (
  def performance_params { }
  def input_params { param n[] = [30]; }
  def input_vars { decl dynamic int path[n*n] = random; }
  ) @*/
  /*@ begin Loop(transform CUDA(mapping='auto')
  for (k = 0; k < n; k++)
    {
      for(i = 0; i < n; i++)
        for (j = 0; j < n; j++)
          path[i*n + j] = path[i*n + j] < path[i*n + k] + path[k*n + j] ?
            path[i*n + j] : path[i*n + k] + path[k*n + j];
    }
  ) @*/
  /*@ end @*/
  /*@ end @*/
}
