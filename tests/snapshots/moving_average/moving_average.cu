// moving_average.cu: moving_average.c with the loop nest at line 18 (moving_average) moved to the GPU by `recipe advise`
// (the plan and the steps are in moving_average.recipe.md). The rest is the original program.
// Build: nvcc -O2 -std=c++17 -arch=native --fmad=false -I"$RECIPE_INCLUDE" moving_average.cu -o moving_average
// Run with RECIPE_REPORT=1 to print the measured time of every phase beside the prediction
// (RECIPE_REPORT=time: one line per library call, its time as the program runs).
#include <recipe/recipe.cuh>
// CUDA starts on a thread of its own before main runs, so that the program's work before the
// first library call hides its start-up (recipe/start.cuh); the same thread then allocates
// what the largest of the plan's calls needs: 61.0 MiB of device memory, 61.0 MiB of
// page-locked staging buffers, 2 streams.
static recipe::EarlyStart recipe_early_start(recipe::PoolSize{ 64000512, 64004096, 2, 0 });

/* 1D moving average: every output element is the mean of a window of
 * 2*RADIUS+1 input elements centred on it (the borders are left at zero).
 *   gcc -O2 moving_average.c -o moving_average [-DN=... -DRADIUS=...]
 *   ./moving_average [out.bin]     out.bin gets `out` as raw floats */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N (64 * 1024 * 1024)
#endif
#ifndef RADIUS
#define RADIUS 4
#endif

// The body of the loop nest at moving_average.c:18-23 in moving_average(), one GPU
// thread per iteration point. Arrays are read and written through the library's
// views, in the C program's own (global) coordinates, x first.
__global__ void moving_average_kernel(recipe::Tile tile, recipe::InView<float> in, recipe::OutView<float> out)
{
    const int i = static_cast<int>(tile.x());
    if (!tile.contains(i))
        return;
    int d;
    float s = 0.0f;
    for (d = -RADIUS; d <= RADIUS; d++)
        s += in(i + d);
    out(i) = s / (2 * RADIUS + 1);
}

static void moving_average(const float *in, float *out)
{
    {   // moving_average() lines 18-23, run on the GPU by the pipelining library (see moving_average.recipe.md)
        recipe::Config cfg;
        cfg.scheme = recipe::Scheme::Scalable;
        cfg.extents = {N, 1, 1};  // every array, x first
        cfg.space = {{RADIUS, 0, 0}, {N - RADIUS, 1, 1}};  // the loops' bounds
        cfg.tile = {4000000, 1, 1};
        cfg.copy = recipe::CopyMethod::Merged;
        cfg.streams = 2;
        cfg.block = dim3(128, 1, 1);
        cfg.host = recipe::HostMemory::Staged;
        cfg.name = "moving_average (moving_average.c:18)";
        // Predicted for h200 (ms, each phase summed over the run): alloc, h2d, kernel, d2h, total, staging,
        // and the total of the program's first call of it (its output pages fresh; -1: not predicted).
        cfg.predicted = recipe::Predicted{0.001, 4.880, 0.416, 4.884, 14.666, 14.537, 29.776};
        recipe::run(cfg, moving_average_kernel,
                    recipe::inputs(recipe::input(in, recipe::Halo{{4, 0, 0}, {4, 0, 0}})),
                    recipe::outputs(recipe::output(out)));
    }
}

/* A price-like series: a slow random walk from a linear congruential generator. */
static void fill_series(float *a, size_t n)
{
    unsigned state = 12345u;
    float level = 100.0f;
    size_t i;
    for (i = 0; i < n; i++) {
        state = state * 1664525u + 1013904223u;
        level += ((float)(state >> 8) / 16777216.0f - 0.5f) * 0.25f;
        if (level < 1.0f)
            level = 1.0f;
        a[i] = level;
    }
}

int main(int argc, char **argv)
{
    float *in = (float *)malloc((size_t)N * sizeof *in);
    float *out = (float *)calloc((size_t)N, sizeof *out);
    double checksum = 0.0;
    size_t i;

    if (!in || !out) {
        fprintf(stderr, "moving_average: out of memory\n");
        return 1;
    }
    fill_series(in, N);
    moving_average(in, out);
    // main's last GPU work is done: CUDA's release (the library's buffers freed, the GPU reset) runs on a
    // thread of its own while the rest of main works, about 34.02 ms as this file shows it; the exit waits for what is left of it.
    recipe::release_async();

    for (i = 0; i < (size_t)N; i++)
        checksum += out[i];
    printf("moving_average N=%d RADIUS=%d checksum=%.6e\n", N, RADIUS, checksum);

    if (argc > 1) {
        FILE *f = fopen(argv[1], "wb");
        if (!f || fwrite(out, sizeof *out, N, f) != (size_t)N || fclose(f) != 0) {
            perror(argv[1]);
            return 1;
        }
    }
    free(in);
    free(out);
    return 0;
}
