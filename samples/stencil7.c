/* A 7-point 3-D stencil written the way Parboil's stencil benchmark writes
 * it: the sweep is a function of its own, main calls it ITERATIONS times
 * and swaps the two grids between calls. Faces of the grid stay fixed.
 *   gcc -O2 stencil7.c -o stencil7 [-DNX=... -DNY=... -DNZ=... -DITERATIONS=...]
 *   ./stencil7 [out.bin]     out.bin gets the last grid as raw floats */
#include <stdio.h>
#include <stdlib.h>

#ifndef NX
#define NX 512
#endif
#ifndef NY
#define NY 512
#endif
#ifndef NZ
#define NZ 64
#endif
#ifndef ITERATIONS
#define ITERATIONS 20
#endif

#define Index3D(_nx, _ny, _i, _j, _k) ((_i) + _nx * ((_j) + _ny * (_k)))

static void stencil_sweep(float c0, float c1, const float *A0, float *Anext, int nx, int ny, int nz)
{
    int i, j, k;
    for (k = 1; k < nz - 1; k++)
        for (j = 1; j < ny - 1; j++)
            for (i = 1; i < nx - 1; i++)
                Anext[Index3D(nx, ny, i, j, k)] =
                    (A0[Index3D(nx, ny, i, j, k + 1)] + A0[Index3D(nx, ny, i, j, k - 1)] +
                     A0[Index3D(nx, ny, i, j + 1, k)] + A0[Index3D(nx, ny, i, j - 1, k)] +
                     A0[Index3D(nx, ny, i + 1, j, k)] + A0[Index3D(nx, ny, i - 1, j, k)]) * c1
                    - A0[Index3D(nx, ny, i, j, k)] * c0;
}

int main(int argc, char **argv)
{
    int nx = NX, ny = NY, nz = NZ, t;
    size_t n, size = (size_t)nx * ny * nz;
    float *h_A0 = malloc(size * sizeof(float));
    float *h_Anext = malloc(size * sizeof(float));
    double checksum = 0.0;

    if (!h_A0 || !h_Anext) {
        fprintf(stderr, "stencil7: out of memory\n");
        return 1;
    }
    for (n = 0; n < size; n++)
        h_A0[n] = h_Anext[n] = (float)(n % 101) / 101.0f;

    for (t = 0; t < ITERATIONS; t++) {
        float *tmp;
        stencil_sweep(1.0f / 6.0f, 1.0f / 6.0f / 6.0f, h_A0, h_Anext, nx, ny, nz);
        tmp = h_A0;
        h_A0 = h_Anext;
        h_Anext = tmp;
    }

    for (n = 0; n < size; n++)
        checksum += h_A0[n];
    printf("stencil7 %dx%dx%d, %d iterations: checksum=%.6e\n", nx, ny, nz, ITERATIONS, checksum);
    if (argc > 1) {
        FILE *f = fopen(argv[1], "wb");
        if (!f || fwrite(h_A0, sizeof *h_A0, size, f) != size || fclose(f) != 0) {
            perror(argv[1]);
            return 1;
        }
    }
    free(h_A0);
    free(h_Anext);
    return 0;
}
