// duplex_modes.cu — does a pipeline copying both ways at once run at one
// pace, or does it flip between a fast and a slow one? The GPU benchmark's
// pinned runs measure in two modes on some H200 hosts: the same plan took
// 5.5 ms in one run and 6.9 ms in the next, the slow runs' copies in taking
// twice their summed event time (docs/results-h200.md). This replays the
// copies of a basic pipeline (TILES tiles of TILE_MB MiB each way, tile k's
// copy in then copy out on stream k mod STREAMS, no kernel) ITERS times back
// to back and prints each iteration's host time, then the same with only
// copies in and only copies out, so a slow mode shows as a run of slow
// iterations. With NODE the host arrays are page-locked in place
// (cudaHostRegister) after being bound to that NUMA node (mbind); without,
// they come from cudaMallocHost. A tool for understanding, not a test.
//   nvcc -O2 -std=c++17 -arch=sm_90 bench/kernel/duplex_modes.cu -o /tmp/dm && /tmp/dm [ITERS] [NODE]
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "check.cuh"

namespace {

constexpr int TILES = 32, STREAMS = 3;
constexpr std::size_t TILE = 8u << 20;
constexpr std::size_t BYTES = TILES * TILE;

// Host memory for BYTES, page-locked: cudaMallocHost, or bound to `node`
// and registered.
char* host_block(int node) {
    if (node < 0) {
        void* p = nullptr;
        CK(cudaMallocHost(&p, BYTES));
        return static_cast<char*>(p);
    }
    void* p = mmap(nullptr, BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) std::exit(1);
    unsigned long mask = 1ul << node;
    if (syscall(SYS_mbind, p, BYTES, 2 /* MPOL_BIND */, &mask, sizeof(mask) * 8, 0) != 0) {
        std::perror("mbind");
        std::exit(1);
    }
    std::memset(p, 1, BYTES);
    CK(cudaHostRegister(p, BYTES, cudaHostRegisterDefault));
    return static_cast<char*>(p);
}

double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
    const int iters = argc > 1 ? std::atoi(argv[1]) : 200;
    const int node = argc > 2 ? std::atoi(argv[2]) : -1;
    char* host_in = host_block(node);
    char* host_out = host_block(node);
    std::memset(host_in, 1, BYTES);
    std::memset(host_out, 2, BYTES);
    char *dev_in = nullptr, *dev_out = nullptr;
    CK(cudaMalloc(&dev_in, BYTES));
    CK(cudaMalloc(&dev_out, BYTES));
    CK(cudaMemset(dev_out, 3, BYTES));
    cudaStream_t s[STREAMS];
    for (auto& x : s) CK(cudaStreamCreateWithFlags(&x, cudaStreamNonBlocking));
    auto pass = [&](bool in, bool out) {
        const auto t0 = std::chrono::steady_clock::now();
        for (int k = 0; k < TILES; ++k) {
            const std::size_t at = static_cast<std::size_t>(k) * TILE;
            if (in) CK(cudaMemcpyAsync(dev_in + at, host_in + at, TILE, cudaMemcpyHostToDevice, s[k % STREAMS]));
            if (out) CK(cudaMemcpyAsync(host_out + at, dev_out + at, TILE, cudaMemcpyDeviceToHost, s[k % STREAMS]));
        }
        CK(cudaDeviceSynchronize());
        return ms_since(t0);
    };
    std::printf("%d tiles of %zu MiB each way, %d streams, host memory %s\n", TILES, TILE >> 20, STREAMS,
                node < 0 ? "cudaMallocHost" : ("bound to node " + std::to_string(node) + ", registered").c_str());
    for (const char* what : {"both", "in", "out"}) {
        const bool in = what[0] != 'o', out = what[0] != 'i';
        std::vector<double> t;
        for (int i = 0; i < iters; ++i) t.push_back(pass(in, out));
        std::printf("%-4s iterations (ms):", what);
        for (double x : t) std::printf(" %.2f", x);
        std::vector<double> sorted = t;
        std::sort(sorted.begin(), sorted.end());
        std::printf("\n%-4s min %.3f p10 %.3f median %.3f p90 %.3f max %.3f\n", what, sorted.front(),
                    sorted[sorted.size() / 10], sorted[sorted.size() / 2], sorted[sorted.size() * 9 / 10], sorted.back());
    }
    return 0;
}
