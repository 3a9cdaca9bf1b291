// blur1d.cu: blur1d.c with the loop nest at line 17 (blur) and the loop nest at line 37 (main) moved to the GPU by `recipe advise`
// (the plan and the steps are in blur1d.recipe.md). The rest is the original program.
// Build: nvcc -O2 -std=c++17 -arch=native --fmad=false -I"$RECIPE_INCLUDE" blur1d.cu -o blur1d
// Run with RECIPE_REPORT=1 to print the measured time of every phase beside the prediction
// (RECIPE_REPORT=time: one line per library call, its time as the program runs).
#include <recipe/recipe.cuh>
// CUDA starts on a thread of its own before main runs, so that the program's work before the
// first library call hides its start-up (recipe/start.cuh); the same thread then allocates
// what the largest of the plan's calls needs: 61.0 MiB of device memory, 61.0 MiB of
// page-locked staging buffers, 2 streams.
static recipe::EarlyStart recipe_early_start(recipe::PoolSize{ 64000512, 64004096, 2, 0 });

/* A 1-D weighted blur over a long signal: every interior element becomes
 * (in[i-2] + 4 in[i-1] + 6 in[i] + 4 in[i+1] + in[i+2]) / 16 (a binomial
 * filter); the two elements at each end are copied. Indices are long, so N
 * may exceed 2^31 elements (tens of GiB: more than a GPU holds).
 *   gcc -O2 blur1d.c -o blur1d [-DN=...]
 *   ./blur1d [out.bin]     out.bin gets `out` as raw floats */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N (64L * 1024 * 1024)
#endif

// The body of the loop nest at blur1d.c:17-22 in blur(), one GPU
// thread per iteration point. Arrays are read and written through the library's
// views, in the C program's own (global) coordinates, x first.
__global__ void blur_kernel(recipe::Tile tile, recipe::InView<float> in, recipe::OutView<float> out)
{
    const long i = static_cast<long>(tile.x());
    if (!tile.contains(i))
        return;
    if (i < 2 || i >= N - 2)
        out(i) = in(i);
    else
        out(i) = (in(i - 2) + 4.0f * in(i - 1) + 6.0f * in(i) + 4.0f * in(i + 1) + in(i + 2)) / 16.0f;
}

static void blur(const float *in, float *out)
{
    {   // blur() lines 17-22, run on the GPU by the pipelining library (see blur1d.recipe.md)
        recipe::Config cfg;
        cfg.scheme = recipe::Scheme::Scalable;
        cfg.extents = {N, 1, 1};  // every array, x first
        cfg.space = {{0, 0, 0}, {N, 1, 1}};  // the loops' bounds
        cfg.tile = {4000000, 1, 1};
        cfg.copy = recipe::CopyMethod::Merged;
        cfg.streams = 2;
        cfg.block = dim3(128, 1, 1);
        cfg.host = recipe::HostMemory::Staged;
        cfg.name = "blur (blur1d.c:17)";
        // Predicted for h200 (ms, each phase summed over the run): alloc, h2d, kernel, d2h, total, staging,
        // and the total of the program's first call of it (its output pages fresh; -1: not predicted).
        cfg.predicted = recipe::Predicted{0.001, 4.880, 0.340, 4.884, 14.666, 14.537, 29.776};
        recipe::run(cfg, blur_kernel,
                    recipe::inputs(recipe::input(in, recipe::Halo{{2, 0, 0}, {2, 0, 0}})),
                    recipe::outputs(recipe::output(out)));
    }
}

// The body of the loop nest at blur1d.c:37-38 in main(), one GPU
// thread per iteration point. Arrays are read and written through the library's
// views, in the C program's own (global) coordinates, x first.
__global__ void main_kernel(recipe::Tile tile, recipe::OutView<float> in)
{
    const long i = static_cast<long>(tile.x());
    if (!tile.contains(i))
        return;
    in(i) = (float)(i % 1000) / 1000.0f + (float)((i * 2654435761L) & 255) / 4096.0f;
}

int main(int argc, char **argv)
{
    float *in = (float *)malloc((size_t)N * sizeof *in);
    float *out = (float *)malloc((size_t)N * sizeof *out);
    double checksum = 0.0;
    long i;

    if (!in || !out) {
        fprintf(stderr, "blur1d: out of memory\n");
        return 1;
    }
    /* A sawtooth with hashed noise, exact in floats. */
    {   // main() lines 37-38, run on the GPU by the pipelining library (see blur1d.recipe.md)
        recipe::Config cfg;
        cfg.scheme = recipe::Scheme::Scalable;
        cfg.extents = {N, 1, 1};  // every array, x first
        cfg.space = {{0, 0, 0}, {N, 1, 1}};  // the loops' bounds
        cfg.tile = {2000000, 1, 1};
        cfg.copy = recipe::CopyMethod::Merged;
        cfg.streams = 2;
        cfg.block = dim3(128, 1, 1);
        cfg.host = recipe::HostMemory::Staged;
        cfg.name = "main (blur1d.c:37)";
        // Predicted for h200 (ms, each phase summed over the run): alloc, h2d, kernel, d2h, total, staging,
        // and the total of the program's first call of it (its output pages fresh; -1: not predicted).
        cfg.predicted = recipe::Predicted{0.000, 0.000, 0.370, 4.905, 7.402, 7.201, 22.512};
        recipe::run(cfg, main_kernel,
                    recipe::inputs(),
                    recipe::outputs(recipe::output(in)));
    }
    blur(in, out);
    // main's last GPU work is done: CUDA's release (the library's buffers freed, the GPU reset) runs on a
    // thread of its own while the rest of main works, about 34.02 ms as this file shows it; the exit waits for what is left of it.
    recipe::release_async();

    for (i = 0; i < N; i++)
        checksum += out[i];
    printf("blur1d N=%ld checksum=%.6e\n", (long)N, checksum);

    if (argc > 1) {
        FILE *f = fopen(argv[1], "wb");
        if (!f || fwrite(out, sizeof *out, (size_t)N, f) != (size_t)N || fclose(f) != 0) {
            perror(argv[1]);
            return 1;
        }
    }
    free(in);
    free(out);
    return 0;
}
