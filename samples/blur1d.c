/* A 1-D weighted blur over a long signal: every interior element becomes
 * (in[i-2] + 4 in[i-1] + 6 in[i] + 4 in[i+1] + in[i+2]) / 16 (a binomial
 * filter); the two elements at each end are copied. Indices are long, so N
 * may exceed 2^31 elements (tens of GiB: more than a GPU holds).
 *   gcc -O2 blur1d.c -o blur1d [-DN=...]
 *   ./blur1d [out.bin]     out.bin gets `out` as raw floats */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N (64L * 1024 * 1024)
#endif

static void blur(const float *in, float *out)
{
    long i;
    for (i = 0; i < N; i++) {
        if (i < 2 || i >= N - 2)
            out[i] = in[i];
        else
            out[i] = (in[i - 2] + 4.0f * in[i - 1] + 6.0f * in[i] + 4.0f * in[i + 1] + in[i + 2]) / 16.0f;
    }
}

int main(int argc, char **argv)
{
    float *in = malloc((size_t)N * sizeof *in);
    float *out = malloc((size_t)N * sizeof *out);
    double checksum = 0.0;
    long i;

    if (!in || !out) {
        fprintf(stderr, "blur1d: out of memory\n");
        return 1;
    }
    /* A sawtooth with hashed noise, exact in floats. */
    for (i = 0; i < N; i++)
        in[i] = (float)(i % 1000) / 1000.0f + (float)((i * 2654435761L) & 255) / 4096.0f;
    blur(in, out);

    for (i = 0; i < N; i++)
        checksum += out[i];
    printf("blur1d N=%ld checksum=%.6e\n", (long)N, checksum);

    if (argc > 1) {
        FILE *f = fopen(argv[1], "wb");
        if (!f || fwrite(out, sizeof *out, (size_t)N, f) != (size_t)N || fclose(f) != 0) {
            perror(argv[1]);
            return 1;
        }
    }
    free(in);
    free(out);
    return 0;
}
