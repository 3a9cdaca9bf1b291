/* recipe advise flags:  */
/* A 1-D diffusion written with two buffers picked by the step's parity
 * (u[t % 2] read, u[(t + 1) % 2] written): the time loop's steps run one
 * library call each, on the rows the parity picks. ./toggle_rows [out.bin]
 * writes both rows. */
#include <stdio.h>
#include <stdlib.h>

#define N 1000000
#define STEPS 40

static float u[2][N];

static void diffuse(void)
{
    int t, i;
    for (t = 0; t < STEPS; t++)
        for (i = 1; i < N - 1; i++)
            u[(t + 1) % 2][i] = 0.25f * u[t % 2][i - 1] + 0.5f * u[t % 2][i] + 0.25f * u[t % 2][i + 1];
}

int main(int argc, char **argv)
{
    int i;
    for (i = 0; i < N; i++) {
        u[0][i] = (float)(i % 97) * 0.5f;
        u[1][i] = (float)(i % 13);
    }
    diffuse();
    if (argc > 1) {
        FILE *f = fopen(argv[1], "wb");
        if (!f || fwrite(u, sizeof(float), (size_t)2 * N, f) != (size_t)2 * N || fclose(f)) return 1;
    }
    printf("%f\n", u[STEPS % 2][N / 2]);
    return 0;
}
