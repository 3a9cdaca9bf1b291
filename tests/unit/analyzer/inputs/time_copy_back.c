/* Time loop: a stencil nest then a copy-back nest. */
#define N 300
double grid[N][N], next[N][N];
void iterate(int steps)
{
    for (int t = 0; t < steps; t++) {
        for (int i = 1; i < N - 1; i++)
            for (int j = 1; j < N - 1; j++)
                next[i][j] = 0.2 * (grid[i][j] + grid[i - 1][j] + grid[i + 1][j] + grid[i][j - 1] + grid[i][j + 1]);
        for (int i = 1; i < N - 1; i++)
            for (int j = 1; j < N - 1; j++)
                grid[i][j] = next[i][j];
    }
}
