/* The thesis's idx2(x, y, size) as a static inline helper. */
static inline int idx2(int x, int y, int size) { return y * size + x; }

void blur(const float *restrict in, float *restrict out, int size)
{
    for (int y = 1; y < size - 1; y++)
        for (int x = 1; x < size - 1; x++)
            out[idx2(x, y, size)] = (in[idx2(x - 1, y, size)] + in[idx2(x, y, size)] + in[idx2(x + 1, y, size)]) / 3.0f;
}
