/* Four loop dimensions: more than a GPU grid has. */
#define N 16
float a[N][N][N][N], b[N][N][N][N];
void four(void)
{
    for (int l = 0; l < N; l++) // expect-warning[too-many-dimensions]: loop nest has 4 dimensions; at most 3 map onto a GPU grid
        for (int k = 0; k < N; k++)
            for (int j = 0; j < N; j++)
                for (int i = 0; i < N; i++)
                    b[l][k][j][i] = a[l][k][j][i];
}
