// diffuse1d.cu: diffuse1d.c with the loop nest at line 24 (diffuse), the loop nest at line 26 (diffuse) and the loop nest at line 43 (main) moved to the GPU by `recipe advise`
// (the plan and the steps are in diffuse1d.recipe.md). The rest is the original program.
// Build: nvcc -O2 -std=c++17 -arch=native --fmad=false -I"$RECIPE_INCLUDE" diffuse1d.cu -o diffuse1d
// Run with RECIPE_REPORT=1 to print the measured time of every phase beside the prediction
// (RECIPE_REPORT=time: one line per library call, its time as the program runs).
#include <recipe/recipe.cuh>
// CUDA starts on a thread of its own before main runs, so that the program's work before the
// first library call hides its start-up (recipe/start.cuh); the same thread then allocates
// what the largest of the plan's calls needs: 256.0 MiB of device memory, 38.1 MiB of
// page-locked staging buffers, 4 streams.
static recipe::EarlyStart recipe_early_start(recipe::PoolSize{ 268435456, 40001536, 4, 0 });

/* Diffusion along a long rod, STEPS explicit steps: each step smooths the
 * interior of `a` into `b` with a binomial filter (in[i-2] + 4 in[i-1] +
 * 6 in[i] + 4 in[i+1] + in[i+2]) / 16, then `b` back into `a` (PolyBench's
 * jacobi-1d form, reach 2). The two elements at each end stay as they are.
 * Indices are long, so N may exceed 2^31 elements (tens of GiB: more than a
 * GPU holds; recipe advise --gpu-memory then plans ghost zones).
 *   gcc -O2 diffuse1d.c -o diffuse1d [-DN=... -DSTEPS=...]
 *   ./diffuse1d [out.bin]     out.bin gets `a` as raw floats */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N (32L * 1024 * 1024)
#endif
#ifndef STEPS
#define STEPS 10
#endif

// The body of the loop nest at diffuse1d.c:24-25 in diffuse(), one GPU
// thread per iteration point. Arrays are read and written through the library's
// views, in the C program's own (global) coordinates, x first.
__global__ void diffuse_kernel(recipe::Tile tile, recipe::InView<float> a, recipe::OutView<float> b)
{
    const long i = static_cast<long>(tile.x());
    if (!tile.contains(i))
        return;
    b(i) = (a(i - 2) + 4.0f * a(i - 1) + 6.0f * a(i) + 4.0f * a(i + 1) + a(i + 2)) / 16.0f;
}

// The body of the loop nest at diffuse1d.c:26-27 in diffuse(), one GPU
// thread per iteration point. Arrays are read and written through the library's
// views, in the C program's own (global) coordinates, x first.
__global__ void diffuse_kernel_2(recipe::Tile tile, recipe::InView<float> b, recipe::OutView<float> a)
{
    const long i = static_cast<long>(tile.x());
    if (!tile.contains(i))
        return;
    a(i) = (b(i - 2) + 4.0f * b(i - 1) + 6.0f * b(i) + 4.0f * b(i + 1) + b(i + 2)) / 16.0f;
}

static void diffuse(float *a, float *b)
{
    int t;
    {   // diffuse() lines 23-28: the time loop runs its nests on the GPU, their arrays kept there
        // between steps: copied in once before the loop, out once after it (see diffuse1d.recipe.md).
        recipe::Config recipe_region_config;
        recipe_region_config.extents = {N, 1, 1};  // every array, x first
        recipe_region_config.tile = {1048576, 1, 1};  // the chunks the copies are pipelined in
        recipe_region_config.streams = 4;
        recipe_region_config.pipelined_launches = 20;  // the first and last 20 launches run in pieces of rows as the chunks land and ahead of the chunks out (stream 0)
        recipe_region_config.host = recipe::HostMemory::Staged;
        recipe_region_config.name = "diffuse (diffuse1d.c:23)";
        // Predicted for h200 (ms, the whole loop): alloc, h2d, kernel, d2h, total, staging,
        // and the total of the program's first run of it (its output pages fresh; -1: not predicted).
        recipe_region_config.predicted = recipe::Predicted{0.001, 2.517, 2.638, 4.953, 13.496, 10.546, 13.496};
        recipe::Region recipe_region(recipe_region_config,
                       recipe::resident(a),
                       recipe::resident(b, recipe::Box{{2, 0, 0}, {N - 2, 1, 1}}, true));
        for (t = 0; t < STEPS; t++) {
        {   // diffuse() lines 24-25, one launch on the arrays recipe_region keeps on the GPU
            recipe::Config cfg;
            cfg.extents = {N, 1, 1};  // every array, x first
            cfg.space = {{2, 0, 0}, {N - 2, 1, 1}};  // the loops' bounds
            cfg.block = dim3(128, 1, 1);
            cfg.name = "diffuse (diffuse1d.c:24)";
            recipe_region.run(cfg, diffuse_kernel,
                        recipe::inputs(recipe::input(a, recipe::Halo{{2, 0, 0}, {2, 0, 0}})),
                        recipe::outputs(recipe::output(b)));
        }
        {   // diffuse() lines 26-27, one launch on the arrays recipe_region keeps on the GPU
            recipe::Config cfg;
            cfg.extents = {N, 1, 1};  // every array, x first
            cfg.space = {{2, 0, 0}, {N - 2, 1, 1}};  // the loops' bounds
            cfg.block = dim3(128, 1, 1);
            cfg.name = "diffuse (diffuse1d.c:26)";
            recipe_region.run(cfg, diffuse_kernel_2,
                        recipe::inputs(recipe::input(b, recipe::Halo{{2, 0, 0}, {2, 0, 0}})),
                        recipe::outputs(recipe::output(a)));
        }
    }
        recipe_region.finish();  // the arrays the loop wrote are back in host memory
    }
}

// The body of the loop nest at diffuse1d.c:43-46 in main(), one GPU
// thread per iteration point. Arrays are read and written through the library's
// views, in the C program's own (global) coordinates, x first.
__global__ void main_kernel(recipe::Tile tile, recipe::OutView<float> a, recipe::OutView<float> b)
{
    const long i = static_cast<long>(tile.x());
    if (!tile.contains(i))
        return;
    a(i) = (float)(i % 1000) / 1000.0f + (float)((i * 2654435761L) & 255) / 4096.0f;
    b(i) = a(i);
}

int main(int argc, char **argv)
{
    float *a = (float *)malloc((size_t)N * sizeof *a);
    float *b = (float *)malloc((size_t)N * sizeof *b);
    double checksum = 0.0;
    long i;

    if (!a || !b) {
        fprintf(stderr, "diffuse1d: out of memory\n");
        return 1;
    }
    /* A sawtooth with hashed noise, exact in floats. */
    {   // main() lines 43-46, run on the GPU by the pipelining library (see diffuse1d.recipe.md)
        recipe::Config cfg;
        cfg.scheme = recipe::Scheme::Scalable;
        cfg.extents = {N, 1, 1};  // every array, x first
        cfg.space = {{0, 0, 0}, {N, 1, 1}};  // the loops' bounds
        cfg.tile = {2500000, 1, 1};
        cfg.copy = recipe::CopyMethod::Merged;
        cfg.streams = 2;
        cfg.block = dim3(128, 1, 1);
        cfg.host = recipe::HostMemory::Staged;
        cfg.name = "main (diffuse1d.c:43)";
        // Predicted for h200 (ms, each phase summed over the run): alloc, h2d, kernel, d2h, total, staging,
        // and the total of the program's first call of it (its output pages fresh; -1: not predicted).
        cfg.predicted = recipe::Predicted{0.001, 0.000, 0.179, 4.896, 7.221, 7.221, 22.331};
        recipe::run(cfg, main_kernel,
                    recipe::inputs(),
                    recipe::outputs(recipe::output(a), recipe::output(b)));
    }
    diffuse(a, b);
    // main's last GPU work is done: CUDA's release (the library's buffers freed, the GPU reset) runs on a
    // thread of its own while the rest of main works, about 14.97 ms as this file shows it; the exit waits for what is left of it.
    recipe::release_async();

    for (i = 0; i < N; i++)
        checksum += a[i];
    printf("diffuse1d N=%ld STEPS=%d checksum=%.6e\n", (long)N, STEPS, checksum);

    if (argc > 1) {
        FILE *f = fopen(argv[1], "wb");
        if (!f || fwrite(a, sizeof *a, (size_t)N, f) != (size_t)N || fclose(f) != 0) {
            perror(argv[1]);
            return 1;
        }
    }
    free(a);
    free(b);
    return 0;
}
