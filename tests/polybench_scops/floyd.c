void kernel_floyd_warshall(int n, int path[n][n])
{
  int i, j, k;
  /*@ begin PerfTuning (
  def performance_params { }
  def input_params { param n[] = [30]; }
  def input_vars { decl dynamic int path[n][n] = random; }
  ) @*/
  /*@ begin Loop(transform CUDA(mapping='auto')
  for (k = 0; k < n; k++)
    {
      for(i = 0; i < n; i++)
        for (j = 0; j < n; j++)
          path[i][j] = path[i][j] < path[i][k] + path[k][j] ?
            path[i][j] : path[i][k] + path[k][j];
    }
  ) @*/
  /*@ end @*/
  /*@ end @*/
}
