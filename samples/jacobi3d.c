/* One Jacobi sweep of the 3D Laplace equation: every interior point becomes
 * the mean of itself and its six face neighbours. The grid is one flat array,
 * x fastest. Boundary points of `out` stay zero.
 *   gcc -O2 jacobi3d.c -o jacobi3d -lm [-DNX=... -DNY=... -DNZ=...]
 *   ./jacobi3d [out.bin]     out.bin gets `out` as raw floats */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef NX
#define NX 400
#endif
#ifndef NY
#define NY 400
#endif
#ifndef NZ
#define NZ 400
#endif

#define IDX(x, y, z) ((x) + NX * ((y) + NY * (z)))

static void jacobi_sweep(const float *in, float *out)
{
    int x, y, z;
    for (z = 1; z < NZ - 1; z++)
        for (y = 1; y < NY - 1; y++)
            for (x = 1; x < NX - 1; x++)
                out[IDX(x, y, z)] = (in[IDX(x, y, z)]
                                     + in[IDX(x - 1, y, z)] + in[IDX(x + 1, y, z)]
                                     + in[IDX(x, y - 1, z)] + in[IDX(x, y + 1, z)]
                                     + in[IDX(x, y, z - 1)] + in[IDX(x, y, z + 1)]) / 7.0f;
}

int main(int argc, char **argv)
{
    const size_t n = (size_t)NX * NY * NZ;
    float *in = malloc(n * sizeof *in);
    float *out = calloc(n, sizeof *out);
    double checksum = 0.0;
    size_t i;

    if (!in || !out) {
        fprintf(stderr, "jacobi3d: out of memory\n");
        return 1;
    }
    for (i = 0; i < n; i++)
        in[i] = sinf(0.001f * (float)(i % 100003)) + (float)(i % 7) * 0.125f;
    jacobi_sweep(in, out);

    for (i = 0; i < n; i++)
        checksum += out[i];
    printf("jacobi3d %dx%dx%d checksum=%.6e\n", NX, NY, NZ, checksum);

    if (argc > 1) {
        FILE *f = fopen(argv[1], "wb");
        if (!f || fwrite(out, sizeof *out, n, f) != n || fclose(f) != 0) {
            perror(argv[1]);
            return 1;
        }
    }
    free(in);
    free(out);
    return 0;
}
