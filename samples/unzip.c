/* Image gradient by central differences: one input field, two output fields
 * (gx along x, gy along y). Only interior points are computed; the border of
 * both outputs stays zero.
 *   gcc -O2 unzip.c -o unzip -lm [-DW=... -DH=...]
 *   ./unzip [out.bin]     out.bin gets `gx` then `gy` as raw floats */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef W
#define W 4096
#endif
#ifndef H
#define H 4096
#endif

static void gradient(const float *field, float *gx, float *gy)
{
    int x, y;
    for (y = 1; y < H - 1; y++) {
        for (x = 1; x < W - 1; x++) {
            gx[y * W + x] = 0.5f * (field[y * W + x + 1] - field[y * W + x - 1]);
            gy[y * W + x] = 0.5f * (field[(y + 1) * W + x] - field[(y - 1) * W + x]);
        }
    }
}

int main(int argc, char **argv)
{
    const size_t n = (size_t)W * H;
    float *field = malloc(n * sizeof *field);
    float *gx = calloc(n, sizeof *gx);
    float *gy = calloc(n, sizeof *gy);
    double checksum = 0.0;
    size_t i;
    int x, y;

    if (!field || !gx || !gy) {
        fprintf(stderr, "unzip: out of memory\n");
        return 1;
    }
    /* A height map: two overlapping bumps. */
    for (y = 0; y < H; y++)
        for (x = 0; x < W; x++) {
            float u = (float)x / W, v = (float)y / H;
            field[(size_t)y * W + x] = expf(-20.0f * ((u - 0.3f) * (u - 0.3f) + (v - 0.4f) * (v - 0.4f)))
                                       + 0.5f * sinf(9.0f * u) * cosf(7.0f * v);
        }
    gradient(field, gx, gy);

    for (i = 0; i < n; i++)
        checksum += fabsf(gx[i]) + 2.0 * fabsf(gy[i]);
    printf("unzip %dx%d checksum=%.6e\n", W, H, checksum);

    if (argc > 1) {
        FILE *f = fopen(argv[1], "wb");
        if (!f || fwrite(gx, sizeof *gx, n, f) != n || fwrite(gy, sizeof *gy, n, f) != n
            || fclose(f) != 0) {
            perror(argv[1]);
            return 1;
        }
    }
    free(field);
    free(gx);
    free(gy);
    return 0;
}
