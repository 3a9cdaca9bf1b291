// emboss.cu: emboss.c with the loop nest at line 20 (emboss) moved to the GPU by `recipe advise`
// (the plan and the steps are in emboss.recipe.md). The rest is the original program.
// Build: nvcc -O2 -std=c++17 -arch=native --fmad=false -I"$RECIPE_INCLUDE" emboss.cu -o emboss
// Run with RECIPE_REPORT=1 to print the measured time of every phase beside the prediction
// (RECIPE_REPORT=time: one line per library call, its time as the program runs).
#include <recipe/recipe.cuh>
// CUDA starts on a thread of its own before main runs, so that the program's work before the
// first library call hides its start-up (recipe/start.cuh); the same thread then allocates
// what the largest of the plan's calls needs: 488.3 MiB of device memory, 49.0 MiB of
// page-locked staging buffers, 2 streams.
static recipe::EarlyStart recipe_early_start(recipe::PoolSize{ 512000000, 51331072, 2, 0 });

/* Emboss filter on a W x H greyscale image stored row by row: the sum of the
 * right, lower and lower-right neighbours minus the sum of the left, upper and
 * upper-left neighbours. Pixels on the border reuse their nearest neighbour.
 *   gcc -O2 emboss.c -o emboss -lm [-DW=... -DH=...]
 *   ./emboss [out.bin]     out.bin gets `out` as raw floats */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef W
#define W 8000
#endif
#ifndef H
#define H 8000
#endif

// The body of the loop nest at emboss.c:20-30 in emboss(), one GPU
// thread per iteration point. Arrays are read and written through the library's
// views, in the C program's own (global) coordinates, x first.
__global__ void emboss_kernel(recipe::Tile tile, recipe::InView<float> in, recipe::OutView<float> out)
{
    const int x = static_cast<int>(tile.x());
    const int y = static_cast<int>(tile.y());
    if (!tile.contains(x, y))
        return;
    int xm = x > 0 ? x - 1 : 0;
    int xp = x < W - 1 ? x + 1 : W - 1;
    int ym = y > 0 ? y - 1 : 0;
    int yp = y < H - 1 ? y + 1 : H - 1;
    float lit = in(xp, y) + in(x, yp) + in(xp, yp);
    float shade = in(xm, y) + in(x, ym) + in(xm, ym);
    out(x, y) = 0.5f + (lit - shade) / 6.0f;
}

static void emboss(const float *in, float *out)
{
    {   // emboss() lines 20-30, run on the GPU by the pipelining library (see emboss.recipe.md)
        recipe::Config cfg;
        cfg.scheme = recipe::Scheme::Basic;
        cfg.extents = {W, H, 1};  // every array, x first
        cfg.space = {{0, 0, 0}, {W, H, 1}};  // the loops' bounds
        cfg.tile = {W, 400, 1};
        cfg.copy = recipe::CopyMethod::Merged;
        cfg.streams = 2;
        cfg.block = dim3(32, 8, 1);
        cfg.host = recipe::HostMemory::Staged;
        cfg.name = "emboss (emboss.c:20)";
        // Predicted for h200 (ms, each phase summed over the run): alloc, h2d, kernel, d2h, total, staging,
        // and the total of the program's first call of it (its output pages fresh; -1: not predicted).
        cfg.predicted = recipe::Predicted{0.001, 4.663, 0.437, 4.662, 13.986, 13.824, 28.390};
        recipe::run(cfg, emboss_kernel,
                    recipe::inputs(recipe::input(in, recipe::Halo{{1, 1, 0}, {1, 1, 0}})),
                    recipe::outputs(recipe::output(out)));
    }
}

int main(int argc, char **argv)
{
    float *in = (float *)malloc((size_t)W * H * sizeof *in);
    float *out = (float *)malloc((size_t)W * H * sizeof *out);
    double checksum = 0.0;
    size_t i;
    int x, y;

    if (!in || !out) {
        fprintf(stderr, "emboss: out of memory\n");
        return 1;
    }
    /* Smooth ripples plus a little deterministic grain. */
    for (y = 0; y < H; y++)
        for (x = 0; x < W; x++)
            in[(size_t)y * W + x] = 0.5f + 0.4f * sinf(0.013f * x) * cosf(0.021f * y)
                                    + 0.05f * (float)((x * 7 + y * 13) % 17) / 17.0f;
    emboss(in, out);
    // main's last GPU work is done: CUDA's release (the library's buffers freed, the GPU reset) runs on a
    // thread of its own while the rest of main works, about 32.43 ms as this file shows it; the exit waits for what is left of it.
    recipe::release_async();

    for (i = 0; i < (size_t)W * H; i++)
        checksum += out[i];
    printf("emboss %dx%d checksum=%.6e\n", W, H, checksum);

    if (argc > 1) {
        FILE *f = fopen(argv[1], "wb");
        if (!f || fwrite(out, sizeof *out, (size_t)W * H, f) != (size_t)W * H || fclose(f) != 0) {
            perror(argv[1]);
            return 1;
        }
    }
    free(in);
    free(out);
    return 0;
}
