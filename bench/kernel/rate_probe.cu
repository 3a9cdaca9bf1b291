// rate_probe.cu — points per ns of kernels written as the generator writes
// them (one thread per point, arrays through the library's views), by the
// number of neighbours each point reads and the grid's size, launched back
// to back on resident arrays as a region's steps are. A tool for
// understanding the kernel estimate (advisor/kernel_time.cpp), not a test;
// the profile's viewKernels are these kernels at one size each.
//   nvcc -O3 -std=c++17 -arch=native --fmad=false -Ilibrary/include bench/kernel/rate_probe.cu -o /tmp/rp && /tmp/rp
// Prints one line per kernel and size: kernel, points, block, ns per launch, points per ns.
#include "../../tools/profiler/view_kernels.cuh"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

#include "check.cuh"

using namespace view_kernels;  // the profiler's kernels: copy2d, zip3, star5, box9, copy3d, star7

static double per_launch_ns(cudaStream_t s, int reps, const std::function<void()>& op) {
    std::vector<double> t;
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    for (int r = 0; r < 5; ++r) {
        op();
        CK(cudaStreamSynchronize(s));
        CK(cudaEventRecord(a, s));
        for (int i = 0; i < reps; ++i) op();
        CK(cudaEventRecord(b, s));
        CK(cudaEventSynchronize(b));
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, a, b));
        t.push_back(ms * 1e6 / reps);
    }
    CK(cudaGetLastError());
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

int main() {
    cudaStream_t s;
    CK(cudaStreamCreate(&s));
    const std::size_t most = std::size_t{8192} * 8192 * sizeof(float);
    float *d[4];
    for (auto& p : d) {
        CK(cudaMalloc(&p, most));
        CK(cudaMemset(p, 0, most));
    }
    cudaDeviceProp prop{};
    CK(cudaGetDeviceProperties(&prop, 0));
    std::printf("# %s, L2 %d MiB\n", prop.name, prop.l2CacheSize >> 20);
        for (long n : {1024L, 2048L, 4096L, 8192L}) {
        recipe::Tile tile{};
        tile.core = recipe::DeviceBox{{1, 1, 0}, {n - 1, n - 1, 1}};
        tile.count = 1;
        const double points = double(n - 2) * double(n - 2);
        for (dim3 block : {dim3(128, 2, 1), dim3(32, 8, 1)}) {
            const dim3 grid((n - 2 + block.x - 1) / block.x, (n - 2 + block.y - 1) / block.y, 1);
            auto report = [&](const char* name, double ns) {
                std::printf("%-10s %10.0f %3ux%u %10.0f %8.1f\n", name, points, block.x, block.y, ns, points / ns);
            };
            report("copy2d", per_launch_ns(s, 20, [&] { copy2d<<<grid, block, 0, s>>>(tile, in(d[0], n, n), out(d[1], n, n)); }));
            report("star5", per_launch_ns(s, 20, [&] { star5<<<grid, block, 0, s>>>(tile, in(d[0], n, n), out(d[1], n, n)); }));
            report("box9", per_launch_ns(s, 20, [&] { box9<<<grid, block, 0, s>>>(tile, in(d[0], n, n), out(d[1], n, n)); }));
            report("zip3", per_launch_ns(s, 20, [&] {
                zip3<<<grid, block, 0, s>>>(tile, in(d[0], n, n), in(d[1], n, n), in(d[2], n, n), out(d[3], n, n));
            }));
            report("heatstep", per_launch_ns(s, 20, [&] {  // heat2d's step: star5 then copy back
                star5<<<grid, block, 0, s>>>(tile, in(d[0], n, n), out(d[1], n, n));
                copy2d<<<grid, block, 0, s>>>(tile, in(d[1], n, n), out(d[0], n, n));
            }) / 2);
        }
    }
    for (long n : {128L, 256L, 400L}) {
        recipe::Tile tile{};
        tile.core = recipe::DeviceBox{{1, 1, 1}, {n - 1, n - 1, n - 1}};
        tile.count = 1;
        const double points = double(n - 2) * double(n - 2) * double(n - 2);
        const dim3 block(32, 8, 1), grid((n - 2 + 31) / 32, (n - 2 + 7) / 8, n - 2);
        auto report = [&](const char* name, double ns) {
            std::printf("%-10s %10.0f %3ux%u %10.0f %8.1f\n", name, points, block.x, block.y, ns, points / ns);
        };
        report("copy3d", per_launch_ns(s, 20, [&] { copy3d<<<grid, block, 0, s>>>(tile, in(d[0], n, n), out(d[1], n, n)); }));
        report("star7", per_launch_ns(s, 20, [&] { star7<<<grid, block, 0, s>>>(tile, in(d[0], n, n), out(d[1], n, n)); }));
    }
    return 0;
}
