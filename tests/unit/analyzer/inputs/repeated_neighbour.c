/* The same neighbour read several times. */
void sharpen(const float *restrict a, float *restrict b, int n)
{
    for (int i = 1; i < n - 1; i++)
        b[i] = a[i - 1] * a[i - 1] + a[i + 1] * a[i + 1] + a[i - 1] + 2.0f * a[i];
}
