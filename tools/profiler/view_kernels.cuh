// view_kernels.cuh — kernels written as recipe emits them (one thread per
// point, every array through the library's views), which differ only in how
// many elements each point reads: a copy reads one, a 5-point star five, a
// 3x3 box nine, a zip three (of three arrays), in 2-D and 3-D. The profiler
// times them back to back on resident arrays (as a region's steps and a
// pipeline's tiles run) for the profile's "viewKernels": the advisor's
// estimate of a kernel it has no table for is a line through them, ns per
// point against reads per point, of the nest's element size
// (advisor/kernel_time.cpp). Measured on an
// H200 (bench/kernel/rate_probe.cu): 3.7 ns per thousand points for a copy,
// 6.2 for the box, where one rate for every kernel priced both at 6.3.
#pragma once

#include <recipe/recipe.cuh>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace view_kernels {

template <class T>
__global__ void copy2d(recipe::Tile tile, recipe::InView<T> a, recipe::OutView<T> b) {
    const int x = static_cast<int>(tile.x()), y = static_cast<int>(tile.y());
    if (!tile.contains(x, y)) return;
    b(x, y) = a(x, y);
}

template <class T>
__global__ void zip3(recipe::Tile tile, recipe::InView<T> a, recipe::InView<T> b, recipe::InView<T> c,
                     recipe::OutView<T> o) {
    const int x = static_cast<int>(tile.x()), y = static_cast<int>(tile.y());
    if (!tile.contains(x, y)) return;
    o(x, y) = a(x, y) * b(x, y) + c(x, y);
}

template <class T>
__global__ void star5(recipe::Tile tile, recipe::InView<T> t, recipe::OutView<T> o) {
    const int x = static_cast<int>(tile.x()), y = static_cast<int>(tile.y());
    if (!tile.contains(x, y)) return;
    o(x, y) = t(x, y) + T(0.2) * (t(x - 1, y) + t(x + 1, y) + t(x, y - 1) + t(x, y + 1) - T(4) * t(x, y));
}

template <class T>
__global__ void box9(recipe::Tile tile, recipe::InView<T> t, recipe::OutView<T> o) {
    const int x = static_cast<int>(tile.x()), y = static_cast<int>(tile.y());
    if (!tile.contains(x, y)) return;
    T s = 0;
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) s += t(x + dx, y + dy);
    o(x, y) = s / T(9);
}

template <class T>
__global__ void copy3d(recipe::Tile tile, recipe::InView<T> a, recipe::OutView<T> b) {
    const int x = static_cast<int>(tile.x()), y = static_cast<int>(tile.y()), z = static_cast<int>(tile.z());
    if (!tile.contains(x, y, z)) return;
    b(x, y, z) = a(x, y, z);
}

template <class T>
__global__ void star7(recipe::Tile tile, recipe::InView<T> a, recipe::OutView<T> b) {
    const int x = static_cast<int>(tile.x()), y = static_cast<int>(tile.y()), z = static_cast<int>(tile.z());
    if (!tile.contains(x, y, z)) return;
    b(x, y, z) = T(0.1) * (a(x - 1, y, z) + a(x + 1, y, z) + a(x, y - 1, z) + a(x, y + 1, z) + a(x, y, z - 1) +
                           a(x, y, z + 1)) +
                 T(0.4) * a(x, y, z);
}

// One kernel's figure for the profile.
struct Timed {
    std::string name;
    int dims = 0;
    int reads = 0;   // distinct elements each point reads
    int arrays = 0;  // arrays it touches, the output included
    double points = 0;
    double ns = 0;   // one launch, back to back with the others of its kind
    int element_bytes = 4;  // float or double
};

// Views of an ex x ey x ez grid held whole (origin 0).
template <class T>
recipe::InView<T> in(const T* p, std::int64_t ex, std::int64_t ey, std::int64_t ez = 1) {
    const std::int64_t origin[3] = {0, 0, 0};
    return recipe::make_in_view(p, origin, ex, ey, ez);
}
template <class T>
recipe::OutView<T> out(T* p, std::int64_t ex, std::int64_t ey, std::int64_t ez = 1) {
    const std::int64_t origin[3] = {0, 0, 0};
    return recipe::make_out_view(p, origin, ex, ey, ez);
}
// The interior of an n x n (x n) grid: the stencils' reach stays inside.
inline recipe::Tile interior(std::int64_t n, int dims) {
    recipe::Tile t{};
    t.core = recipe::DeviceBox{{1, 1, dims == 3 ? 1 : 0}, {n - 1, n - 1, dims == 3 ? n - 1 : 1}};
    t.count = 1;
    return t;
}

// Every kernel over an n2^2 grid (2-D) and an n3^3 grid (3-D) of T. `d`
// holds four device arrays of at least n2^2 and n3^3 elements.
// `per_launch_ns(launch)` times one launch of `launch` (back to back).
template <class T, class Timer>
std::vector<Timed> measure_at(std::int64_t n2, std::int64_t n3, T* const d[4], cudaStream_t s, const Timer& per_launch_ns) {
    std::vector<Timed> out_list;
    {
        const std::int64_t n = n2;
        const recipe::Tile tile = interior(n, 2);
        const dim3 block(32, 8, 1), grid((n - 2 + 31) / 32, (n - 2 + 7) / 8, 1);
        const double points = double(n - 2) * double(n - 2);
        out_list.push_back({"copy2d", 2, 1, 2, points, per_launch_ns([&] {
                                copy2d<T><<<grid, block, 0, s>>>(tile, in(d[0], n, n), out(d[1], n, n));
                            })});
        out_list.push_back({"zip3", 2, 3, 4, points, per_launch_ns([&] {
                                zip3<T><<<grid, block, 0, s>>>(tile, in(d[0], n, n), in(d[1], n, n), in(d[2], n, n),
                                                            out(d[3], n, n));
                            })});
        out_list.push_back({"star5", 2, 5, 2, points, per_launch_ns([&] {
                                star5<T><<<grid, block, 0, s>>>(tile, in(d[0], n, n), out(d[1], n, n));
                            })});
        out_list.push_back({"box9", 2, 9, 2, points, per_launch_ns([&] {
                                box9<T><<<grid, block, 0, s>>>(tile, in(d[0], n, n), out(d[1], n, n));
                            })});
    }
    {
        const std::int64_t n = n3;
        const recipe::Tile tile = interior(n, 3);
        const dim3 block(32, 8, 1), grid((n - 2 + 31) / 32, (n - 2 + 7) / 8, static_cast<unsigned>(n - 2));
        const double points = double(n - 2) * double(n - 2) * double(n - 2);
        out_list.push_back({"copy3d", 3, 1, 2, points, per_launch_ns([&] {
                                copy3d<T><<<grid, block, 0, s>>>(tile, in(d[0], n, n, n), out(d[1], n, n, n));
                            })});
        out_list.push_back({"star7", 3, 7, 2, points, per_launch_ns([&] {
                                star7<T><<<grid, block, 0, s>>>(tile, in(d[0], n, n, n), out(d[1], n, n, n));
                            })});
    }
    for (Timed& t : out_list) t.element_bytes = static_cast<int>(sizeof(T));
    return out_list;
}

// Every kernel at two sizes: 4096^2 and 256^3 grids, about 16.5 million
// points each, large enough that a launch's own cost is under 3% of it;
// and 1024^2 and 128^3, about 1-2 million, where a launch's own cost and
// the grids' fitting in the GPU's L2 cache both show (PolyBench's LARGE
// grids are 1-2 million points: on an H200 heat-3d's 120^3 ran 14.0 us a
// launch, jacobi-2d's 1300^2 10.3, against 10.7 and 8.4 the large grids'
// rate gave). Each in floats, then in doubles: a point of doubles moves
// twice the bytes (heat-3d's 7-point star in doubles ran 8.5 and 7.9 ns per
// 1000 points at 1.6 and 7.8 million points on an H200, where the float
// kernel's 7.5 and 6.9 priced it). The advisor interpolates between the sizes
// of the nest's element size (advisor/kernel_time.cpp). `d` holds four
// device arrays of at least kArrayBytes each.
constexpr std::size_t kArrayBytes = std::size_t{4096} * 4096 * sizeof(double);
template <class Timer>
std::vector<Timed> measure(void* const d[4], cudaStream_t s, const Timer& per_launch_ns) {
    float* const f[4] = {static_cast<float*>(d[0]), static_cast<float*>(d[1]), static_cast<float*>(d[2]),
                         static_cast<float*>(d[3])};
    double* const g[4] = {static_cast<double*>(d[0]), static_cast<double*>(d[1]), static_cast<double*>(d[2]),
                          static_cast<double*>(d[3])};
    std::vector<Timed> all;
    for (std::vector<Timed> part : {measure_at(4096, 256, f, s, per_launch_ns), measure_at(1024, 128, f, s, per_launch_ns),
                                    measure_at(4096, 256, g, s, per_launch_ns), measure_at(1024, 128, g, s, per_launch_ns)})
        all.insert(all.end(), part.begin(), part.end());
    return all;
}

// The entries of the profile's "viewKernels" array, one per line, as
// advisor/platform.cpp reads them.
inline std::string json_entries(const std::vector<Timed>& timed) {
    std::string v;
    char line[256];
    for (std::size_t i = 0; i < timed.size(); ++i) {
        const Timed& k = timed[i];
        std::snprintf(line, sizeof line,
                      "%s    {\"name\": \"%s\", \"dims\": %d, \"reads\": %d, \"arrays\": %d, \"points\": %.0f, \"ns\": %.0f, "
                      "\"elementBytes\": %d}",
                      i ? ",\n" : "", k.name.c_str(), k.dims, k.reads, k.arrays, k.points, k.ns, k.element_bytes);
        v += line;
    }
    return v;
}

}  // namespace view_kernels
