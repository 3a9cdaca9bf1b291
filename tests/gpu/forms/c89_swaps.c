/* recipe advise flags: --assume-no-alias --assume n=1048576 */
/* A 1-D relaxation written in C89 style, the way older codes write it: every
 * variable declared at the top of its function, the time loops exchanging
 * their grids through a temporary declared there too. smooth_steps() runs
 * its steps in a loop of its own; main then calls relax() from a loop.
 * ./c89_swaps [out.bin] writes the last grid. */
#include <stdio.h>
#include <stdlib.h>

#define N 1048576
#define STEPS 24

static void relax(const double *in, double *out, int n)
{
    int i;
    for (i = 1; i < n - 1; i++)
        out[i] = 0.25 * in[i - 1] + 0.5 * in[i] + 0.25 * in[i + 1];
}

static void smooth_steps(double *u, double *v, int n)
{
    double *tmp;
    int i, t;
    for (t = 0; t < STEPS; t++) {
        for (i = 1; i < n - 1; i++)
            v[i] = 0.5 * u[i] + 0.25 * (u[i - 1] + u[i + 1]);
        tmp = u;
        u = v;
        v = tmp;
    }
}

int main(int argc, char **argv)
{
    double *u, *v, *tmp;
    int i, t, n;
    FILE *f;

    n = N;
    u = malloc(N * sizeof *u);
    v = malloc(N * sizeof *v);
    if (!u || !v) return 1;
    for (i = 0; i < n; i++)
        u[i] = v[i] = (double)((i * 7) % 13);
    smooth_steps(u, v, n);  /* STEPS is even: the last grid is u again */
    for (t = 0; t < STEPS; t++) {
        relax(u, v, n);
        tmp = u;
        u = v;
        v = tmp;
    }
    printf("c89_swaps: u[%d] = %.17g\n", n / 2, u[n / 2]);
    if (argc > 1) {
        f = fopen(argv[1], "wb");
        if (!f || fwrite(u, sizeof *u, (size_t)n, f) != (size_t)n || fclose(f) != 0) {
            perror(argv[1]);
            return 1;
        }
    }
    free(u);
    free(v);
    return 0;
}
