/* 1D moving average: every output element is the mean of a window of
 * 2*RADIUS+1 input elements centred on it (the borders are left at zero).
 *   gcc -O2 moving_average.c -o moving_average [-DN=... -DRADIUS=...]
 *   ./moving_average [out.bin]     out.bin gets `out` as raw floats */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N (64 * 1024 * 1024)
#endif
#ifndef RADIUS
#define RADIUS 4
#endif

static void moving_average(const float *in, float *out)
{
    int i, d;
    for (i = RADIUS; i < N - RADIUS; i++) {
        float s = 0.0f;
        for (d = -RADIUS; d <= RADIUS; d++)
            s += in[i + d];
        out[i] = s / (2 * RADIUS + 1);
    }
}

/* A price-like series: a slow random walk from a linear congruential generator. */
static void fill_series(float *a, size_t n)
{
    unsigned state = 12345u;
    float level = 100.0f;
    size_t i;
    for (i = 0; i < n; i++) {
        state = state * 1664525u + 1013904223u;
        level += ((float)(state >> 8) / 16777216.0f - 0.5f) * 0.25f;
        if (level < 1.0f)
            level = 1.0f;
        a[i] = level;
    }
}

int main(int argc, char **argv)
{
    float *in = malloc((size_t)N * sizeof *in);
    float *out = calloc((size_t)N, sizeof *out);
    double checksum = 0.0;
    size_t i;

    if (!in || !out) {
        fprintf(stderr, "moving_average: out of memory\n");
        return 1;
    }
    fill_series(in, N);
    moving_average(in, out);

    for (i = 0; i < (size_t)N; i++)
        checksum += out[i];
    printf("moving_average N=%d RADIUS=%d checksum=%.6e\n", N, RADIUS, checksum);

    if (argc > 1) {
        FILE *f = fopen(argv[1], "wb");
        if (!f || fwrite(out, sizeof *out, N, f) != (size_t)N || fclose(f) != 0) {
            perror(argv[1]);
            return 1;
        }
    }
    free(in);
    free(out);
    return 0;
}
