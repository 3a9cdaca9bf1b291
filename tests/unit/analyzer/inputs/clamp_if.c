/* Neighbour indices clamped with if statements on temporaries. */
void diffuse(const float *restrict in, float *restrict out, int n)
{
    for (int i = 0; i < n; i++) {
        int left = i - 1;
        int right = i + 1;
        if (left < 0)
            left = 0;
        if (right > n - 1)
            right = n - 1;
        out[i] = 0.5f * in[i] + 0.25f * (in[left] + in[right]);
    }
}
