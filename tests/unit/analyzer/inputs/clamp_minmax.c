/* Neighbours clamped with min/max functions and a ternary. */
static int min(int a, int b) { return a < b ? a : b; }
static int max(int a, int b) { return a > b ? a : b; }

void edge(const float *restrict in, float *restrict out, int rows, int cols)
{
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) {
            int up = max(i - 1, 0);
            int down = min(i + 1, rows - 1);
            int left = j == 0 ? 0 : j - 1;
            out[i * cols + j] = in[up * cols + j] + in[down * cols + j] + in[i * cols + left];
        }
}
