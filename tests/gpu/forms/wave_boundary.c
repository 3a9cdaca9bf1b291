/* recipe advise flags:  */
/* A 2-D field update written the FDTD way: every step drives the first row
 * of ez with a source value read at the step (pulse[t]), copies the row
 * before the last into the last (an open boundary), then updates ez from
 * hx and hx from ez. The boundary nests touch single rows of the 2-D
 * arrays the field nests update whole. ./wave_boundary [out.bin] writes ez
 * then hx. */
#include <stdio.h>
#include <stdlib.h>

#define NX 900
#define NY 700
#define STEPS 400

static double ez[NX][NY], hx[NX][NY], pulse[STEPS];

static void propagate(void)
{
    int t, i, j;
    for (t = 0; t < STEPS; t++) {
        for (j = 0; j < NY; j++)
            ez[0][j] = pulse[t];
        for (j = 0; j < NY; j++)
            ez[NX - 1][j] = ez[NX - 2][j];
        for (i = 1; i < NX - 1; i++)
            for (j = 0; j < NY; j++)
                ez[i][j] = ez[i][j] + 0.5 * (hx[i][j] - hx[i - 1][j]);
        for (i = 0; i < NX - 1; i++)
            for (j = 0; j < NY; j++)
                hx[i][j] = hx[i][j] + 0.25 * (ez[i + 1][j] - ez[i][j]);
    }
}

int main(int argc, char **argv)
{
    int t, i, j;
    for (t = 0; t < STEPS; t++)
        pulse[t] = (double)(t % 9) * 0.125;
    for (i = 0; i < NX; i++)
        for (j = 0; j < NY; j++) {
            ez[i][j] = (double)((i * 3 + j) % 11) * 0.5;
            hx[i][j] = (double)((i + j * 5) % 13) * 0.25;
        }
    propagate();
    if (argc > 1) {
        FILE *f = fopen(argv[1], "wb");
        if (!f || fwrite(ez, sizeof(double), (size_t)NX * NY, f) != (size_t)NX * NY ||
            fwrite(hx, sizeof(double), (size_t)NX * NY, f) != (size_t)NX * NY || fclose(f))
            return 1;
    }
    printf("%f %f\n", ez[NX / 2][NY / 2], hx[NX / 3][NY / 3]);
    return 0;
}
