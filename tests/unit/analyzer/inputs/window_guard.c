/* A window loop guarded against the array ends. */
#define R 2
void box(const float *restrict in, float *restrict out, int n)
{
    for (int i = 0; i < n; i++) {
        float s = 0.0f;
        for (int d = -R; d <= R; d++) {
            int j = i + d;
            if (j >= 0 && j < n)
                s += in[j];
        }
        out[i] = s;
    }
}
