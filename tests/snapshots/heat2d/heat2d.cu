// heat2d.cu: heat2d.c with the loop nest at line 28 (diffuse), the loop nest at line 32 (diffuse) and the loop nest at line 50 (main) moved to the GPU by `recipe advise`
// (the plan and the steps are in heat2d.recipe.md). The rest is the original program.
// Build: nvcc -O2 -std=c++17 -arch=native --fmad=false -I"$RECIPE_INCLUDE" heat2d.cu -o heat2d
// Run with RECIPE_REPORT=1 to print the measured time of every phase beside the prediction
// (RECIPE_REPORT=time: one line per library call, its time as the program runs).
#include <recipe/recipe.cuh>
// CUDA starts on a thread of its own before main runs, so that the program's work before the
// first library call hides its start-up (recipe/start.cuh); the same thread then allocates
// what the largest of the plan's calls needs: 32.0 MiB of device memory, 16.0 MiB of
// page-locked staging buffers, 4 streams.
static recipe::EarlyStart recipe_early_start(recipe::PoolSize{ 33554432, 16777216, 4, 0 });

/* Explicit heat diffusion on a W x H plate, the way teaching codes write it:
 * each step computes the new temperatures of the interior from the old ones
 * (a 5-point stencil), then copies them back over the old grid. The edges
 * stay at their initial temperature.
 *   gcc -O2 heat2d.c -o heat2d [-DW=... -DH=... -DSTEPS=...]
 *   ./heat2d [out.bin]     out.bin gets the final grid as raw floats */
#include <stdio.h>
#include <stdlib.h>

#ifndef W
#define W 2048
#endif
#ifndef H
#define H 2048
#endif
#ifndef STEPS
#define STEPS 100
#endif

#define AT(x, y) ((y) * W + (x))

static const float alpha = 0.2f;

// The body of the loop nest at heat2d.c:28-31 in diffuse(), one GPU
// thread per iteration point. Arrays are read and written through the library's
// views, in the C program's own (global) coordinates, x first.
__global__ void diffuse_kernel(recipe::Tile tile, recipe::InView<float> t, recipe::OutView<float> tnew)
{
    const int x = static_cast<int>(tile.x());
    const int y = static_cast<int>(tile.y());
    if (!tile.contains(x, y))
        return;
    tnew(x, y) = t(x, y) + alpha * (t(x - 1, y) + t(x + 1, y) + t(x, y - 1) +
                                            t(x, y + 1) - 4.0f * t(x, y));
}

// The body of the loop nest at heat2d.c:32-34 in diffuse(), one GPU
// thread per iteration point. Arrays are read and written through the library's
// views, in the C program's own (global) coordinates, x first.
__global__ void diffuse_kernel_2(recipe::Tile tile, recipe::InView<float> tnew, recipe::OutView<float> t)
{
    const int x = static_cast<int>(tile.x());
    const int y = static_cast<int>(tile.y());
    if (!tile.contains(x, y))
        return;
    t(x, y) = tnew(x, y);
}

static void diffuse(float *t, float *tnew)
{
    int step;
    {   // diffuse() lines 27-35: the time loop runs its nests on the GPU, their arrays kept there
        // between steps: copied in once before the loop, out once after it (see heat2d.recipe.md).
        recipe::Config recipe_region_config;
        recipe_region_config.extents = {W, H, 1};  // every array, x first
        recipe_region_config.tile = {W, 256, 1};  // the chunks the copies are pipelined in
        recipe_region_config.streams = 4;
        recipe_region_config.host = recipe::HostMemory::Staged;
        recipe_region_config.name = "diffuse (heat2d.c:27)";
        // Predicted for h200 (ms, the whole loop): alloc, h2d, kernel, d2h, total, staging,
        // and the total of the program's first run of it (its output pages fresh; -1: not predicted).
        recipe_region_config.predicted = recipe::Predicted{0.001, 0.386, 3.317, 0.632, 5.284, 1.688, 5.284};
        recipe::Region recipe_region(recipe_region_config,
                       recipe::resident(t),
                       recipe::resident(tnew, recipe::Box{{1, 1, 0}, {W - 1, H - 1, 1}}, true));
        for (step = 0; step < STEPS; step++) {
        {   // diffuse() lines 28-31, one launch on the arrays recipe_region keeps on the GPU
            recipe::Config cfg;
            cfg.extents = {W, H, 1};  // every array, x first
            cfg.space = {{1, 1, 0}, {W - 1, H - 1, 1}};  // the loops' bounds
            cfg.block = dim3(32, 8, 1);
            cfg.name = "diffuse (heat2d.c:28)";
            recipe_region.run(cfg, diffuse_kernel,
                        recipe::inputs(recipe::input(t, recipe::Halo{{1, 1, 0}, {1, 1, 0}})),
                        recipe::outputs(recipe::output(tnew)));
        }
        {   // diffuse() lines 32-34, one launch on the arrays recipe_region keeps on the GPU
            recipe::Config cfg;
            cfg.extents = {W, H, 1};  // every array, x first
            cfg.space = {{1, 1, 0}, {W - 1, H - 1, 1}};  // the loops' bounds
            cfg.block = dim3(32, 8, 1);
            cfg.name = "diffuse (heat2d.c:32)";
            recipe_region.run(cfg, diffuse_kernel_2,
                        recipe::inputs(recipe::input(tnew)),
                        recipe::outputs(recipe::output(t)));
        }
    }
        recipe_region.finish();  // the arrays the loop wrote are back in host memory
    }
}

// The body of the loop nest at heat2d.c:50-54 in main(), one GPU
// thread per iteration point. Arrays are read and written through the library's
// views, in the C program's own (global) coordinates, x first.
__global__ void main_kernel(recipe::Tile tile, recipe::OutView<float> t, recipe::OutView<float> tnew)
{
    const int x = static_cast<int>(tile.x());
    const int y = static_cast<int>(tile.y());
    if (!tile.contains(x, y))
        return;
    t(x, y) = x == 0 ? 100.0f : (float)((x * 7 + y * 13) % 29 == 0) * 50.0f;
    tnew(x, y) = t(x, y);
}

int main(int argc, char **argv)
{
    float *t = (float *)malloc(sizeof(float) * W * H);
    float *tnew = (float *)malloc(sizeof(float) * W * H);
    double checksum = 0.0;
    int x, y;

    if (!t || !tnew) {
        fprintf(stderr, "heat2d: out of memory\n");
        return 1;
    }
    /* A cold plate with a hot left edge and a few warm spots. */
    {   // main() lines 50-54, run on the GPU by the pipelining library (see heat2d.recipe.md)
        recipe::Config cfg;
        cfg.scheme = recipe::Scheme::Scalable;
        cfg.extents = {W, H, 1};  // every array, x first
        cfg.space = {{0, 0, 0}, {W, H, 1}};  // the loops' bounds
        cfg.tile = {W, 500, 1};
        cfg.copy = recipe::CopyMethod::Merged;
        cfg.streams = 2;
        cfg.block = dim3(32, 8, 1);
        cfg.host = recipe::HostMemory::Staged;
        cfg.name = "main (heat2d.c:50)";
        // Predicted for h200 (ms, each phase summed over the run): alloc, h2d, kernel, d2h, total, staging,
        // and the total of the program's first call of it (its output pages fresh; -1: not predicted).
        cfg.predicted = recipe::Predicted{0.000, 0.000, 0.037, 0.623, 0.922, 0.921, 3.092};
        recipe::run(cfg, main_kernel,
                    recipe::inputs(),
                    recipe::outputs(recipe::output(t), recipe::output(tnew)));
    }
    diffuse(t, tnew);

    for (y = 0; y < H; y++)
        for (x = 0; x < W; x++)
            checksum += t[AT(x, y)];
    printf("heat2d %dx%d steps=%d checksum=%.6e\n", W, H, STEPS, checksum);

    if (argc > 1) {
        FILE *out = fopen(argv[1], "wb");
        size_t n = (size_t)W * H;
        if (!out || fwrite(t, sizeof(float), n, out) != n || fclose(out) != 0) {
            perror(argv[1]);
            return 1;
        }
    }
    free(t);
    free(tnew);
    return 0;
}
