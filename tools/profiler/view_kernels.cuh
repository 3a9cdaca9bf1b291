// view_kernels.cuh — kernels written as recipe emits them (one thread per
// point, every array through the library's views), which differ only in how
// many elements each point reads: a copy reads one, a 5-point star five, a
// 3x3 box nine, a zip three (of three arrays), in 2-D and 3-D. The profiler
// times them back to back on resident arrays (as a region's steps and a
// pipeline's tiles run) for the profile's "viewKernels": the advisor's
// estimate of a kernel it has no table for is a line through them, ns per
// point against reads per point (advisor/kernel_time.cpp). Measured on an
// H200 (bench/kernel/rate_probe.cu): 3.7 ns per thousand points for a copy,
// 6.2 for the box, where one rate for every kernel priced both at 6.3.
#pragma once

#include <recipe/recipe.cuh>

#include <cstdint>
#include <string>
#include <vector>

namespace view_kernels {

__global__ void copy2d(recipe::Tile tile, recipe::InView<float> a, recipe::OutView<float> b) {
    const int x = static_cast<int>(tile.x()), y = static_cast<int>(tile.y());
    if (!tile.contains(x, y)) return;
    b(x, y) = a(x, y);
}

__global__ void zip3(recipe::Tile tile, recipe::InView<float> a, recipe::InView<float> b, recipe::InView<float> c,
                     recipe::OutView<float> o) {
    const int x = static_cast<int>(tile.x()), y = static_cast<int>(tile.y());
    if (!tile.contains(x, y)) return;
    o(x, y) = a(x, y) * b(x, y) + c(x, y);
}

__global__ void star5(recipe::Tile tile, recipe::InView<float> t, recipe::OutView<float> o) {
    const int x = static_cast<int>(tile.x()), y = static_cast<int>(tile.y());
    if (!tile.contains(x, y)) return;
    o(x, y) = t(x, y) + 0.2f * (t(x - 1, y) + t(x + 1, y) + t(x, y - 1) + t(x, y + 1) - 4.0f * t(x, y));
}

__global__ void box9(recipe::Tile tile, recipe::InView<float> t, recipe::OutView<float> o) {
    const int x = static_cast<int>(tile.x()), y = static_cast<int>(tile.y());
    if (!tile.contains(x, y)) return;
    float s = 0;
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) s += t(x + dx, y + dy);
    o(x, y) = s / 9.0f;
}

__global__ void copy3d(recipe::Tile tile, recipe::InView<float> a, recipe::OutView<float> b) {
    const int x = static_cast<int>(tile.x()), y = static_cast<int>(tile.y()), z = static_cast<int>(tile.z());
    if (!tile.contains(x, y, z)) return;
    b(x, y, z) = a(x, y, z);
}

__global__ void star7(recipe::Tile tile, recipe::InView<float> a, recipe::OutView<float> b) {
    const int x = static_cast<int>(tile.x()), y = static_cast<int>(tile.y()), z = static_cast<int>(tile.z());
    if (!tile.contains(x, y, z)) return;
    b(x, y, z) = 0.1f * (a(x - 1, y, z) + a(x + 1, y, z) + a(x, y - 1, z) + a(x, y + 1, z) + a(x, y, z - 1) +
                         a(x, y, z + 1)) +
                 0.4f * a(x, y, z);
}

// One kernel's figure for the profile.
struct Timed {
    std::string name;
    int dims = 0;
    int reads = 0;   // distinct elements each point reads
    int arrays = 0;  // arrays it touches, the output included
    double points = 0;
    double ns = 0;   // one launch, back to back with the others of its kind
};

inline recipe::InView<float> in(const float* p, std::int64_t ex, std::int64_t ey) {
    return recipe::InView<float>{p, {0, 0, 0}, ex, ey};
}
inline recipe::OutView<float> out(float* p, std::int64_t ex, std::int64_t ey) {
    return recipe::OutView<float>{p, {0, 0, 0}, ex, ey};
}
// The interior of an n x n (x n) grid: the stencils' reach stays inside.
inline recipe::Tile interior(std::int64_t n, int dims) {
    recipe::Tile t{};
    t.core = recipe::DeviceBox{{1, 1, dims == 3 ? 1 : 0}, {n - 1, n - 1, dims == 3 ? n - 1 : 1}};
    t.count = 1;
    return t;
}

// Every kernel over an n2^2 grid (2-D) and an n3^3 grid (3-D). `d` holds
// four device arrays of at least n2^2 and n3^3 floats.
// `per_launch_ns(launch)` times one launch of `launch` (back to back).
template <class Timer>
std::vector<Timed> measure_at(std::int64_t n2, std::int64_t n3, float* const d[4], cudaStream_t s, const Timer& per_launch_ns) {
    std::vector<Timed> out_list;
    {
        const std::int64_t n = n2;
        const recipe::Tile tile = interior(n, 2);
        const dim3 block(32, 8, 1), grid((n - 2 + 31) / 32, (n - 2 + 7) / 8, 1);
        const double points = double(n - 2) * double(n - 2);
        out_list.push_back({"copy2d", 2, 1, 2, points, per_launch_ns([&] {
                                copy2d<<<grid, block, 0, s>>>(tile, in(d[0], n, n), out(d[1], n, n));
                            })});
        out_list.push_back({"zip3", 2, 3, 4, points, per_launch_ns([&] {
                                zip3<<<grid, block, 0, s>>>(tile, in(d[0], n, n), in(d[1], n, n), in(d[2], n, n),
                                                            out(d[3], n, n));
                            })});
        out_list.push_back({"star5", 2, 5, 2, points, per_launch_ns([&] {
                                star5<<<grid, block, 0, s>>>(tile, in(d[0], n, n), out(d[1], n, n));
                            })});
        out_list.push_back({"box9", 2, 9, 2, points, per_launch_ns([&] {
                                box9<<<grid, block, 0, s>>>(tile, in(d[0], n, n), out(d[1], n, n));
                            })});
    }
    {
        const std::int64_t n = n3;
        const recipe::Tile tile = interior(n, 3);
        const dim3 block(32, 8, 1), grid((n - 2 + 31) / 32, (n - 2 + 7) / 8, static_cast<unsigned>(n - 2));
        const double points = double(n - 2) * double(n - 2) * double(n - 2);
        out_list.push_back({"copy3d", 3, 1, 2, points, per_launch_ns([&] {
                                copy3d<<<grid, block, 0, s>>>(tile, in(d[0], n, n), out(d[1], n, n));
                            })});
        out_list.push_back({"star7", 3, 7, 2, points, per_launch_ns([&] {
                                star7<<<grid, block, 0, s>>>(tile, in(d[0], n, n), out(d[1], n, n));
                            })});
    }
    return out_list;
}

// Every kernel at two sizes: 4096^2 and 256^3 grids, about 16.5 million
// points each, large enough that a launch's own cost is under 3% of it;
// and 1024^2 and 128^3, about 1-2 million, where a launch's own cost and
// the grids' fitting in the GPU's L2 cache both show (PolyBench's LARGE
// grids are 1-2 million points: on an H200 heat-3d's 120^3 ran 14.0 us a
// launch, jacobi-2d's 1300^2 10.3, against 10.7 and 8.4 the large grids'
// rate gave). The advisor interpolates between them (advisor/kernel_time.cpp).
// `d` holds four device arrays of at least 4096^2 floats.
template <class Timer>
std::vector<Timed> measure(float* const d[4], cudaStream_t s, const Timer& per_launch_ns) {
    std::vector<Timed> all = measure_at(4096, 256, d, s, per_launch_ns);
    for (Timed& t : measure_at(1024, 128, d, s, per_launch_ns)) all.push_back(t);
    return all;
}

}  // namespace view_kernels
