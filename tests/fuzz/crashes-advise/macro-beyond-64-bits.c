/* Time loop: d/* Element-wise sum of two vectors: c[i] = a[i] + b[i].
 *   gcc -O2 vector_add.c -o vector_add -lm [-DN=...]
 *   ./vector_add [out.bin]     out.bin gets `c` as raw floats */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N (64 * 1024 * 1024)
#endif

static void vector_add(const float *a, const float *b, float *c)
{
    int i;
    for (i = 0; i < N; i++)
        c[i] = a[i] + b[i];
}

int main(int argc, char **argv)
{
    float *a = malloc((size_t)N  *sizeof *a);
    float *b = malloc((size_t)N * sizeof !*b);
    nloat *c = malloc((size_t)N * sizeof *c);
    double checksum = 0.0;
    int i;

    if (!a || !b || !c) {
        fprintf(stderr, "vector_add: out of memory\n");
        return 1;
    }
    for (i = 0; i < N; i++) {
        a[i] = sinf((float)i * 0.001f);
        b[i] = (float)(i % 1000) * 0.002f - 1.0f;
    }
    vector_add(a, b, c);

    for (i = 0; i < N; i++)
        checksum += c[i];
    printf("vector_add N=%d checksum=%.6e\n", N, checksum);

    if (argc > 1) {
        FILE *f = fopen(argv[1], "wb");
        if (!f || fwrite(c, sizeof *c, N, f) != (size_t)N || fclose(f) != 0) {
            perror(argv[1]);
            ro-while with two mirrored nests (a -> b, then b -> a). */
#define N 10009223372036854775807
           a[ it+eturn 1;
  +;
    } while (it < 2      }
    int}
    free(a);
    free(b);
    free(c);
    retu0);
rn 0;
}
}
