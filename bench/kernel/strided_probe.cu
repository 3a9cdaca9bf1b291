// strided_probe.cu — what a 3-D strided copy out costs on the link, against
// a contiguous copy of the same bytes, alone and beside copies in: the
// copies of the GPU benchmark's Jacobi sweep (400^3 floats, tiles of 398 x
// 398 x 13 interior points copied out with one cudaMemcpy3DAsync each, rows
// of 1592 bytes at a 1600-byte pitch; inputs of 400 x 400 x 15 planes copied
// in whole), issued round-robin on 3 streams as the library issues a basic
// run's tiles. The model prices a strided copy as the contiguous one plus
// stridedCopy's per-row cost, measured with 2-D copies of 800-byte rows.
//   nvcc -O2 -std=c++17 -arch=sm_90 bench/kernel/strided_probe.cu -o strided_probe && ./strided_probe
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "check.cuh"

namespace {

constexpr int N = 400, TZ = 13, STREAMS = 3;
constexpr int TILES = (N - 2 + TZ - 1) / TZ;

struct Buffers {
    float* host_in = nullptr;   // page-locked, N^3
    float* host_out = nullptr;  // page-locked, N^3
    float* dev_in = nullptr;
    float* dev_out = nullptr;
    cudaStream_t stream[2 * STREAMS];
};

// Tile t's interior planes [z0, z1).
void planes(int t, int* z0, int* z1) {
    *z0 = 1 + t * TZ;
    *z1 = std::min(N - 1, *z0 + TZ);
}

// The interior box of tile t, device to host, one 3-D copy.
void strided_out(const Buffers& b, int t, cudaStream_t s) {
    int z0, z1;
    planes(t, &z0, &z1);
    cudaMemcpy3DParms p{};
    const std::size_t pitch = N * sizeof(float);
    p.srcPtr = make_cudaPitchedPtr(b.dev_out, pitch, N, N);
    p.dstPtr = make_cudaPitchedPtr(b.host_out, pitch, N, N);
    p.srcPos = p.dstPos = make_cudaPos(sizeof(float), 1, static_cast<std::size_t>(z0));
    p.extent = make_cudaExtent((N - 2) * sizeof(float), N - 2, static_cast<std::size_t>(z1 - z0));
    p.kind = cudaMemcpyDeviceToHost;
    CK(cudaMemcpy3DAsync(&p, s));
}

// The same bytes, device to host, one contiguous copy.
void contiguous_out(const Buffers& b, int t, cudaStream_t s) {
    int z0, z1;
    planes(t, &z0, &z1);
    const std::size_t bytes = static_cast<std::size_t>(N - 2) * (N - 2) * (z1 - z0) * sizeof(float);
    const std::size_t at = static_cast<std::size_t>(z0) * N * N;
    CK(cudaMemcpyAsync(b.host_out + at, b.dev_out + at, bytes, cudaMemcpyDeviceToHost, s));
}

// Tile t's input with its halo, whole planes [z0 - 1, z1 + 1), host to device.
void whole_in(const Buffers& b, int t, cudaStream_t s) {
    int z0, z1;
    planes(t, &z0, &z1);
    const std::size_t at = static_cast<std::size_t>(z0 - 1) * N * N;
    const std::size_t bytes = static_cast<std::size_t>(z1 - z0 + 2) * N * N * sizeof(float);
    CK(cudaMemcpyAsync(b.dev_in + at, b.host_in + at, bytes, cudaMemcpyHostToDevice, s));
}

template <class F>
double median_ms(F&& once) {
    once();
    std::vector<double> t;
    for (int r = 0; r < 7; ++r) {
        CK(cudaDeviceSynchronize());
        const auto t0 = std::chrono::steady_clock::now();
        once();
        CK(cudaDeviceSynchronize());
        t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

}  // namespace

int main() {
    Buffers b;
    const std::size_t bytes = static_cast<std::size_t>(N) * N * N * sizeof(float);
    CK(cudaMallocHost(&b.host_in, bytes));
    CK(cudaMallocHost(&b.host_out, bytes));
    CK(cudaMalloc(&b.dev_in, bytes));
    CK(cudaMalloc(&b.dev_out, bytes));
    std::fill(b.host_in, b.host_in + bytes / sizeof(float), 1.0f);
    std::fill(b.host_out, b.host_out + bytes / sizeof(float), 0.0f);
    for (auto& s : b.stream) CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    auto run = [&](bool strided, bool with_in) {
        return median_ms([&] {
            for (int t = 0; t < TILES; ++t) {
                if (with_in) whole_in(b, t, b.stream[STREAMS + t % STREAMS]);
                strided ? strided_out(b, t, b.stream[t % STREAMS]) : contiguous_out(b, t, b.stream[t % STREAMS]);
            }
        });
    };
    const double in_alone = median_ms([&] {
        for (int t = 0; t < TILES; ++t) whole_in(b, t, b.stream[STREAMS + t % STREAMS]);
    });
    const double out_bytes = static_cast<double>(N - 2) * (N - 2) * (N - 2) * sizeof(float);
    std::printf("%d tiles of 398 x 398 x %d, %d streams; ms (GB/s of the copies out), median of 7\n", TILES, TZ, STREAMS);
    std::printf("copies in alone (whole planes with halo)  %.3f\n", in_alone);
    for (bool with_in : {false, true})
        for (bool strided : {false, true}) {
            const double ms = run(strided, with_in);
            std::printf("%-11s out%-22s %.3f (%.1f)\n", strided ? "strided" : "contiguous", with_in ? ", copies in beside" : "",
                        ms, out_bytes / ms * 1e-6);
        }
    return 0;
}
