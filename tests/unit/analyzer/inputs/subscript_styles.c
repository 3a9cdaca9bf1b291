/* Offsets written as 1+i and i+0: the same map as in[i+1], in[i]. */
void shift_add(const float *restrict in, float *restrict out, int n)
{
    for (int i = 0; i < n - 1; i++)
        out[i + 0] = in[1 + i] + in[i + 0] + in[i];
}
