/* Row-major flat indexing i*N + j, written with the row first. */
#define N 512
void laplace(const double *restrict u, double *restrict v)
{
    int i, j;
    for (i = 1; i < N - 1; i++)
        for (j = 1; j < N - 1; j++)
            v[i * N + j] = u[(i - 1) * N + j] + u[(i + 1) * N + j] + u[i * N + j - 1] + u[i * N + j + 1] - 4.0 * u[i * N + j];
}
