// unzip.cu: unzip.c with the loop nest at line 20 (gradient) moved to the GPU by `recipe advise`
// (the plan and the steps are in unzip.recipe.md). The rest is the original program.
// Build: nvcc -O2 -std=c++17 -arch=native --fmad=false -I"$RECIPE_INCLUDE" unzip.cu -o unzip
// Run with RECIPE_REPORT=1 to print the measured time of every phase beside the prediction
// (RECIPE_REPORT=time: one line per library call, its time as the program runs).
#include <recipe/recipe.cuh>
// CUDA starts on a thread of its own before main runs, so that the program's work before the
// first library call hides its start-up (recipe/start.cuh); the same thread then allocates
// what the largest of the plan's calls needs: 192.0 MiB of device memory, 37.6 MiB of
// page-locked staging buffers, 2 streams.
static recipe::EarlyStart recipe_early_start(recipe::PoolSize{ 201326592, 39374848, 2, 0 });

/* Image gradient by central differences: one input field, two output fields
 * (gx along x, gy along y). Only interior points are computed; the border of
 * both outputs stays zero.
 *   gcc -O2 unzip.c -o unzip -lm [-DW=... -DH=...]
 *   ./unzip [out.bin]     out.bin gets `gx` then `gy` as raw floats */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef W
#define W 4096
#endif
#ifndef H
#define H 4096
#endif

// The body of the loop nest at unzip.c:20-25 in gradient(), one GPU
// thread per iteration point. Arrays are read and written through the library's
// views, in the C program's own (global) coordinates, x first.
__global__ void gradient_kernel(recipe::Tile tile, recipe::InView<float> field, recipe::OutView<float> gx, recipe::OutView<float> gy)
{
    const int x = static_cast<int>(tile.x());
    const int y = static_cast<int>(tile.y());
    if (!tile.contains(x, y))
        return;
    gx(x, y) = 0.5f * (field(x + 1, y) - field(x - 1, y));
    gy(x, y) = 0.5f * (field(x, y + 1) - field(x, y - 1));
}

static void gradient(const float *field, float *gx, float *gy)
{
    {   // gradient() lines 20-25, run on the GPU by the pipelining library (see unzip.recipe.md)
        recipe::Config cfg;
        cfg.scheme = recipe::Scheme::Basic;
        cfg.extents = {W, H, 1};  // every array, x first
        cfg.space = {{1, 1, 0}, {W - 1, H - 1, 1}};  // the loops' bounds
        cfg.tile = {4094, 400, 1};
        cfg.copy = recipe::CopyMethod::Strided;
        cfg.streams = 2;
        cfg.block = dim3(32, 8, 1);
        cfg.host = recipe::HostMemory::Staged;
        cfg.name = "gradient (unzip.c:20)";
        // Predicted for h200 (ms, each phase summed over the run): alloc, h2d, kernel, d2h, total, staging,
        // and the total of the program's first call of it (its output pages fresh; -1: not predicted).
        cfg.predicted = recipe::Predicted{0.001, 1.240, 0.116, 2.472, 5.676, 5.676, 13.151};
        recipe::run(cfg, gradient_kernel,
                    recipe::inputs(recipe::input(field, recipe::Halo{{1, 1, 0}, {1, 1, 0}})),
                    recipe::outputs(recipe::output(gx), recipe::output(gy)));
    }
}

int main(int argc, char **argv)
{
    const size_t n = (size_t)W * H;
    float *field = (float *)malloc(n * sizeof *field);
    float *gx = (float *)calloc(n, sizeof *gx);
    float *gy = (float *)calloc(n, sizeof *gy);
    double checksum = 0.0;
    size_t i;
    int x, y;

    if (!field || !gx || !gy) {
        fprintf(stderr, "unzip: out of memory\n");
        return 1;
    }
    /* A height map: two overlapping bumps. */
    for (y = 0; y < H; y++)
        for (x = 0; x < W; x++) {
            float u = (float)x / W, v = (float)y / H;
            field[(size_t)y * W + x] = expf(-20.0f * ((u - 0.3f) * (u - 0.3f) + (v - 0.4f) * (v - 0.4f)))
                                       + 0.5f * sinf(9.0f * u) * cosf(7.0f * v);
        }
    gradient(field, gx, gy);
    // main's last GPU work is done: CUDA's release (the library's buffers freed, the GPU reset) runs on a
    // thread of its own while the rest of main works, about 139.32 ms as this file shows it; the exit waits for what is left of it.
    recipe::release_async();

    for (i = 0; i < n; i++)
        checksum += fabsf(gx[i]) + 2.0 * fabsf(gy[i]);
    printf("unzip %dx%d checksum=%.6e\n", W, H, checksum);

    if (argc > 1) {
        FILE *f = fopen(argv[1], "wb");
        if (!f || fwrite(gx, sizeof *gx, n, f) != n || fwrite(gy, sizeof *gy, n, f) != n
            || fclose(f) != 0) {
            perror(argv[1]);
            return 1;
        }
    }
    free(field);
    free(gx);
    free(gy);
    return 0;
}
