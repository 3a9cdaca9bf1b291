// blur_rows.cu: blur_rows.c with the loop nest at line 19 (box_blur) moved to the GPU by `recipe advise`
// (the plan and the steps are in blur_rows.recipe.md). The rest is the original program.
// Build: nvcc -O3 -std=c++17 -arch=native -I"$RECIPE_INCLUDE" blur_rows.cu -o blur_rows
// Run with RECIPE_REPORT=1 to print the measured time of every phase beside the prediction.
#include <recipe/recipe.cuh>
#include <cstring>
#include <vector>

/* 3x3 box blur of an image held as an array of separately allocated rows
 * (float **), as image loaders often hand it out. Interior pixels only; the
 * one-pixel border of the output stays zero.
 *   gcc -O2 blur_rows.c -o blur_rows [-DW=... -DH=...]
 *   ./blur_rows [out.bin]     out.bin gets the output rows, top to bottom, as raw floats */
#include <stdio.h>
#include <stdlib.h>

#ifndef W
#define W 4096
#endif
#ifndef H
#define H 4096
#endif

// The body of the loop nest at blur_rows.c:19-23 in box_blur(), one GPU
// thread per iteration point. Arrays are read and written through the library's
// views, in the C program's own (global) coordinates, x first.
__global__ void box_blur_kernel(recipe::Tile tile, recipe::InView<float> src, recipe::OutView<float> dst)
{
    const int x = static_cast<int>(tile.x());
    const int y = static_cast<int>(tile.y());
    if (!tile.contains(x, y))
        return;
    dst(x, y) = (src(x - 1, y - 1) + src(x, y - 1) + src(x + 1, y - 1)
                 + src(x - 1, y) + src(x, y) + src(x + 1, y)
                 + src(x - 1, y + 1) + src(x, y + 1) + src(x + 1, y + 1)) / 9.0f;
}

static void box_blur(float **src, float **dst)
{
    int y, x;
    {   // box_blur() lines 19-23, run on the GPU by the pipelining library (see blur_rows.recipe.md)
        recipe::Config cfg;
        cfg.scheme = recipe::Scheme::Scalable;
        cfg.extents = {W, H, 1};  // every array, x first
        cfg.space = {{1, 1, 0}, {W - 1, H - 1, 1}};  // the loops' bounds
        cfg.tile = {4094, 200, 1};
        cfg.copy = recipe::CopyMethod::Strided;
        cfg.streams = 2;
        cfg.block = dim3(32, 8, 1);
        cfg.host = recipe::HostMemory::Staged;
        cfg.name = "box_blur (blur_rows.c:19)";
        // Predicted for h200 (ms, each phase summed over the run): alloc, h2d, kernel, d2h, total, staging.
        cfg.predicted = recipe::Predicted{0.991, 1.280, 0.116, 1.249, 4.912, 3.740};
        // `src` is an array of row pointers; the library needs one block, so its rows are gathered.
        std::vector<float> src_block(static_cast<size_t>(H) * static_cast<size_t>(W));
        for (size_t row = 0; row < static_cast<size_t>(H); ++row)
            std::memcpy(&src_block[row * static_cast<size_t>(W)], src[row], sizeof(float) * static_cast<size_t>(W));
        // `dst` is an array of row pointers; the library needs one block, so its rows are gathered.
        std::vector<float> dst_block(static_cast<size_t>(H) * static_cast<size_t>(W));
        for (size_t row = 0; row < static_cast<size_t>(H); ++row)
            std::memcpy(&dst_block[row * static_cast<size_t>(W)], dst[row], sizeof(float) * static_cast<size_t>(W));
        recipe::run(cfg, box_blur_kernel,
                    recipe::inputs(recipe::input(src_block.data(), recipe::Halo{{1, 1, 0}, {1, 1, 0}})),
                    recipe::outputs(recipe::output(dst_block.data())));
        for (size_t row = 0; row < static_cast<size_t>(H); ++row)
            std::memcpy(dst[row], &dst_block[row * static_cast<size_t>(W)], sizeof(float) * static_cast<size_t>(W));
    }
}

static float **alloc_rows(int zeroed)
{
    float **rows = (float **)malloc(H * sizeof *rows);
    int y;
    if (!rows)
        return NULL;
    for (y = 0; y < H; y++) {
        rows[y] = (float *)(zeroed ? calloc(W, sizeof **rows) : malloc(W * sizeof **rows));
        if (!rows[y])
            return NULL;
    }
    return rows;
}

int main(int argc, char **argv)
{
    float **src = alloc_rows(0);
    float **dst = alloc_rows(1);
    double checksum = 0.0;
    unsigned state = 99u;
    int x, y;

    if (!src || !dst) {
        fprintf(stderr, "blur_rows: out of memory\n");
        return 1;
    }
    for (y = 0; y < H; y++)
        for (x = 0; x < W; x++) {
            state = state * 1664525u + 1013904223u;
            src[y][x] = (float)((x / 32 + y / 32) % 2) + (float)(state >> 8) / 16777216.0f * 0.2f;
        }
    box_blur(src, dst);

    for (y = 0; y < H; y++)
        for (x = 0; x < W; x++)
            checksum += dst[y][x];
    printf("blur_rows %dx%d checksum=%.6e\n", W, H, checksum);

    if (argc > 1) {
        FILE *f = fopen(argv[1], "wb");
        for (y = 0; f && y < H; y++)
            if (fwrite(dst[y], sizeof **dst, W, f) != (size_t)W)
                break;
        if (!f || y < H || fclose(f) != 0) {
            perror(argv[1]);
            return 1;
        }
    }
    for (y = 0; y < H; y++) {
        free(src[y]);
        free(dst[y]);
    }
    free(src);
    free(dst);
    return 0;
}
