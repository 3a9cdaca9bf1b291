/* Row pointers set up in the body: `row[x]` is in[y*W + x]. */
#define W 320
#define H 200
void rows(const float *restrict in, float *restrict out)
{
    for (int y = 1; y < H - 1; y++) {
        for (int x = 0; x < W; x++) {
            const float *above = in + (y - 1) * W;
            const float *below = &in[(y + 1) * W];
            out[y * W + x] = above[x] - below[x];
        }
    }
}
