// experiments.cuh — the GPU benchmark's experiments, each once: its arrays'
// shape, its iteration space and halo, its run through the library, its
// kernel launched on one tile of device buffers (the bounds and the raw
// floor), and its C loop run sequentially (the reference every output is
// compared with, byte for byte).
//
// The thesis's §7 three (moving average of 64 Mi floats, emboss 8000^2,
// Jacobi 400^3) and two of other shapes: a 3x3 stencil on an 8192^2 array
// of doubles (interior points, so its outputs are strided rows) and a zip
// of three 64 Mi-float inputs into one output (no halo, four arrays).
// bench_plan.cpp describes the same five to the model; the names match.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <recipe/recipe.cuh>

#include "../../tools/profiler/sample_kernels.cuh"
#include "bench_kernels.cuh"

namespace bench {

inline void ck(cudaError_t e, const char* what) {
    if (e != cudaSuccess) {
        std::fprintf(stderr, "pipeline_bench: %s: %s\n", what, cudaGetErrorString(e));
        std::exit(3);
    }
}

// One array of a tile on the device: element p at (p - origin) in a buffer
// of `extents` (a whole array: origin 0, the array's extents).
struct DeviceArray {
    char* data = nullptr;
    recipe::Index3 origin{0, 0, 0};
    recipe::Index3 extents{1, 1, 1};
};

template <class T>
recipe::InView<T> in_view(const DeviceArray& a) {
    const std::int64_t origin[3] = {a.origin[0], a.origin[1], a.origin[2]};
    return recipe::make_in_view(reinterpret_cast<const T*>(a.data), origin, a.extents[0], a.extents[1], a.extents[2]);
}

template <class T>
recipe::OutView<T> out_view(const DeviceArray& a) {
    const std::int64_t origin[3] = {a.origin[0], a.origin[1], a.origin[2]};
    return recipe::make_out_view(reinterpret_cast<T*>(a.data), origin, a.extents[0], a.extents[1], a.extents[2]);
}

// A tile as the library hands it to a kernel (the library's own maker).
using recipe::detail::make_tile;

// The grid that covers a tile's core with `block`, one thread per point.
inline dim3 grid_for(const recipe::Tile& t, dim3 block) {
    auto blocks = [&](int d, unsigned b) {
        return static_cast<unsigned>((t.core.end[d] - t.core.begin[d] + b - 1) / b);
    };
    return dim3(blocks(0, block.x), blocks(1, block.y), blocks(2, block.z));
}

using Pointers = std::vector<const char*>;

struct Experiment {
    std::string name;
    recipe::Index3 extents;
    recipe::Box space;
    std::vector<recipe::Halo> halos;  // one per input
    std::size_t elem = 4;             // bytes per element, every array
    dim3 block;                       // the thread block of the bounds and the raw floor
    std::vector<int> repeats;         // kernel repeat counts the bounds time (1 first)
    // The nest through the library: inputs, the output, the kernel's repeat count.
    std::function<recipe::Measured(const recipe::Config&, const Pointers&, char*, int)> run;
    // The kernel on one tile whose arrays are device buffers.
    std::function<void(const recipe::Tile&, const std::vector<DeviceArray>&, const DeviceArray&, dim3, cudaStream_t,
                       int)>
        launch;
    // The C program's loop, sequentially.
    std::function<void(const Pointers&, char*)> reference;

    int inputs() const { return static_cast<int>(halos.size()); }
    std::int64_t elements() const { return extents[0] * extents[1] * extents[2]; }
    std::size_t bytes() const { return static_cast<std::size_t>(elements()) * elem; }
};

constexpr int kRadius = 4;
constexpr std::int64_t kN = 64ll * 1024 * 1024;
constexpr int kW = 8000, kH = 8000;
constexpr int kX = 400, kY = 400, kZ = 400;
constexpr int kS = 8192;  // stencil9: kS x kS doubles

template <class T>
const T* as(const char* p) {
    return reinterpret_cast<const T*>(p);
}
template <class T>
T* as(char* p) {
    return reinterpret_cast<T*>(p);
}

inline std::vector<Experiment> experiments() {
    std::vector<Experiment> e;
    {
        Experiment x;
        x.name = "moving_average";
        x.extents = {kN, 1, 1};
        x.space = {{kRadius, 0, 0}, {kN - kRadius, 1, 1}};
        x.halos = {recipe::Halo{{kRadius, 0, 0}, {kRadius, 0, 0}}};
        x.block = dim3(256, 1, 1);
        x.repeats = {1, 2, 3, 5, 10};
        const recipe::Halo h = x.halos[0];
        x.run = [h](const recipe::Config& c, const Pointers& in, char* out, int repeat) {
            return recipe::run(c, samples::moving_average, recipe::inputs(recipe::input(as<float>(in[0]), h)),
                               recipe::outputs(recipe::output(as<float>(out))), kRadius, repeat);
        };
        x.launch = [](const recipe::Tile& t, const std::vector<DeviceArray>& in, const DeviceArray& out, dim3 block,
                      cudaStream_t s, int repeat) {
            samples::moving_average<<<grid_for(t, block), block, 0, s>>>(t, in_view<float>(in[0]),
                                                                            out_view<float>(out), kRadius, repeat);
        };
        x.reference = [](const Pointers& in_, char* out_) {
            const float* in = as<float>(in_[0]);
            float* out = as<float>(out_);
            for (std::int64_t i = kRadius; i < kN - kRadius; i++) {
                float s = 0.0f;
                for (int d = -kRadius; d <= kRadius; d++) s += in[i + d];
                out[i] = s / (2 * kRadius + 1);
            }
        };
        e.push_back(x);
    }
    {
        Experiment x;
        x.name = "emboss";
        x.extents = {kW, kH, 1};
        x.space = {{0, 0, 0}, {kW, kH, 1}};
        x.halos = {recipe::Halo{{1, 1, 0}, {1, 1, 0}}};
        x.block = dim3(32, 8, 1);
        x.repeats = {1};
        const recipe::Halo h = x.halos[0];
        x.run = [h](const recipe::Config& c, const Pointers& in, char* out, int repeat) {
            return recipe::run(c, samples::emboss, recipe::inputs(recipe::input(as<float>(in[0]), h)),
                               recipe::outputs(recipe::output(as<float>(out))), kW, kH, repeat);
        };
        x.launch = [](const recipe::Tile& t, const std::vector<DeviceArray>& in, const DeviceArray& out, dim3 block,
                      cudaStream_t s, int repeat) {
            samples::emboss<<<grid_for(t, block), block, 0, s>>>(t, in_view<float>(in[0]), out_view<float>(out), kW,
                                                                    kH, repeat);
        };
        x.reference = [](const Pointers& in_, char* out_) {
            const float* in = as<float>(in_[0]);
            float* out = as<float>(out_);
            for (int y = 0; y < kH; y++)
                for (int x = 0; x < kW; x++) {
                    const int xm = x > 0 ? x - 1 : 0, xp = x < kW - 1 ? x + 1 : kW - 1;
                    const int ym = y > 0 ? y - 1 : 0, yp = y < kH - 1 ? y + 1 : kH - 1;
                    const float lit = in[y * kW + xp] + in[yp * kW + x] + in[yp * kW + xp];
                    const float shade = in[y * kW + xm] + in[ym * kW + x] + in[ym * kW + xm];
                    out[y * kW + x] = 0.5f + (lit - shade) / 6.0f;
                }
        };
        e.push_back(x);
    }
    {
        Experiment x;
        x.name = "jacobi_sweep";
        x.extents = {kX, kY, kZ};
        x.space = {{1, 1, 1}, {kX - 1, kY - 1, kZ - 1}};
        x.halos = {recipe::Halo{{1, 1, 1}, {1, 1, 1}}};
        x.block = dim3(32, 8, 1);
        x.repeats = {1, 2, 3, 5, 10};
        const recipe::Halo h = x.halos[0];
        x.run = [h](const recipe::Config& c, const Pointers& in, char* out, int repeat) {
            return recipe::run(c, samples::jacobi_sweep, recipe::inputs(recipe::input(as<float>(in[0]), h)),
                               recipe::outputs(recipe::output(as<float>(out))), repeat);
        };
        x.launch = [](const recipe::Tile& t, const std::vector<DeviceArray>& in, const DeviceArray& out, dim3 block,
                      cudaStream_t s, int repeat) {
            samples::jacobi_sweep<<<grid_for(t, block), block, 0, s>>>(t, in_view<float>(in[0]),
                                                                          out_view<float>(out), repeat);
        };
        x.reference = [](const Pointers& in_, char* out_) {
            const float* in = as<float>(in_[0]);
            float* out = as<float>(out_);
            auto I = [](int x, int y, int z) { return x + kX * (y + kY * static_cast<std::int64_t>(z)); };
            for (int z = 1; z < kZ - 1; z++)
                for (int y = 1; y < kY - 1; y++)
                    for (int x = 1; x < kX - 1; x++)
                        out[I(x, y, z)] = (in[I(x, y, z)] + in[I(x - 1, y, z)] + in[I(x + 1, y, z)] +
                                           in[I(x, y - 1, z)] + in[I(x, y + 1, z)] + in[I(x, y, z - 1)] +
                                           in[I(x, y, z + 1)]) /
                                          7.0f;
        };
        e.push_back(x);
    }
    {
        Experiment x;
        x.name = "stencil9";
        x.extents = {kS, kS, 1};
        x.space = {{1, 1, 0}, {kS - 1, kS - 1, 1}};
        x.halos = {recipe::Halo{{1, 1, 0}, {1, 1, 0}}};
        x.elem = sizeof(double);
        x.block = dim3(32, 8, 1);
        x.repeats = {1};
        const recipe::Halo h = x.halos[0];
        x.run = [h](const recipe::Config& c, const Pointers& in, char* out, int repeat) {
            return recipe::run(c, bench::stencil9, recipe::inputs(recipe::input(as<double>(in[0]), h)),
                               recipe::outputs(recipe::output(as<double>(out))), repeat);
        };
        x.launch = [](const recipe::Tile& t, const std::vector<DeviceArray>& in, const DeviceArray& out, dim3 block,
                      cudaStream_t s, int repeat) {
            bench::stencil9<<<grid_for(t, block), block, 0, s>>>(t, in_view<double>(in[0]), out_view<double>(out),
                                                                    repeat);
        };
        x.reference = [](const Pointers& in_, char* out_) {
            const double* in = as<double>(in_[0]);
            double* out = as<double>(out_);
            auto I = [](std::int64_t x, std::int64_t y) { return x + kS * y; };
            for (std::int64_t y = 1; y < kS - 1; y++)
                for (std::int64_t x = 1; x < kS - 1; x++) {
                    const double corners = in[I(x - 1, y - 1)] + in[I(x + 1, y - 1)] + in[I(x - 1, y + 1)] +
                                           in[I(x + 1, y + 1)];
                    const double sides = in[I(x, y - 1)] + in[I(x - 1, y)] + in[I(x + 1, y)] + in[I(x, y + 1)];
                    out[I(x, y)] = 0.0625 * corners + 0.125 * sides + 0.25 * in[I(x, y)];
                }
        };
        e.push_back(x);
    }
    {
        Experiment x;
        x.name = "zip3";
        x.extents = {kN, 1, 1};
        x.space = {{0, 0, 0}, {kN, 1, 1}};
        x.halos = {recipe::Halo{}, recipe::Halo{}, recipe::Halo{}};
        x.block = dim3(256, 1, 1);
        x.repeats = {1};
        x.run = [](const recipe::Config& c, const Pointers& in, char* out, int repeat) {
            return recipe::run(c, bench::zip3,
                               recipe::inputs(recipe::input(as<float>(in[0])), recipe::input(as<float>(in[1])),
                                              recipe::input(as<float>(in[2]))),
                               recipe::outputs(recipe::output(as<float>(out))), repeat);
        };
        x.launch = [](const recipe::Tile& t, const std::vector<DeviceArray>& in, const DeviceArray& out, dim3 block,
                      cudaStream_t s, int repeat) {
            bench::zip3<<<grid_for(t, block), block, 0, s>>>(t, in_view<float>(in[0]), in_view<float>(in[1]),
                                                                in_view<float>(in[2]), out_view<float>(out), repeat);
        };
        x.reference = [](const Pointers& in, char* out_) {
            const float *a = as<float>(in[0]), *b = as<float>(in[1]), *c = as<float>(in[2]);
            float* o = as<float>(out_);
            for (std::int64_t i = 0; i < kN; i++) o[i] = a[i] + b[i] * c[i];
        };
        e.push_back(x);
    }
    return e;
}

// A slowly varying series (a random walk around 100) for input k of an
// experiment; input 0 of a float experiment is the series the thesis's
// three always had.
template <class T>
void fill_as(T* a, std::int64_t n, int k) {
    unsigned s = 12345u + 7919u * static_cast<unsigned>(k);
    T level = 100;
    for (std::int64_t i = 0; i < n; ++i) {
        s = s * 1664525u + 1013904223u;
        level += (static_cast<T>(s >> 8) / T(16777216) - T(0.5)) * T(0.25);
        if (level < 1) level = 1;
        a[i] = level;
    }
}

inline void fill(char* a, std::int64_t n, std::size_t elem, int k) {
    if (elem == sizeof(double))
        fill_as(reinterpret_cast<double*>(a), n, k);
    else
        fill_as(reinterpret_cast<float*>(a), n, k);
}

// Host arrays of one experiment: its inputs and its output, each pinned and
// pageable, and the reference output (poison outside the iteration space,
// as every output is poisoned before a run).
struct HostArrays {
    std::size_t bytes = 0;
    std::vector<char*> pinned_in, pageable_in;
    char* pinned_out = nullptr;
    char* pageable_out = nullptr;
    std::vector<char> want;

    explicit HostArrays(const Experiment& e) : bytes(e.bytes()) {
        for (int k = 0; k < e.inputs(); ++k) {
            char* p = nullptr;
            ck(cudaMallocHost(&p, bytes), "cudaMallocHost");
            pinned_in.push_back(p);
            char* q = static_cast<char*>(std::malloc(bytes));
            if (!q) std::exit(2);
            pageable_in.push_back(q);
            fill(p, e.elements(), e.elem, k);
            std::memcpy(q, p, bytes);
        }
        ck(cudaMallocHost(&pinned_out, bytes), "cudaMallocHost");
        pageable_out = static_cast<char*>(std::malloc(bytes));
        if (!pageable_out) std::exit(2);
        std::memset(pageable_out, 0xff, bytes);  // touched: malloc is lazy (thesis §7)
        want.assign(bytes, static_cast<char>(0xff));
        e.reference(Pointers(pinned_in.begin(), pinned_in.end()), want.data());
    }
    ~HostArrays() {
        for (char* p : pinned_in) cudaFreeHost(p);
        for (char* p : pageable_in) std::free(p);
        cudaFreeHost(pinned_out);
        std::free(pageable_out);
    }
    HostArrays(const HostArrays&) = delete;
    HostArrays& operator=(const HostArrays&) = delete;

    Pointers inputs(bool pinned) const {
        const std::vector<char*>& v = pinned ? pinned_in : pageable_in;
        return Pointers(v.begin(), v.end());
    }
    char* output(bool pinned) const { return pinned ? pinned_out : pageable_out; }
    bool matches(const char* out) const { return std::memcmp(out, want.data(), bytes) == 0; }
};

}  // namespace bench
