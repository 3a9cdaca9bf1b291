// jacobi3d.cu: jacobi3d.c with the loop nest at line 25 (jacobi_sweep) moved to the GPU by `recipe advise`
// (the plan and the steps are in jacobi3d.recipe.md). The rest is the original program.
// Build: nvcc -O2 -std=c++17 -arch=native --fmad=false -I"$RECIPE_INCLUDE" jacobi3d.cu -o jacobi3d
// Run with RECIPE_REPORT=1 to print the measured time of every phase beside the prediction
// (RECIPE_REPORT=time: one line per library call, its time as the program runs).
#include <recipe/recipe.cuh>
// CUDA starts on a thread of its own before main runs, so that the program's work before the
// first library call hides its start-up (recipe/start.cuh); the same thread then allocates
// what the largest of the plan's calls needs: 488.3 MiB of device memory, 34.0 MiB of
// page-locked staging buffers, 2 streams.
static recipe::EarlyStart recipe_early_start(recipe::PoolSize{ 512000000, 35676160, 2, 0 });

/* One Jacobi sweep of the 3D Laplace equation: every interior point becomes
 * the mean of itself and its six face neighbours. The grid is one flat array,
 * x fastest. Boundary points of `out` stay zero.
 *   gcc -O2 jacobi3d.c -o jacobi3d -lm [-DNX=... -DNY=... -DNZ=...]
 *   ./jacobi3d [out.bin]     out.bin gets `out` as raw floats */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef NX
#define NX 400
#endif
#ifndef NY
#define NY 400
#endif
#ifndef NZ
#define NZ 400
#endif

#define IDX(x, y, z) ((x) + NX * ((y) + NY * (z)))

// The body of the loop nest at jacobi3d.c:25-31 in jacobi_sweep(), one GPU
// thread per iteration point. Arrays are read and written through the library's
// views, in the C program's own (global) coordinates, x first.
__global__ void jacobi_sweep_kernel(recipe::Tile tile, recipe::InView<float> in, recipe::OutView<float> out)
{
    const int x = static_cast<int>(tile.x());
    const int y = static_cast<int>(tile.y());
    const int z = static_cast<int>(tile.z());
    if (!tile.contains(x, y, z))
        return;
    out(x, y, z) = (in(x, y, z)
                         + in(x - 1, y, z) + in(x + 1, y, z)
                         + in(x, y - 1, z) + in(x, y + 1, z)
                         + in(x, y, z - 1) + in(x, y, z + 1)) / 7.0f;
}

static void jacobi_sweep(const float *in, float *out)
{
    {   // jacobi_sweep() lines 25-31, run on the GPU by the pipelining library (see jacobi3d.recipe.md)
        recipe::Config cfg;
        cfg.scheme = recipe::Scheme::Basic;
        cfg.extents = {NX, NY, NZ};  // every array, x first
        cfg.space = {{1, 1, 1}, {NX - 1, NY - 1, NZ - 1}};  // the loops' bounds
        cfg.tile = {398, 398, 13};
        cfg.copy = recipe::CopyMethod::Strided;
        cfg.streams = 2;
        cfg.block = dim3(32, 4, 2);
        cfg.host = recipe::HostMemory::Staged;
        cfg.name = "jacobi_sweep (jacobi3d.c:25)";
        // Predicted for h200 (ms, each phase summed over the run): alloc, h2d, kernel, d2h, total, staging,
        // and the total of the program's first call of it (its output pages fresh; -1: not predicted).
        cfg.predicted = recipe::Predicted{0.001, 4.695, 0.483, 4.692, 18.717, 18.501, 32.903};
        recipe::run(cfg, jacobi_sweep_kernel,
                    recipe::inputs(recipe::input(in, recipe::Halo{{1, 1, 1}, {1, 1, 1}})),
                    recipe::outputs(recipe::output(out)));
    }
}

int main(int argc, char **argv)
{
    const size_t n = (size_t)NX * NY * NZ;
    float *in = (float *)malloc(n * sizeof *in);
    float *out = (float *)calloc(n, sizeof *out);
    double checksum = 0.0;
    size_t i;

    if (!in || !out) {
        fprintf(stderr, "jacobi3d: out of memory\n");
        return 1;
    }
    for (i = 0; i < n; i++)
        in[i] = sinf(0.001f * (float)(i % 100003)) + (float)(i % 7) * 0.125f;
    jacobi_sweep(in, out);
    // main's last GPU work is done: CUDA's release (the library's buffers freed, the GPU reset) runs on a
    // thread of its own while the rest of main works, about 32.43 ms as this file shows it; the exit waits for what is left of it.
    recipe::release_async();

    for (i = 0; i < n; i++)
        checksum += out[i];
    printf("jacobi3d %dx%dx%d checksum=%.6e\n", NX, NY, NZ, checksum);

    if (argc > 1) {
        FILE *f = fopen(argv[1], "wb");
        if (!f || fwrite(out, sizeof *out, n, f) != n || fclose(f) != 0) {
            perror(argv[1]);
            return 1;
        }
    }
    free(in);
    free(out);
    return 0;
}
