// vector_add.cu: vector_add.c with the loop nest at line 15 (vector_add) moved to the GPU by `recipe advise`
// (the plan and the steps are in vector_add.recipe.md). The rest is the original program.
// Build: nvcc -O2 -std=c++17 -arch=native --fmad=false -I"$RECIPE_INCLUDE" vector_add.cu -o vector_add
// Run with RECIPE_REPORT=1 to print the measured time of every phase beside the prediction
// (RECIPE_REPORT=time: one line per library call, its time as the program runs).
#include <recipe/recipe.cuh>
// CUDA starts on a thread of its own before main runs, so that the program's work before the
// first library call hides its start-up (recipe/start.cuh); the same thread then allocates
// what the largest of the plan's calls needs: 48.0 MiB of device memory, 48.0 MiB of
// page-locked staging buffers, 2 streams.
static recipe::EarlyStart recipe_early_start(recipe::PoolSize{ 50331648, 50331648, 2, 0 });

/* Element-wise sum of two vectors: c[i] = a[i] + b[i].
 *   gcc -O2 vector_add.c -o vector_add -lm [-DN=...]
 *   ./vector_add [out.bin]     out.bin gets `c` as raw floats */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N (64 * 1024 * 1024)
#endif

// The body of the loop nest at vector_add.c:15-16 in vector_add(), one GPU
// thread per iteration point. Arrays are read and written through the library's
// views, in the C program's own (global) coordinates, x first.
__global__ void vector_add_kernel(recipe::Tile tile, recipe::InView<float> a, recipe::InView<float> b, recipe::OutView<float> c)
{
    const int i = static_cast<int>(tile.x());
    if (!tile.contains(i))
        return;
    c(i) = a(i) + b(i);
}

static void vector_add(const float *a, const float *b, float *c)
{
    {   // vector_add() lines 15-16, run on the GPU by the pipelining library (see vector_add.recipe.md)
        recipe::Config cfg;
        cfg.scheme = recipe::Scheme::Scalable;
        cfg.extents = {N, 1, 1};  // every array, x first
        cfg.space = {{0, 0, 0}, {N, 1, 1}};  // the loops' bounds
        cfg.tile = {2097152, 1, 1};
        cfg.copy = recipe::CopyMethod::Merged;
        cfg.streams = 2;
        cfg.block = dim3(128, 1, 1);
        cfg.host = recipe::HostMemory::Staged;
        cfg.name = "vector_add (vector_add.c:15)";
        // Predicted for h200 (ms, each phase summed over the run): alloc, h2d, kernel, d2h, total, staging,
        // and the total of the program's first call of it (its output pages fresh; -1: not predicted).
        cfg.predicted = recipe::Predicted{0.001, 9.843, 0.388, 4.902, 22.071, 21.619, 37.181};
        recipe::run(cfg, vector_add_kernel,
                    recipe::inputs(recipe::input(a), recipe::input(b)),
                    recipe::outputs(recipe::output(c)));
    }
}

int main(int argc, char **argv)
{
    float *a = (float *)malloc((size_t)N * sizeof *a);
    float *b = (float *)malloc((size_t)N * sizeof *b);
    float *c = (float *)malloc((size_t)N * sizeof *c);
    double checksum = 0.0;
    int i;

    if (!a || !b || !c) {
        fprintf(stderr, "vector_add: out of memory\n");
        return 1;
    }
    for (i = 0; i < N; i++) {
        a[i] = sinf((float)i * 0.001f);
        b[i] = (float)(i % 1000) * 0.002f - 1.0f;
    }
    vector_add(a, b, c);
    // main's last GPU work is done: CUDA's release (the library's buffers freed, the GPU reset) runs on a
    // thread of its own while the rest of main works, about 34.02 ms as this file shows it; the exit waits for what is left of it.
    recipe::release_async();

    for (i = 0; i < N; i++)
        checksum += c[i];
    printf("vector_add N=%d checksum=%.6e\n", N, checksum);

    if (argc > 1) {
        FILE *f = fopen(argv[1], "wb");
        if (!f || fwrite(c, sizeof *c, N, f) != (size_t)N || fclose(f) != 0) {
            perror(argv[1]);
            return 1;
        }
    }
    free(a);
    free(b);
    free(c);
    return 0;
}
