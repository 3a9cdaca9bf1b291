/* Smooths a synthetic W x H test image with a 3 x 3 box filter: the image is
 * generated from integer hashes (exact on any machine), filtered into `out`,
 * and only `out` is kept. Pixels on the border keep their value.
 *   gcc -O2 smooth.c -o smooth [-DW=... -DH=...]
 *   ./smooth [out.bin]     out.bin gets `out` as raw floats */
#include <stdio.h>
#include <stdlib.h>

#ifndef W
#define W 8192
#endif
#ifndef H
#define H 8192
#endif

int main(int argc, char **argv)
{
    float *img = malloc((size_t)W * H * sizeof *img);
    float *out = malloc((size_t)W * H * sizeof *out);
    double checksum = 0.0;
    size_t i;
    int x, y;

    if (!img || !out) {
        fprintf(stderr, "smooth: out of memory\n");
        return 1;
    }
    /* A test pattern: stripes plus hashed grain, in [0, 1). */
    for (y = 0; y < H; y++)
        for (x = 0; x < W; x++)
            img[(size_t)y * W + x] = (float)(((x / 16 + y / 16) & 1) * 64 + ((x * 73 + y * 151) & 63)) / 128.0f;

    for (y = 0; y < H; y++)
        for (x = 0; x < W; x++) {
            size_t c = (size_t)y * W + x;
            if (x == 0 || y == 0 || x == W - 1 || y == H - 1) {
                out[c] = img[c];
            } else {
                out[c] = (img[c - W - 1] + img[c - W] + img[c - W + 1] +
                          img[c - 1] + img[c] + img[c + 1] +
                          img[c + W - 1] + img[c + W] + img[c + W + 1]) / 9.0f;
            }
        }
    free(img);

    for (i = 0; i < (size_t)W * H; i++)
        checksum += out[i];
    printf("smooth %dx%d checksum=%.6e\n", W, H, checksum);

    if (argc > 1) {
        FILE *f = fopen(argv[1], "wb");
        if (!f || fwrite(out, sizeof *out, (size_t)W * H, f) != (size_t)W * H || fclose(f) != 0) {
            perror(argv[1]);
            return 1;
        }
    }
    free(out);
    return 0;
}
