/* A syntax error inside a nest: reported, the nest rejected; the valid nest
 * after it is still analysed. */
void broken(const float *restrict a, float *restrict b, int n)
{
    for (int i = 0; i < n; i++) // expect-warning[syntax]: loop nest contains a syntax error
        b[i] = a[i] + ; // expect-error[syntax]: syntax error
}

void fine(const float *restrict a, float *restrict b, int n)
{
    for (int i = 0; i < n; i++)
        b[i] = a[i] * 2.0f;
}
