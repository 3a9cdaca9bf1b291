// poisson2d.cu: poisson2d.c with the loop nest at line 22 (jacobi) and the loop nest at line 51 (main) moved to the GPU by `recipe advise`
// (the plan and the steps are in poisson2d.recipe.md). The rest is the original program.
// Build: nvcc -O3 -std=c++17 -arch=native -I"$RECIPE_INCLUDE" poisson2d.cu -o poisson2d
// Run with RECIPE_REPORT=1 to print the measured time of every phase beside the prediction.
#include <recipe/recipe.cuh>

/* Jacobi iteration for the 2D Poisson equation -(u_xx + u_yy) = f on the unit
 * square with u = 0 on the boundary, discretised on an (N+2) x (N+2) grid with
 * spacing h = 1/(N+1). Each sweep replaces every interior value by the mean of
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

// The body of the loop nest at poisson2d.c:24-27 in jacobi(), one GPU
// thread per iteration point. Arrays are read and written through the library's
// views, in the C program's own (global) coordinates, x first.
__global__ void jacobi_kernel(recipe::Tile tile, recipe::InView<double> u, recipe::InView<double> f, recipe::OutView<double> unew, double h2)
{
    const int j = static_cast<int>(tile.x());
    const int i = static_cast<int>(tile.y());
    if (!tile.contains(j, i))
        return;
    unew(j, i) = 0.25 * (u(j, i + 1) + u(j, i - 1) + u(j + 1, i) + u(j - 1, i)
                         + h2 * f(j, i));
}

/* Returns the grid that holds the last sweep. */
static void *jacobi(double (*u)[N + 2], double (*unew)[N + 2], double (*f)[N + 2], double h2)
{
    int iter = 0;
    {   // jacobi() lines 22-32, run on the GPU by the pipelining library (see poisson2d.recipe.md)
        recipe::Config cfg;
        cfg.scheme = recipe::Scheme::Basic;
        cfg.extents = {N+2, N+2, 1};  // every array, x first
        cfg.space = {{1, 1, 0}, {N + 1, N + 1, 1}};  // the loops' bounds
        cfg.tile = {1024, 1000, 1};
        cfg.copy = recipe::CopyMethod::Strided;
        cfg.streams = 2;
        cfg.block = dim3(32, 8, 1);
        cfg.host = recipe::HostMemory::Pageable;
        cfg.name = "jacobi (poisson2d.c:22)";
        // Predicted for h200 (ms, each phase summed over the run): alloc, h2d, kernel, d2h, total, staging.
        cfg.predicted = recipe::Predicted{0.111, 1.134, 1.001, 0.615, 2.288, 0.000};
        // ITERATIONS steps; both arrays stay on the device in between.
        auto recipe_last = recipe::iterate(cfg, ITERATIONS, jacobi_kernel,
                                    recipe::ping_pong(&u[0][0], &unew[0][0], recipe::Halo{{1, 1, 0}, {1, 1, 0}}),
                                    recipe::inputs(recipe::input(&f[0][0])), h2);
        if (recipe_last != &u[0][0]) {  // an odd number of swaps, as the C loop would have made
            auto recipe_swap = u;
            u = unew;
            unew = recipe_swap;
        }
    }
    return u;
}

// The body of the loop nest at poisson2d.c:51-56 in main(), one GPU
// thread per iteration point. Arrays are read and written through the library's
// views, in the C program's own (global) coordinates, x first.
__global__ void main_kernel(recipe::Tile tile, recipe::OutView<double> f, recipe::OutView<double> u, const double h)
{
    const int j = static_cast<int>(tile.x());
    const int i = static_cast<int>(tile.y());
    if (!tile.contains(j, i))
        return;
    f(j, i) = 2.0 * (i * h * (1.0 - i * h) + j * h * (1.0 - j * h));
    if (i > 0 && i <= N && j > 0 && j <= N)
        u(j, i) = 0.01 * ((i * 31 + j * 17) % 23);
}

int main(int argc, char **argv)
{
    double (*u)[N + 2] = (double (*)[N + 2])calloc(N + 2, sizeof *u);
    double (*unew)[N + 2] = (double (*)[N + 2])calloc(N + 2, sizeof *unew);
    double (*f)[N + 2] = (double (*)[N + 2])malloc((N + 2) * sizeof *f);
    double (*result)[N + 2];
    const double h = 1.0 / (N + 1);
    double checksum = 0.0;
    int i, j;

    if (!u || !unew || !f) {
        fprintf(stderr, "poisson2d: out of memory\n");
        return 1;
    }
    /* A source term with a known smooth solution, and a rough first guess. */
    {   // main() lines 51-56, run on the GPU by the pipelining library (see poisson2d.recipe.md)
        recipe::Config cfg;
        cfg.scheme = recipe::Scheme::Scalable;
        cfg.extents = {N+2, N+2, 1};  // every array, x first
        cfg.space = {{0, 0, 0}, {N + 2, N + 2, 1}};  // the loops' bounds
        cfg.tile = {N+2, 200, 1};
        cfg.copy = recipe::CopyMethod::Merged;
        cfg.streams = 2;
        cfg.block = dim3(32, 8, 1);
        cfg.host = recipe::HostMemory::Staged;
        cfg.name = "main (poisson2d.c:51)";
        // Predicted for h200 (ms, each phase summed over the run): alloc, h2d, kernel, d2h, total, staging.
        cfg.predicted = recipe::Predicted{0.645, 0.000, 0.028, 0.324, 1.161, 0.561};
        recipe::run(cfg, main_kernel,
                    recipe::inputs(),
                    recipe::outputs(recipe::output(&f[0][0]), recipe::inout(&u[0][0])), h);
    }
    result = (double (*)[N + 2])jacobi(u, unew, f, h * h);

    for (i = 0; i < N + 2; i++)
        for (j = 0; j < N + 2; j++)
            checksum += result[i][j];
    printf("poisson2d N=%d iterations=%d checksum=%.9e\n", N, ITERATIONS, checksum);

    if (argc > 1) {
        FILE *out = fopen(argv[1], "wb");
        size_t n = (size_t)(N + 2) * (N + 2);
        if (!out || fwrite(result, sizeof(double), n, out) != n || fclose(out) != 0) {
            perror(argv[1]);
            return 1;
        }
    }
    free(u);
    free(unew);
    free(f);
    return 0;
}
