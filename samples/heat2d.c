/* Explicit heat diffusion on a W x H plate, the way teaching codes write it:
 * each step computes the new temperatures of the interior from the old ones
 * (a 5-point stencil), then copies them back over the old grid. The edges
 * stay at their initial temperature.
 *   gcc -O2 heat2d.c -o heat2d [-DW=... -DH=... -DSTEPS=...]
 *   ./heat2d [out.bin]     out.bin gets the final grid as raw floats */
#include <stdio.h>
#include <stdlib.h>

#ifndef W
#define W 2048
#endif
#ifndef H
#define H 2048
#endif
#ifndef STEPS
#define STEPS 100
#endif

#define AT(x, y) ((y) * W + (x))

static const float alpha = 0.2f;

static void diffuse(float *t, float *tnew)
{
    int step, x, y;
    for (step = 0; step < STEPS; step++) {
        for (y = 1; y < H - 1; y++)
            for (x = 1; x < W - 1; x++)
                tnew[AT(x, y)] = t[AT(x, y)] + alpha * (t[AT(x - 1, y)] + t[AT(x + 1, y)] + t[AT(x, y - 1)] +
                                                        t[AT(x, y + 1)] - 4.0f * t[AT(x, y)]);
        for (y = 1; y < H - 1; y++)
            for (x = 1; x < W - 1; x++)
                t[AT(x, y)] = tnew[AT(x, y)];
    }
}

int main(int argc, char **argv)
{
    float *t = malloc(sizeof(float) * W * H);
    float *tnew = malloc(sizeof(float) * W * H);
    double checksum = 0.0;
    int x, y;

    if (!t || !tnew) {
        fprintf(stderr, "heat2d: out of memory\n");
        return 1;
    }
    /* A cold plate with a hot left edge and a few warm spots. */
    for (y = 0; y < H; y++)
        for (x = 0; x < W; x++) {
            t[AT(x, y)] = x == 0 ? 100.0f : (float)((x * 7 + y * 13) % 29 == 0) * 50.0f;
            tnew[AT(x, y)] = t[AT(x, y)];
        }
    diffuse(t, tnew);

    for (y = 0; y < H; y++)
        for (x = 0; x < W; x++)
            checksum += t[AT(x, y)];
    printf("heat2d %dx%d steps=%d checksum=%.6e\n", W, H, STEPS, checksum);

    if (argc > 1) {
        FILE *out = fopen(argv[1], "wb");
        size_t n = (size_t)W * H;
        if (!out || fwrite(t, sizeof(float), n, out) != n || fclose(out) != 0) {
            perror(argv[1]);
            return 1;
        }
    }
    free(t);
    free(tnew);
    return 0;
}
