/* Strides that are not constant or not 1. */
void step(const float *restrict a, float *restrict b, int n, int s)
{
    for (int i = 0; i < n; i += s) // expect-warning[non-constant-stride]: loop 'i' steps by 'i += s', which is not a compile-time constant (pass it with -D if it is fixed)
        b[i] = a[i];
}

void every_other(const float *restrict a, float *restrict b, int n)
{
    for (int i = 0; i < n; i++)
        b[i] = a[2 * i]; // expect-warning[strided-access]: 'a[2 * i]' steps by 2 elements along 'i': no loop variable walks the array's consecutive elements
}

void reversed(const float *restrict a, float *restrict b, int n)
{
    for (int i = 0; i < n; i++)
        b[i] = a[n - 1 - i]; // expect-warning[strided-access]: 'a[n - 1 - i]' runs backwards or stands still along 'i'
}
