// The profiler's view kernels alone (tools/profiler/view_kernels.cuh), timed
// as recipe-profile times them: each launch 20 times back to back, median of
// 3. Writes {"viewKernels": [...]} in the profile's form to the file named
// (bench/device/profile_fields.py copies it into a stored profile) and a line
// per kernel to stdout: ns per 1000 points, floats and doubles.
//   nvcc -O3 -std=c++17 -arch=sm_90 -I library/include bench/kernel/view_kernels_probe.cu -o probe && ./probe OUT.json
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "../../tools/profiler/view_kernels.cuh"

namespace {

void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) {
        std::fprintf(stderr, "view_kernels_probe: %s: %s\n", what, cudaGetErrorString(e));
        std::exit(1);
    }
}

double per_launch_ns(cudaStream_t s, const std::function<void()>& launch) {
    std::vector<double> t;
    cudaEvent_t a, b;
    check(cudaEventCreate(&a), "cudaEventCreate");
    check(cudaEventCreate(&b), "cudaEventCreate");
    for (int r = 0; r < 3; ++r) {
        launch();  // warm
        check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
        check(cudaEventRecord(a, s), "cudaEventRecord");
        for (int i = 0; i < 20; ++i) launch();
        check(cudaEventRecord(b, s), "cudaEventRecord");
        check(cudaEventSynchronize(b), "cudaEventSynchronize");
        float ms = 0;
        check(cudaEventElapsedTime(&ms, a, b), "cudaEventElapsedTime");
        t.push_back(ms * 1e6 / 20);
    }
    check(cudaGetLastError(), "a launch");
    std::sort(t.begin(), t.end());
    check(cudaEventDestroy(a), "cudaEventDestroy");
    check(cudaEventDestroy(b), "cudaEventDestroy");
    return t[1];
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: view_kernels_probe OUT.json\n");
        return 2;
    }
    cudaStream_t s;
    check(cudaStreamCreate(&s), "cudaStreamCreate");
    void* d[4];
    for (auto& a : d) {
        check(cudaMalloc(&a, view_kernels::kArrayBytes), "cudaMalloc");
        check(cudaMemset(a, 0, view_kernels::kArrayBytes), "cudaMemset");
    }
    const std::vector<view_kernels::Timed> timed =
        view_kernels::measure(d, s, [&](const std::function<void()>& launch) { return per_launch_ns(s, launch); });
    FILE* f = std::fopen(argv[1], "w");
    if (!f) {
        std::perror(argv[1]);
        return 1;
    }
    for (const auto& k : timed)
        std::printf("%-7s %-6s %10.0f points %8.2f ns per 1000 points\n", k.name.c_str(),
                    k.element_bytes == 8 ? "double" : "float", k.points, k.ns / k.points * 1e3);
    std::fprintf(f, "{\n  \"viewKernels\": [\n%s\n  ]\n}\n", view_kernels::json_entries(timed).c_str());
    return std::fclose(f) == 0 ? 0 : 1;
}
