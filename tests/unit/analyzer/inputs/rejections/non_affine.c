/* Indices that are not loop variables plus constants. */
void squares(const float *restrict a, float *restrict b, int n)
{
    for (int i = 0; i < n; i++)
        b[i] = a[i * i]; // expect-warning[non-affine-index]: non-affine index in 'a[i * i]': 'i * i' multiplies loop variables
}

void halves(const float *restrict a, float *restrict b, int n)
{
    for (int i = 0; i < n; i++)
        b[i] = a[i / 2]; // expect-warning[non-affine-index]: non-affine index in 'a[i / 2]': 'i / 2' is not affine in the loop variables
}

void symbolic_offset(const float *restrict a, float *restrict b, int n, int k)
{
    for (int i = 0; i < n; i++)
        b[i] = a[i + k]; // expect-warning[non-affine-index]: non-affine index in 'a[i + k]': offset k in 'a[i + k]' is not a compile-time constant
}
