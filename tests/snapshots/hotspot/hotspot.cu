// hotspot.cu: hotspot.c with the loop nest at line 31 (simulate) moved to the GPU by `recipe advise`
// (the plan and the steps are in hotspot.recipe.md). The rest is the original program.
// Build: nvcc -O2 -std=c++17 -arch=native --fmad=false -I"$RECIPE_INCLUDE" hotspot.cu -o hotspot
// Run with RECIPE_REPORT=1 to print the measured time of every phase beside the prediction
// (RECIPE_REPORT=time: one line per library call, its time as the program runs).
#include <recipe/recipe.cuh>
// CUDA starts on a thread of its own before main runs, so that the program's work before the
// first library call hides its start-up (recipe/start.cuh); the same thread then allocates
// what the largest of the plan's calls needs: 12.0 MiB of device memory, 12.0 MiB of
// page-locked staging buffers, 1 streams.
static recipe::EarlyStart recipe_early_start(recipe::PoolSize{ 12582912, 12582912, 1, 0 });

/* Chip temperature simulation in the style of HotSpot: every step, a cell's
 * new temperature follows from its own power dissipation, the heat flowing to
 * or from its four neighbours and leakage to the ambient. Neighbour indices
 * are clamped at the die edge. Two grids are swapped after every step.
 *   gcc -O2 hotspot.c -o hotspot -lm [-DROWS=... -DCOLS=... -DSTEPS=...]
 *   ./hotspot [out.bin]     out.bin gets the final temperatures as raw floats */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef ROWS
#define ROWS 1024
#endif
#ifndef COLS
#define COLS 1024
#endif
#ifndef STEPS
#define STEPS 100
#endif

#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

static const float AMBIENT = 80.0f;

// The body of the loop nest at hotspot.c:32-42 in simulate(), one GPU
// thread per iteration point. Arrays are read and written through the library's
// views, in the C program's own (global) coordinates, x first.
__global__ void simulate_kernel(recipe::Tile tile, recipe::InView<float> temp, recipe::InView<float> power, recipe::OutView<float> next, float step_cap, float ry_inv, float rx_inv, float rz_inv)
{
    const int c = static_cast<int>(tile.x());
    const int r = static_cast<int>(tile.y());
    if (!tile.contains(c, r))
        return;
    int north = MAX(r - 1, 0), south = MIN(r + 1, ROWS - 1);
    int west = MAX(c - 1, 0), east = MIN(c + 1, COLS - 1);
    float here = temp(c, r);
    next(c, r) = here + step_cap * (power(c, r)
        + (temp(c, south) + temp(c, north) - 2.0f * here) * ry_inv
        + (temp(east, r) + temp(west, r) - 2.0f * here) * rx_inv
        + (AMBIENT - here) * rz_inv);
}

/* Runs STEPS time steps and returns the grid holding the last one. */
static float *simulate(float *temp, float *next, const float *power,
                       float step_cap, float rx_inv, float ry_inv, float rz_inv)
{
    {   // simulate() lines 31-46, run on the GPU by the pipelining library (see hotspot.recipe.md)
        recipe::Config cfg;
        cfg.scheme = recipe::Scheme::Naive;
        cfg.extents = {COLS, ROWS, 1};  // every array, x first
        cfg.space = {{0, 0, 0}, {COLS, ROWS, 1}};  // the loops' bounds
        cfg.tile = {COLS, ROWS, 1};
        cfg.copy = recipe::CopyMethod::Merged;
        cfg.streams = 1;
        cfg.block = dim3(32, 8, 1);
        cfg.host = recipe::HostMemory::Staged;
        cfg.name = "simulate (hotspot.c:31)";
        // Predicted for h200 (ms, each phase summed over the run): alloc, h2d, kernel, d2h, total, staging,
        // and the total of the program's first call of it (its output pages fresh; -1: not predicted).
        cfg.predicted = recipe::Predicted{0.000, 0.157, 0.855, 0.077, 1.424, 0.335, 2.285};
        // STEPS steps; both arrays stay on the device in between.
        auto recipe_last = recipe::iterate(cfg, STEPS, simulate_kernel,
                                    recipe::ping_pong(temp, next, recipe::Halo{{1, 1, 0}, {1, 1, 0}}),
                                    recipe::inputs(recipe::input(power)), step_cap, ry_inv, rx_inv, rz_inv);
        if (recipe_last != temp) {  // an odd number of swaps, as the C loop would have made
            auto recipe_swap = temp;
            temp = next;
            next = recipe_swap;
        }
    }
    return temp;
}

int main(int argc, char **argv)
{
    const size_t n = (size_t)ROWS * COLS;
    float *temp = (float *)malloc(n * sizeof *temp);
    float *next = (float *)malloc(n * sizeof *next);
    float *power = (float *)malloc(n * sizeof *power);
    float *result;
    double checksum = 0.0;
    unsigned state = 2024u;
    size_t i;

    if (!temp || !next || !power) {
        fprintf(stderr, "hotspot: out of memory\n");
        return 1;
    }
    for (i = 0; i < n; i++) {
        state = state * 1103515245u + 12345u;
        temp[i] = 320.0f + (float)((state >> 16) % 1000) * 0.01f;
        power[i] = (i / COLS) % 64 < 16 ? 0.002f * (float)(i % 37) : 0.0001f;
    }
    result = simulate(temp, next, power, 0.5f, 0.1f, 0.1f, 0.0025f);

    for (i = 0; i < n; i++)
        checksum += result[i];
    printf("hotspot %dx%d steps=%d checksum=%.6e\n", ROWS, COLS, STEPS, checksum);

    if (argc > 1) {
        FILE *f = fopen(argv[1], "wb");
        if (!f || fwrite(result, sizeof *result, n, f) != n || fclose(f) != 0) {
            perror(argv[1]);
            return 1;
        }
    }
    free(temp);
    free(next);
    free(power);
    return 0;
}
