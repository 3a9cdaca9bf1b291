/* 1D successive over-relaxation smoother: each point is replaced in place by
 * the mean of itself and its two neighbours, sweeping left to right, so every
 * update already sees the new value of its left neighbour (a loop-carried
 * dependence: the sweep cannot run as independent iterations).
 *   gcc -O2 sor1d.c -o sor1d [-DN=... -DSWEEPS=...]
 *   ./sor1d [out.bin]     out.bin gets `a` as raw floats */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N (1024 * 1024)
#endif
#ifndef SWEEPS
#define SWEEPS 10
#endif

static void sor(float *a)
{
    int t, i;
    for (t = 1; t <= SWEEPS; t++)
        for (i = 1; i <= N; i++)
            a[i] = (a[i - 1] + a[i] + a[i + 1]) / 3;
}

int main(int argc, char **argv)
{
    /* N interior points plus one fixed boundary point on each side. */
    float *a = malloc((size_t)(N + 2) * sizeof *a);
    double checksum = 0.0;
    unsigned state = 7u;
    int i;

    if (!a) {
        fprintf(stderr, "sor1d: out of memory\n");
        return 1;
    }
    for (i = 0; i < N + 2; i++) {
        state = state * 1664525u + 1013904223u;
        a[i] = (float)(state >> 8) / 16777216.0f;
    }
    sor(a);

    for (i = 0; i < N + 2; i++)
        checksum += a[i];
    printf("sor1d N=%d sweeps=%d checksum=%.6e\n", N, SWEEPS, checksum);

    if (argc > 1) {
        FILE *f = fopen(argv[1], "wb");
        if (!f || fwrite(a, sizeof *a, N + 2, f) != (size_t)(N + 2) || fclose(f) != 0) {
            perror(argv[1]);
            return 1;
        }
    }
    free(a);
    return 0;
}
