/* Indices read from memory. */
void gather(const float *restrict in, const int *restrict idx, float *restrict out, int n)
{
    for (int i = 0; i < n; i++)
        out[i] = in[idx[i]]; // expect-warning[data-dependent-index]: data-dependent index in 'in[idx[i]]': index reads 'idx[i]' from memory
}

void gather_temp(const float *restrict in, const int *restrict idx, float *restrict out, int n)
{
    for (int i = 0; i < n; i++) {
        int k = idx[i];
        out[i] = in[k]; // expect-warning[data-dependent-index]: data-dependent index in 'in[k]': index reads 'idx[i]' from memory
    }
}
