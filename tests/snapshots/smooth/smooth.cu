// smooth.cu: smooth.c with the loop nest at line 29 (main) and the loop nest at line 33 (main) moved to the GPU by `recipe advise`
// (the plan and the steps are in smooth.recipe.md). The rest is the original program.
// Build: nvcc -O2 -std=c++17 -arch=native --fmad=false -I"$RECIPE_INCLUDE" smooth.cu -o smooth
// Run with RECIPE_REPORT=1 to print the measured time of every phase beside the prediction
// (RECIPE_REPORT=time: one line per library call, its time as the program runs).
#include <recipe/recipe.cuh>
// CUDA starts on a thread of its own before main runs, so that the program's work before the
// first library call hides its start-up (recipe/start.cuh); the same thread then allocates
// what the largest of the plan's calls needs: 512.0 MiB of device memory, 48.0 MiB of
// page-locked staging buffers, 3 streams.
static recipe::EarlyStart recipe_early_start(recipe::PoolSize{ 536870912, 50331648, 3, 0 });

/* Smooths a synthetic W x H test image with a 3 x 3 box filter: the image is
 * generated from integer hashes (exact on any machine), filtered into `out`,
 * and only `out` is kept. Pixels on the border keep their value.
 *   gcc -O2 smooth.c -o smooth [-DW=... -DH=...]
 *   ./smooth [out.bin]     out.bin gets `out` as raw floats */
#include <stdio.h>
#include <stdlib.h>

#ifndef W
#define W 8192
#endif
#ifndef H
#define H 8192
#endif

// The body of the loop nest at smooth.c:29-31 in main(), one GPU
// thread per iteration point. Arrays are read and written through the library's
// views, in the C program's own (global) coordinates, x first.
__global__ void main_kernel(recipe::Tile tile, recipe::OutView<float> img)
{
    const int x = static_cast<int>(tile.x());
    const int y = static_cast<int>(tile.y());
    if (!tile.contains(x, y))
        return;
    img(x, (size_t)y) = (float)(((x / 16 + y / 16) & 1) * 64 + ((x * 73 + y * 151) & 63)) / 128.0f;
}

// The body of the loop nest at smooth.c:33-43 in main(), one GPU
// thread per iteration point. Arrays are read and written through the library's
// views, in the C program's own (global) coordinates, x first.
__global__ void main_kernel_2(recipe::Tile tile, recipe::InView<float> img, recipe::OutView<float> out)
{
    const int x = static_cast<int>(tile.x());
    const int y = static_cast<int>(tile.y());
    if (!tile.contains(x, y))
        return;
    if (x == 0 || y == 0 || x == W - 1 || y == H - 1) {
        out(x, y) = img(x, y);
    } else {
        out(x, y) = (img(x - 1, y - 1) + img(x, y - 1) + img(x + 1, y - 1) +
                  img(x - 1, y) + img(x, y) + img(x + 1, y) +
                  img(x - 1, y + 1) + img(x, y + 1) + img(x + 1, y + 1)) / 9.0f;
    }
}

int main(int argc, char **argv)
{
    float *img = (float *)malloc((size_t)W * H * sizeof *img);
    float *out = (float *)malloc((size_t)W * H * sizeof *out);
    double checksum = 0.0;
    size_t i;

    if (!img || !out) {
        fprintf(stderr, "smooth: out of memory\n");
        return 1;
    }
    /* A test pattern: stripes plus hashed grain, in [0, 1). */
    {   // main() lines 29-43: the nests run on the GPU one after another, their arrays kept
        // there between them: copied in once before the first, out once after the last (see smooth.recipe.md).
        recipe::Config recipe_region_config;
        recipe_region_config.extents = {W, H, 1};  // every array, x first
        recipe_region_config.tile = {W, 256, 1};  // the chunks the copies are pipelined in
        recipe_region_config.streams = 3;
        recipe_region_config.host = recipe::HostMemory::Staged;
        recipe_region_config.name = "main (smooth.c:29)";
        // Predicted for h200 (ms, the nests together): alloc, h2d, kernel, d2h, total, staging,
        // and the total of the program's first run of it (its output pages fresh; -1: not predicted).
        recipe_region_config.predicted = recipe::Predicted{0.001, 0.000, 0.532, 4.902, 6.559, 5.518, 21.669};
        recipe::Region recipe_region(recipe_region_config,
                       recipe::resident(img, false, false),
                       recipe::resident(out, false, true));
        {   // main() lines 29-31, one launch on the arrays recipe_region keeps on the GPU
            recipe::Config cfg;
            cfg.extents = {W, H, 1};  // every array, x first
            cfg.space = {{0, 0, 0}, {W, H, 1}};  // the loops' bounds
            cfg.block = dim3(32, 8, 1);
            cfg.name = "main (smooth.c:29)";
            recipe_region.run(cfg, main_kernel,
                        recipe::inputs(),
                        recipe::outputs(recipe::output(img)));
        }

    {   // main() lines 33-43, one launch on the arrays recipe_region keeps on the GPU
            recipe::Config cfg;
            cfg.extents = {W, H, 1};  // every array, x first
            cfg.space = {{0, 0, 0}, {W, H, 1}};  // the loops' bounds
            cfg.block = dim3(32, 8, 1);
            cfg.name = "main (smooth.c:33)";
            recipe_region.run(cfg, main_kernel_2,
                        recipe::inputs(recipe::input(img, recipe::Halo{{1, 1, 0}, {1, 1, 0}})),
                        recipe::outputs(recipe::output(out)));
        }
        recipe_region.finish();  // what the nests wrote and later code reads is back in host memory
    }
        // main's last GPU work is done: CUDA's release (the library's buffers freed, the GPU reset) runs on a
        // thread of its own while the rest of main works, about 34.02 ms as this file shows it; the exit waits for what is left of it.
        recipe::release_async();
    free(img);

    for (i = 0; i < (size_t)W * H; i++)
        checksum += out[i];
    printf("smooth %dx%d checksum=%.6e\n", W, H, checksum);

    if (argc > 1) {
        FILE *f = fopen(argv[1], "wb");
        if (!f || fwrite(out, sizeof *out, (size_t)W * H, f) != (size_t)W * H || fclose(f) != 0) {
            perror(argv[1]);
            return 1;
        }
    }
    free(out);
    return 0;
}
