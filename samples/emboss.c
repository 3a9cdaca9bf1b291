/* Emboss filter on a W x H greyscale image stored row by row: the sum of the
 * right, lower and lower-right neighbours minus the sum of the left, upper and
 * upper-left neighbours. Pixels on the border reuse their nearest neighbour.
 *   gcc -O2 emboss.c -o emboss -lm [-DW=... -DH=...]
 *   ./emboss [out.bin]     out.bin gets `out` as raw floats */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef W
#define W 8000
#endif
#ifndef H
#define H 8000
#endif

static void emboss(const float *in, float *out)
{
    int x, y;
    for (y = 0; y < H; y++) {
        for (x = 0; x < W; x++) {
            int xm = x > 0 ? x - 1 : 0;
            int xp = x < W - 1 ? x + 1 : W - 1;
            int ym = y > 0 ? y - 1 : 0;
            int yp = y < H - 1 ? y + 1 : H - 1;
            float lit = in[y * W + xp] + in[yp * W + x] + in[yp * W + xp];
            float shade = in[y * W + xm] + in[ym * W + x] + in[ym * W + xm];
            out[y * W + x] = 0.5f + (lit - shade) / 6.0f;
        }
    }
}

int main(int argc, char **argv)
{
    float *in = malloc((size_t)W * H * sizeof *in);
    float *out = malloc((size_t)W * H * sizeof *out);
    double checksum = 0.0;
    size_t i;
    int x, y;

    if (!in || !out) {
        fprintf(stderr, "emboss: out of memory\n");
        return 1;
    }
    /* Smooth ripples plus a little deterministic grain. */
    for (y = 0; y < H; y++)
        for (x = 0; x < W; x++)
            in[(size_t)y * W + x] = 0.5f + 0.4f * sinf(0.013f * x) * cosf(0.021f * y)
                                    + 0.05f * (float)((x * 7 + y * 13) % 17) / 17.0f;
    emboss(in, out);

    for (i = 0; i < (size_t)W * H; i++)
        checksum += out[i];
    printf("emboss %dx%d checksum=%.6e\n", W, H, checksum);

    if (argc > 1) {
        FILE *f = fopen(argv[1], "wb");
        if (!f || fwrite(out, sizeof *out, (size_t)W * H, f) != (size_t)W * H || fclose(f) != 0) {
            perror(argv[1]);
            return 1;
        }
    }
    free(in);
    free(out);
    return 0;
}
