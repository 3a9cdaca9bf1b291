/* 3x3 box blur of an image held as an array of separately allocated rows
 * (float **), as image loaders often hand it out. Interior pixels only; the
 * one-pixel border of the output stays zero.
 *   gcc -O2 blur_rows.c -o blur_rows [-DW=... -DH=...]
 *   ./blur_rows [out.bin]     out.bin gets the output rows, top to bottom, as raw floats */
#include <stdio.h>
#include <stdlib.h>

#ifndef W
#define W 4096
#endif
#ifndef H
#define H 4096
#endif

static void box_blur(float **src, float **dst)
{
    int y, x;
    for (y = 1; y < H - 1; y++)
        for (x = 1; x < W - 1; x++)
            dst[y][x] = (src[y - 1][x - 1] + src[y - 1][x] + src[y - 1][x + 1]
                         + src[y][x - 1] + src[y][x] + src[y][x + 1]
                         + src[y + 1][x - 1] + src[y + 1][x] + src[y + 1][x + 1]) / 9.0f;
}

static float **alloc_rows(int zeroed)
{
    float **rows = malloc(H * sizeof *rows);
    int y;
    if (!rows)
        return NULL;
    for (y = 0; y < H; y++) {
        rows[y] = zeroed ? calloc(W, sizeof **rows) : malloc(W * sizeof **rows);
        if (!rows[y])
            return NULL;
    }
    return rows;
}

int main(int argc, char **argv)
{
    float **src = alloc_rows(0);
    float **dst = alloc_rows(1);
    double checksum = 0.0;
    unsigned state = 99u;
    int x, y;

    if (!src || !dst) {
        fprintf(stderr, "blur_rows: out of memory\n");
        return 1;
    }
    for (y = 0; y < H; y++)
        for (x = 0; x < W; x++) {
            state = state * 1664525u + 1013904223u;
            src[y][x] = (float)((x / 32 + y / 32) % 2) + (float)(state >> 8) / 16777216.0f * 0.2f;
        }
    box_blur(src, dst);

    for (y = 0; y < H; y++)
        for (x = 0; x < W; x++)
            checksum += dst[y][x];
    printf("blur_rows %dx%d checksum=%.6e\n", W, H, checksum);

    if (argc > 1) {
        FILE *f = fopen(argv[1], "wb");
        for (y = 0; f && y < H; y++)
            if (fwrite(dst[y], sizeof **dst, W, f) != (size_t)W)
                break;
        if (!f || y < H || fclose(f) != 0) {
            perror(argv[1]);
            return 1;
        }
    }
    for (y = 0; y < H; y++) {
        free(src[y]);
        free(dst[y]);
    }
    free(src);
    free(dst);
    return 0;
}
