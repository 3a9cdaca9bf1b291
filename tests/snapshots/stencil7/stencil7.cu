// stencil7.cu: stencil7.c with the loop nest at line 27 (stencil_sweep) and the loop nest at line 49 (main) moved to the GPU by `recipe advise`
// (the plan and the steps are in stencil7.recipe.md). The rest is the original program.
// Build: nvcc -O2 -std=c++17 -arch=native --fmad=false -I"$RECIPE_INCLUDE" stencil7.cu -o stencil7
// Run with RECIPE_REPORT=1 to print the measured time of every phase beside the prediction
// (RECIPE_REPORT=time: one line per library call, its time as the program runs).
#include <recipe/recipe.cuh>
// CUDA starts on a thread of its own before main runs, so that the program's work before the
// first library call hides its start-up (recipe/start.cuh); the same thread then allocates
// what the largest of the plan's calls needs: 128.0 MiB of device memory, 64.0 MiB of
// page-locked staging buffers, 4 streams.
static recipe::EarlyStart recipe_early_start(recipe::PoolSize{ 134217728, 67108864, 4, 0 });

/* A 7-point 3-D stencil written the way Parboil's stencil benchmark writes
 * it: the sweep is a function of its own, main calls it ITERATIONS times
 * and swaps the two grids between calls. Faces of the grid stay fixed.
 *   gcc -O2 stencil7.c -o stencil7 [-DNX=... -DNY=... -DNZ=... -DITERATIONS=...]
 *   ./stencil7 [out.bin]     out.bin gets the last grid as raw floats */
#include <stdio.h>
#include <stdlib.h>

#ifndef NX
#define NX 512
#endif
#ifndef NY
#define NY 512
#endif
#ifndef NZ
#define NZ 64
#endif
#ifndef ITERATIONS
#define ITERATIONS 20
#endif

#define Index3D(_nx, _ny, _i, _j, _k) ((_i) + _nx * ((_j) + _ny * (_k)))

// The body of the loop nest at stencil7.c:27-34 in stencil_sweep(), one GPU
// thread per iteration point. Arrays are read and written through the library's
// views, in the C program's own (global) coordinates, x first.
__global__ void stencil_sweep_kernel(recipe::Tile tile, recipe::InView<float> A0, recipe::OutView<float> Anext, int nx, int ny, float c1, float c0, int nz)
{
    const int i = static_cast<int>(tile.x());
    const int j = static_cast<int>(tile.y());
    const int k = static_cast<int>(tile.z());
    if (!tile.contains(i, j, k))
        return;
    Anext(i, j, k) =
        (A0(i, j, k + 1) + A0(i, j, k - 1) +
         A0(i, j + 1, k) + A0(i, j - 1, k) +
         A0(i + 1, j, k) + A0(i - 1, j, k)) * c1
        - A0(i, j, k) * c0;
}

static void stencil_sweep(float c0, float c1, const float *A0, float *Anext, int nx, int ny, int nz)
{
    {   // stencil_sweep() lines 27-34, run on the GPU by the pipelining library (see stencil7.recipe.md)
        // Called from main()'s loop at lines 52-58, inside its recipe::Region: there this call
        // launches on the arrays the region keeps on the GPU and copies nothing.
        recipe::Config cfg;
        cfg.scheme = recipe::Scheme::Basic;
        cfg.extents = {nx, ny, nz};  // every array, x first
        cfg.space = {{1, 1, 1}, {nx - 1, ny - 1, nz - 1}};  // the loops' bounds
        cfg.tile = {510, 510, 10};
        cfg.copy = recipe::CopyMethod::Strided;
        cfg.streams = 2;
        cfg.block = dim3(32, 4, 2);
        cfg.host = recipe::HostMemory::Staged;
        cfg.name = "stencil_sweep (stencil7.c:27)";
        // Predicted for h200 (ms, each phase summed over the run): alloc, h2d, kernel, d2h, total, staging,
        // and the total of the program's first call of it (its output pages fresh; -1: not predicted).
        cfg.predicted = recipe::Predicted{0.001, 1.227, 0.104, 1.194, 4.540, 4.539, 4.540};
        recipe::run(cfg, stencil_sweep_kernel,
                    recipe::inputs(recipe::input(A0, recipe::Halo{{1, 1, 1}, {1, 1, 1}})),
                    recipe::outputs(recipe::output(Anext)), nx, ny, c1, c0, nz);
    }
}

// The body of the loop nest at stencil7.c:49-50 in main(), one GPU
// thread per iteration point. Arrays are read and written through the library's
// views, in the C program's own (global) coordinates, x first.
__global__ void main_kernel(recipe::Tile tile, recipe::OutView<float> h_Anext, recipe::OutView<float> h_A0, size_t size)
{
    const size_t n = static_cast<size_t>(tile.x());
    if (!tile.contains(n))
        return;
    h_A0(n) = h_Anext(n) = (float)(n % 101) / 101.0f;
}

int main(int argc, char **argv)
{
    int nx = NX, ny = NY, nz = NZ, t;
    size_t n, size = (size_t)nx * ny * nz;
    float *h_A0 = (float *)malloc(size * sizeof(float));
    float *h_Anext = (float *)malloc(size * sizeof(float));
    double checksum = 0.0;

    if (!h_A0 || !h_Anext) {
        fprintf(stderr, "stencil7: out of memory\n");
        return 1;
    }
    {   // main() lines 49-50, run on the GPU by the pipelining library (see stencil7.recipe.md)
        recipe::Config cfg;
        cfg.scheme = recipe::Scheme::Scalable;
        cfg.extents = {static_cast<std::int64_t>(size), 1, 1};  // every array, x first
        cfg.space = {{0, 0, 0}, {static_cast<std::int64_t>(size), 1, 1}};  // the loops' bounds
        cfg.tile = {2000000, 1, 1};
        cfg.copy = recipe::CopyMethod::Merged;
        cfg.streams = 2;
        cfg.block = dim3(128, 1, 1);
        cfg.host = recipe::HostMemory::Staged;
        cfg.name = "main (stencil7.c:49)";
        // Predicted for h200 (ms, each phase summed over the run): alloc, h2d, kernel, d2h, total, staging,
        // and the total of the program's first call of it (its output pages fresh; -1: not predicted).
        cfg.predicted = recipe::Predicted{0.000, 0.000, 0.097, 2.454, 3.615, 3.615, 11.097};
        recipe::run(cfg, main_kernel,
                    recipe::inputs(),
                    recipe::outputs(recipe::output(h_Anext), recipe::output(h_A0)), size);
    }

    {   // main() lines 52-58: the loop's calls of stencil_sweep() run its nests on the GPU, their
        // arrays kept there between calls: copied in once before the loop, out once after it (see stencil7.recipe.md).
        recipe::Config recipe_region_config;
        recipe_region_config.extents = {nx, ny, nz};  // every array, x first
        recipe_region_config.tile = {nx, ny, 8};  // the chunks the copies are pipelined in
        recipe_region_config.streams = 4;
        recipe_region_config.pipelined_launches = 20;  // the first and last 20 launches run in pieces of rows as the chunks land and ahead of the chunks out (stream 0)
        recipe_region_config.host = recipe::HostMemory::Staged;
        recipe_region_config.name = "main (stencil7.c:52)";
        // Predicted for h200 (ms, the whole loop): alloc, h2d, kernel, d2h, total, staging,
        // and the total of the program's first run of it (its output pages fresh; -1: not predicted).
        recipe_region_config.predicted = recipe::Predicted{0.001, 1.411, 1.456, 1.226, 6.583, 5.259, 6.583};
        recipe::Region recipe_region(recipe_region_config,
                       recipe::resident(h_A0),
                       recipe::resident(h_Anext, recipe::Box{{1, 1, 1}, {nx - 1, ny - 1, nz - 1}}, false));
        for (t = 0; t < ITERATIONS; t++) {
        float *tmp;
        stencil_sweep(1.0f / 6.0f, 1.0f / 6.0f / 6.0f, h_A0, h_Anext, nx, ny, nz);
        tmp = h_A0;
        h_A0 = h_Anext;
        h_Anext = tmp;
    }
        recipe_region.finish();  // the arrays the loop wrote are back in host memory
    }

    for (n = 0; n < size; n++)
        checksum += h_A0[n];
    printf("stencil7 %dx%dx%d, %d iterations: checksum=%.6e\n", nx, ny, nz, ITERATIONS, checksum);
    if (argc > 1) {
        FILE *f = fopen(argv[1], "wb");
        if (!f || fwrite(h_A0, sizeof *h_A0, size, f) != size || fclose(f) != 0) {
            perror(argv[1]);
            return 1;
        }
    }
    free(h_A0);
    free(h_Anext);
    return 0;
}
