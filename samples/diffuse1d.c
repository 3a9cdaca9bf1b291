/* Diffusion along a long rod, STEPS explicit steps: each step smooths the
 * interior of `a` into `b` with a binomial filter (in[i-2] + 4 in[i-1] +
 * 6 in[i] + 4 in[i+1] + in[i+2]) / 16, then `b` back into `a` (PolyBench's
 * jacobi-1d form, reach 2). The two elements at each end stay as they are.
 * Indices are long, so N may exceed 2^31 elements (tens of GiB: more than a
 * GPU holds; recipe advise --gpu-memory then plans ghost zones).
 *   gcc -O2 diffuse1d.c -o diffuse1d [-DN=... -DSTEPS=...]
 *   ./diffuse1d [out.bin]     out.bin gets `a` as raw floats */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N (32L * 1024 * 1024)
#endif
#ifndef STEPS
#define STEPS 10
#endif

static void diffuse(float *a, float *b)
{
    long i;
    int t;
    for (t = 0; t < STEPS; t++) {
        for (i = 2; i < N - 2; i++)
            b[i] = (a[i - 2] + 4.0f * a[i - 1] + 6.0f * a[i] + 4.0f * a[i + 1] + a[i + 2]) / 16.0f;
        for (i = 2; i < N - 2; i++)
            a[i] = (b[i - 2] + 4.0f * b[i - 1] + 6.0f * b[i] + 4.0f * b[i + 1] + b[i + 2]) / 16.0f;
    }
}

int main(int argc, char **argv)
{
    float *a = malloc((size_t)N * sizeof *a);
    float *b = malloc((size_t)N * sizeof *b);
    double checksum = 0.0;
    long i;

    if (!a || !b) {
        fprintf(stderr, "diffuse1d: out of memory\n");
        return 1;
    }
    /* A sawtooth with hashed noise, exact in floats. */
    for (i = 0; i < N; i++) {
        a[i] = (float)(i % 1000) / 1000.0f + (float)((i * 2654435761L) & 255) / 4096.0f;
        b[i] = a[i];
    }
    diffuse(a, b);

    for (i = 0; i < N; i++)
        checksum += a[i];
    printf("diffuse1d N=%ld STEPS=%d checksum=%.6e\n", (long)N, STEPS, checksum);

    if (argc > 1) {
        FILE *f = fopen(argv[1], "wb");
        if (!f || fwrite(a, sizeof *a, (size_t)N, f) != (size_t)N || fclose(f) != 0) {
            perror(argv[1]);
            return 1;
        }
    }
    free(a);
    free(b);
    return 0;
}
