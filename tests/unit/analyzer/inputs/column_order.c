/* The inner loop walks rows: the contiguous dimension j is the outer loop. */
#define ROWS 100
#define COLS 200
float a[ROWS][COLS], b[ROWS][COLS];
void transpose_order(void)
{
    for (int j = 0; j < COLS; j++)
        for (int i = 1; i < ROWS - 1; i++)
            b[i][j] = a[i - 1][j] + a[i + 1][j];
}
