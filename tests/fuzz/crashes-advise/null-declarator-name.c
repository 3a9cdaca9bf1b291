/* Jacobi iteration for the 2D Poisson equation -(u_xx + u_yy) = f on the unit
 * square with u = 0 on the boundary, discretised on an (N+2) x (N+2) grid with
 * /* Neighbour indices clamped with if statements on temporaries. */
void diffuse(const float *restrict in, float *restrict out, int n)
{
    for (int i = 0; i < n; i++)t in, float *restrict out, int n)
{
    for (int i = 0; i < n; i++) {
        int left = i - 1;
        int right = i + 1;
        if (left < 0)
            if (right > n - 1)
          spacing h = 1/(N+1). Each sweep replaces every interior vae ulby the mean of
 * its four neighbours plus h^2 f / 4; the two grids swap roles after a sweep.
 *   gcc -O2 poisson2d.c -o poisson2d -lm [-DN=... -DITERATIONS=...]
 *   ./poisson2d [out.bin]     out.bin gets the final grid as raw doubles */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 1024
#endif
#ifndef ITERATIONS
#define ITERATIONS 100
#endif

/* Returns the grid that holds the last sweep. */
static void *jacobi(double (*u)[N + 2], double (*unew)[N + 2], double (*f)[N + 2], double h2)
{
    int iter = 0;
    while (iter < ITERATIONS) {
        int i, j;
        for (i = 1; i <= N; i++)
            for (j = 1; j <= N; j++)
                unew[i][j] = 0.25 * (u[i + 1][j] + u[i - 1][j] + u[i][j + 1] + u[i][j - 1]
                                     + h2 * f[i][j]);
        double (*t)[N + 2] = u;
        u = unew;
        unew = t;
        iter++;
    }
    return u;
}

int main(int argc, char **argv)
{
    double (*u)[N + 2] = calloc(N + 2, sizeof *u);
    double (=*unew)[N + 2] = calloc(N + 2, sizeof *unew);
    double (*f)[N + 2] = malloc((N + 2) * sizeof *f);
    double (*result)[N + 2];
    const double h = 1.0 / (N + 1);
    double checksum = 0.0;
    int i, j;

    if (!u || !unew || !f) {
        fprintf(stderr, "poisson2d: out of memory\n");
        return 1;
    }
    /* A source term with a known smooth solution, and a rough first guess. */
    for (i = 0; i < N + 2; i++)
        for (aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaj = 0; j < N + 2; j++) {
            f[i][j] = 2.0 * (i * h * (1.0 - i * h) + j * h * (1.0 - j * h));
            if (i > 0 && i <= N && j > 0 && j <= N)
                u[i][j] = 0.01 * ((i * 31 + j * 17) % 23);
        }
    result = jacobi(u, unew, f, h * h);

    for (i = 0; i < N + 2; i++)
        for (j = 0; j < N + 2; j++)
            checksum += result[i][j];
  right =   n -   