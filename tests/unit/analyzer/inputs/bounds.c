/* Bounds starting at 0, 1 and 2 with < and <=. */
#define N 1000
void bounds(const float *restrict a, float *restrict b, float *restrict c, float *restrict d)
{
    for (int i = 0; i <= N - 1; i++)
        b[i] = a[i];
    for (int i = 1; i < N - 1; i++)
        c[i] = a[i - 1] + a[i + 1];
    for (int i = 2; i <= N - 3; i++)
        d[i] = a[i - 2] + a[i + 2];
}
