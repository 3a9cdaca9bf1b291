// scaling.cu — one call of the library over 1..N GPUs, timed as a program
// pays it: a fresh process per measurement, the call's first run (CUDA's
// start-up of every GPU's context waited for before it: recipe::EarlyStart,
// as the emitted programs do) and its second run.
//
//   scaling run    NX NY DEVICES HOST   2-D 5-point stencil, one recipe::run (scalable, tiles of 512 rows)
//   scaling region NX NY DEVICES HOST STEPS
//                                      a Region time loop, B = f(A); A = f(B) for STEPS steps
//   scaling fill   NX NY DEVICES HOST   one recipe::run writing two arrays the host never touched
//                                      (an initialisation: the output's pages fresh, as in heat2d's main)
//   scaling fresh  NX NY DEVICES HOST   as run, its output malloc'd and never touched before the first
//                                      call (a stencil's first call writing fresh pages, as emboss's)
//
// HOST: pinned (cudaMallocHost arrays) or staged (malloc'd). Prints one line:
// `kind nx ny devices host steps first_ms second_ms h2d_MB d2h_MB check first_wait_ms`
// where check is a sum of the outputs (compared across device counts by the
// caller: the same bytes give the same sum) and first_wait_ms the first
// call's wait for the start-up thread, within first_ms.
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <recipe/recipe.cuh>

__global__ void fill(recipe::Tile t, recipe::OutView<float> a, recipe::OutView<float> b) {
    const std::int64_t x = t.x(), y = t.y();
    if (!t.contains(x, y)) return;
    a(x, y) = static_cast<float>((x * 7 + y) % 23);
    b(x, y) = a(x, y);
}

__global__ void jacobi(recipe::Tile t, recipe::InView<float> a, recipe::OutView<float> b) {
    const std::int64_t x = t.x(), y = t.y();
    if (!t.contains(x, y)) return;
    b(x, y) = 0.2f * (a(x, y) + a(x - 1, y) + a(x + 1, y) + a(x, y - 1) + a(x, y + 1));
}

int main(int argc, char** argv) {
    if (argc < 6) {
        std::fprintf(stderr, "usage: scaling run|fresh|fill|region NX NY DEVICES pinned|staged [STEPS]\n");
        return 2;
    }
    const std::string kind = argv[1];
    const std::int64_t nx = std::atoll(argv[2]), ny = std::atoll(argv[3]);
    const int devices = std::atoi(argv[4]);
    const bool pinned = std::string(argv[5]) == "pinned";
    const int steps = argc > 6 ? std::atoi(argv[6]) : 1;
    recipe::PoolSize size;
    size.devices = devices;
    size.halo_exchange = kind == "region";
    static recipe::EarlyStart early(size);
    const std::size_t bytes = static_cast<std::size_t>(nx * ny) * sizeof(float);
    float *a = nullptr, *b = nullptr;
    if (pinned) {
        cudaMallocHost(&a, bytes);
        cudaMallocHost(&b, bytes);
    } else {
        a = static_cast<float*>(std::malloc(bytes));
        b = static_cast<float*>(std::malloc(bytes));
    }
    if (kind != "fill")
        for (std::int64_t i = 0; i < nx * ny; ++i) a[i] = static_cast<float>((i * 7) % 23);
    if (kind != "fill" && kind != "fresh")
        for (std::int64_t i = 0; i < nx * ny; ++i) b[i] = 0;
    const recipe::Halo h{{1, 1, 0}, {1, 1, 0}};
    double ms[2] = {0, 0};
    double first_wait = 0;  // the first call's wait for the start-up thread, within ms[0]
    recipe::Measured last{};
    for (int call = 0; call < 2; ++call) {
        try {
            if (kind == "fill") {
                recipe::Config c;
                c.scheme = recipe::Scheme::Scalable;
                c.extents = {nx, ny, 1};
                c.tile = {nx, 400, 1};
                c.streams = 2;
                c.block = dim3(32, 4, 1);
                c.host = pinned ? recipe::HostMemory::Pinned : recipe::HostMemory::Staged;
                c.devices = devices;
                c.name = "scaling fill";
                c.measure = true;
                last = recipe::run(c, fill, recipe::inputs(), recipe::outputs(recipe::output(a), recipe::output(b)));
                std::fprintf(stderr, "fill call %d: total %.1f startup %.1f alloc %.1f h2d %.1f kernel %.1f d2h %.1f staging %.1f\n",
                             call, last.total, last.startup, last.alloc, last.h2d, last.kernel, last.d2h, last.staging);
            } else if (kind == "run" || kind == "fresh") {
                recipe::Config c;
                c.scheme = recipe::Scheme::Scalable;
                c.extents = {nx, ny, 1};
                c.space = {{1, 1, 0}, {nx - 1, ny - 1, 1}};
                c.tile = {nx, 512, 1};
                c.streams = 3;
                c.block = dim3(128, 2, 1);
                c.host = pinned ? recipe::HostMemory::Pinned : recipe::HostMemory::Staged;
                c.devices = devices;
                c.name = "scaling run";
                last = recipe::run(c, jacobi, recipe::inputs(recipe::input(a, h)), recipe::outputs(recipe::output(b)));
            } else {
                recipe::Config rc;
                rc.extents = {nx, ny, 1};
                rc.tile = {nx, 512, 1};
                rc.streams = 2;
                rc.host = pinned ? recipe::HostMemory::Pinned : recipe::HostMemory::Staged;
                rc.devices = devices;
                rc.halo_rows = 1;
                rc.name = "scaling region";
                recipe::Region region(rc, recipe::resident(a), recipe::resident(b));
                recipe::Config nest;
                nest.extents = {nx, ny, 1};
                nest.space = {{1, 1, 0}, {nx - 1, ny - 1, 1}};
                nest.block = dim3(128, 2, 1);
                for (int t = 0; t < steps; ++t) {
                    region.run(nest, jacobi, recipe::inputs(recipe::input(a, h)), recipe::outputs(recipe::output(b)));
                    region.run(nest, jacobi, recipe::inputs(recipe::input(b, h)), recipe::outputs(recipe::output(a)));
                }
                last = region.finish();
            }
        } catch (const recipe::Error& e) {
            std::fprintf(stderr, "scaling: %s\n", e.what());
            return 3;
        }
        ms[call] = last.total;
        if (call == 0) first_wait = last.startup;
    }
    double check = 0;
    for (std::int64_t i = 0; i < nx * ny; ++i) check += static_cast<double>(a[i]) * 1e-3 + static_cast<double>(b[i]) * 1e-6;
    std::printf("%s %lld %lld %d %s %d %.3f %.3f %.1f %.1f %.6f %.3f\n", kind.c_str(), static_cast<long long>(nx),
                static_cast<long long>(ny), devices, pinned ? "pinned" : "staged", steps, ms[0], ms[1],
                last.h2d_bytes / 1e6, last.d2h_bytes / 1e6, check, first_wait);
    return 0;
}
