// stencil_windows.cpp — how the host's one-thread arithmetic rate (the
// stencil of advisor/host_cpu.h) moves within one process, in short windows:
//   timeline: 300 windows of 200 sweeps (~5 ms each on a 6 GFLOP/s core),
//             one line each: `seconds_since_start gflops`;
//   layout:   200 windows each, alternating, with the second array at the
//             first's page offset (4K aliasing possible) and 2 KiB + 64 B
//             past it (host_cpu.h's layout); prints p10, median, p90, max of
//             each.
// No GPU needed.
//   g++ -O2 -std=c++17 -I. bench/device/stencil_windows.cpp -o stencil_windows && ./stencil_windows timeline|layout
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "advisor/host_cpu.h"

namespace {

using recipe::advisor::detail::kStencilN;
using recipe::advisor::detail::seconds_of;
using recipe::advisor::detail::stencil_2d;

// GFLOP/s of `reps` sweeps of a into b.
double window(const double* a, double* b, int reps) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int r = 0; r < reps; ++r) stencil_2d(a, b, 0.2 + r * 1e-12);
    return 5.0 * static_cast<double>((kStencilN - 2) * (kStencilN - 2)) * reps / seconds_of(t0) / 1e9;
}

void print_percentiles(const char* name, std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const auto at = [&](double q) { return v[static_cast<std::size_t>(q * static_cast<double>(v.size() - 1))]; };
    std::printf("%s: p10 %.2f median %.2f p90 %.2f max %.2f GFLOP/s\n", name, at(0.1), at(0.5), at(0.9), v.back());
}

}  // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "timeline";
    constexpr std::size_t kPage = 4096;
    const std::size_t n = kStencilN;
    const std::size_t a_bytes = (n * n * sizeof(double) + kPage - 1) / kPage * kPage;
    std::vector<double> block((2 * a_bytes + 2 * kPage + 4096) / sizeof(double), 1.0);
    const auto base = (reinterpret_cast<std::uintptr_t>(block.data()) + kPage - 1) / kPage * kPage;
    const double* a = reinterpret_cast<const double*>(base);
    double* same_offset = reinterpret_cast<double*>(base + a_bytes);
    double* skewed = reinterpret_cast<double*>(base + a_bytes + 2048 + 64);
    if (mode == "timeline") {
        const auto t0 = std::chrono::steady_clock::now();
        for (int k = 0; k < 300; ++k) {
            const double g = window(a, skewed, 200);
            std::printf("%.3f %.2f\n", seconds_of(t0), g);
        }
        return 0;
    }
    if (mode == "layout") {
        std::vector<double> same, skew;
        for (int k = 0; k < 200; ++k) {
            same.push_back(window(a, same_offset, 100));
            skew.push_back(window(a, skewed, 100));
        }
        print_percentiles("same page offset", same);
        print_percentiles("2 KiB + 64 B past", skew);
        return 0;
    }
    std::fprintf(stderr, "usage: stencil_windows timeline|layout\n");
    return 2;
}
