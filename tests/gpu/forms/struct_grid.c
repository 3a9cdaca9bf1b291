/* recipe advise flags: --assume-no-alias --assume in->nx=640 --assume in->ny=480 */
/* A heat step on grids held in structs, as teaching codes write it: the
 * sizes and the data are fields, the index is a temporary.
 * ./struct_grid [out.bin] writes the new grid. */
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    int nx, ny;
    double *u;
} grid_t;

static void heat_step(const grid_t *in, grid_t *out, double alpha)
{
    for (int j = 1; j < in->ny - 1; j++)
        for (int i = 1; i < in->nx - 1; i++) {
            int c = j * in->nx + i;
            out->u[c] = in->u[c] + alpha * (in->u[c - 1] + in->u[c + 1] + in->u[c - in->nx] + in->u[c + in->nx] - 4.0 * in->u[c]);
        }
}

int main(int argc, char **argv)
{
    grid_t a = {640, 480, NULL}, b = {640, 480, NULL};
    a.u = calloc((size_t)a.nx * a.ny, sizeof(double));
    b.u = calloc((size_t)b.nx * b.ny, sizeof(double));
    if (!a.u || !b.u) return 1;
    for (int n = 0; n < a.nx * a.ny; n++) a.u[n] = (double)(n % 101) / 7.0;
    heat_step(&a, &b, 0.1);
    if (argc > 1) {
        FILE *f = fopen(argv[1], "wb");
        if (!f || fwrite(b.u, sizeof *b.u, (size_t)b.nx * b.ny, f) != (size_t)b.nx * b.ny || fclose(f)) return 1;
    }
    free(a.u);
    free(b.u);
    return 0;
}
