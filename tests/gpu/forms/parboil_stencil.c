/* recipe advise flags: --assume-no-alias */
/* A 7-point 3-D stencil written the way Parboil's stencil benchmark writes
 * it: sizes are locals of main passed as parameters, the index macro lives
 * in a header, main calls the kernel function from a time loop and swaps
 * the two grids. ./parboil_stencil [out.bin] writes the last grid. */
#include <stdio.h>
#include <stdlib.h>
#include "parboil_common.h"

static void cpu_stencil(float c0, float c1, float *A0, float *Anext, const int nx, const int ny, const int nz)
{
    int i, j, k;
    for (k = 1; k < nz - 1; k++) {
        for (j = 1; j < ny - 1; j++) {
            for (i = 1; i < nx - 1; i++) {
                Anext[Index3D (nx, ny, i, j, k)] =
                    (A0[Index3D (nx, ny, i, j, k + 1)] + A0[Index3D (nx, ny, i, j, k - 1)] +
                     A0[Index3D (nx, ny, i, j + 1, k)] + A0[Index3D (nx, ny, i, j - 1, k)] +
                     A0[Index3D (nx, ny, i + 1, j, k)] + A0[Index3D (nx, ny, i - 1, j, k)]) * c1
                    - A0[Index3D (nx, ny, i, j, k)] * c0;
            }
        }
    }
}

int main(int argc, char **argv)
{
    int nx = 128, ny = 96, nz = 64, t, n;
    float *A0 = malloc(sizeof(float) * nx * ny * nz), *Anext = malloc(sizeof(float) * nx * ny * nz);
    if (!A0 || !Anext) return 1;
    for (n = 0; n < nx * ny * nz; n++) A0[n] = Anext[n] = (float)(n % 97) / 97.0f;
    for (t = 0; t < 4; t++) {
        float *tmp;
        cpu_stencil(1.0f / 6.0f, 0.5f, A0, Anext, nx, ny, nz);
        tmp = A0;
        A0 = Anext;
        Anext = tmp;
    }
    if (argc > 1) {
        FILE *f = fopen(argv[1], "wb");
        if (!f || fwrite(A0, sizeof *A0, (size_t)nx * ny * nz, f) != (size_t)nx * ny * nz || fclose(f)) return 1;
    }
    free(A0);
    free(Anext);
    return 0;
}
