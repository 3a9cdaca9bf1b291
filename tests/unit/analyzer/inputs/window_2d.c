/* A 3x3 window written as two perfectly nested loops inside the nest. */
#define W 640
#define H 480
void mean3x3(const float *restrict in, float *restrict out)
{
    for (int y = 1; y < H - 1; y++)
        for (int x = 1; x < W - 1; x++) {
            float s = 0.0f;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++)
                    s += in[(y + dy) * W + (x + dx)];
            out[y * W + x] = s / 9.0f;
        }
}
