// strided_probe.cu — what a 3-D strided copy out costs on the link, against
// a contiguous copy of the same bytes, alone and beside copies in: the
// copies of the GPU benchmark's Jacobi sweep (400^3 floats, tiles of 398 x
// 398 x 13 interior points copied out with one cudaMemcpy3DAsync each, rows
// of 1592 bytes at a 1600-byte pitch; inputs of 400 x 400 x 15 planes copied
// in whole), issued round-robin on 3 streams as the library issues a basic
// run's tiles. The model prices a strided copy as the contiguous one plus
// stridedCopy's per-row cost, measured with 2-D copies of 800-byte rows.
// Each copy is timed on 1 and on 3 streams, as one 3-D copy, one 2-D copy
// per plane, and one contiguous copy, out and in: which of the 3-D copy and
// several streams at once makes the cost.
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

// How a tile's interior box moves: one 3-D copy (as the library issues
// it), one 2-D copy per plane, or one contiguous copy of the same bytes.
enum class Shape { Box3d, Plane2d, Contiguous };

// The interior box of tile t between dev and host, in either direction.
void interior(const Buffers& b, int t, cudaStream_t s, Shape shape, bool out) {
    int z0, z1;
    planes(t, &z0, &z1);
    const std::size_t pitch = N * sizeof(float);
    float* dev = out ? b.dev_out : b.dev_in;
    float* host = out ? b.host_out : b.host_in;
    const cudaMemcpyKind kind = out ? cudaMemcpyDeviceToHost : cudaMemcpyHostToDevice;
    if (shape == Shape::Contiguous) {
        const std::size_t bytes = static_cast<std::size_t>(N - 2) * (N - 2) * (z1 - z0) * sizeof(float);
        const std::size_t at = static_cast<std::size_t>(z0) * N * N;
        CK(cudaMemcpyAsync(out ? host + at : dev + at, out ? dev + at : host + at, bytes, kind, s));
        return;
    }
    if (shape == Shape::Plane2d) {
        for (int z = z0; z < z1; ++z) {
            const std::size_t at = static_cast<std::size_t>(z) * N * N + N + 1;
            CK(cudaMemcpy2DAsync(out ? host + at : dev + at, pitch, out ? dev + at : host + at, pitch,
                                 (N - 2) * sizeof(float), N - 2, kind, s));
        }
        return;
    }
    cudaMemcpy3DParms p{};
    p.srcPtr = make_cudaPitchedPtr(out ? dev : host, pitch, N, N);
    p.dstPtr = make_cudaPitchedPtr(out ? host : dev, pitch, N, N);
    p.srcPos = p.dstPos = make_cudaPos(sizeof(float), 1, static_cast<std::size_t>(z0));
    p.extent = make_cudaExtent((N - 2) * sizeof(float), N - 2, static_cast<std::size_t>(z1 - z0));
    p.kind = kind;
    CK(cudaMemcpy3DAsync(&p, s));
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
    // The copies out (or in) of every tile, round-robin on `streams`
    // streams, with or without the copies in on their own streams beside.
    auto run = [&](Shape shape, bool out, int streams, bool with_in) {
        return median_ms([&] {
            for (int t = 0; t < TILES; ++t) {
                if (with_in) whole_in(b, t, b.stream[STREAMS + t % STREAMS]);
                interior(b, t, b.stream[t % streams], shape, out);
            }
        });
    };
    const double in_alone = median_ms([&] {
        for (int t = 0; t < TILES; ++t) whole_in(b, t, b.stream[STREAMS + t % STREAMS]);
    });
    const double box_bytes = static_cast<double>(N - 2) * (N - 2) * (N - 2) * sizeof(float);
    const double rows = static_cast<double>(N - 2) * (N - 2);
    std::printf("%d tiles of 398 x 398 x %d; ms, GB/s, and ns per row beyond the contiguous copy; median of 7\n", TILES, TZ);
    std::printf("copies in alone (whole planes with halo, %d streams)  %.3f\n", STREAMS, in_alone);
    const char* names[] = {"3-D box", "2-D per plane", "contiguous"};
    for (bool out : {true, false})
        for (bool with_in : {false, true}) {
            if (with_in && !out) continue;
            for (int streams : {1, STREAMS}) {
                const double contiguous = run(Shape::Contiguous, out, streams, with_in);
                for (Shape shape : {Shape::Contiguous, Shape::Box3d, Shape::Plane2d}) {
                    const double ms = shape == Shape::Contiguous ? contiguous : run(shape, out, streams, with_in);
                    std::printf("%-3s %-14s %d stream(s)%-20s %8.3f ms %6.1f GB/s %6.2f ns/row\n", out ? "out" : "in",
                                names[static_cast<int>(shape)], streams, with_in ? ", copies in beside" : "", ms,
                                box_bytes / ms * 1e-6, (ms - contiguous) * 1e6 / rows);
                }
            }
        }

    // Beyond the Jacobi tiles: 8 copies of 16 MiB each way on two streams,
    // one direction strided (rows of w bytes at a pitch of w rounded up to
    // 64 plus 64, starting `skew` bytes in, on the host side, the device
    // side or both) and the other direction contiguous, against both
    // contiguous: whether the extra of a strided copy beside the other
    // direction follows its rows, its bytes, or the rows' alignment in
    // host memory.
    {
        constexpr std::size_t COPY = 16u << 20, COPIES = 8;
        std::printf("\n%zu copies of %zu MiB each way; ms, and ns per row beyond contiguous beside the other direction\n",
                    COPIES, COPY >> 20);
        std::printf("%-4s %-7s %6s %5s %10s %10s %10s %10s %9s\n", "dir", "pitched", "row B", "skew", "contig", "strided",
                    "both cont", "both str", "beside/row");
        struct Case { bool out; int pitched; std::size_t w, skew; };  // pitched: 1 host, 2 device, 3 both
        const Case cases[] = {{true, 3, 768, 0},  {true, 3, 800, 0},  {true, 3, 1536, 0}, {true, 3, 1592, 4},
                              {true, 3, 1600, 0}, {true, 3, 1536, 4}, {true, 3, 4096, 0}, {true, 3, 4100, 0},
                              {true, 1, 1592, 4}, {true, 2, 1592, 4}, {false, 3, 1592, 4}, {false, 3, 800, 0}};
        for (const Case& k : cases) {
            const std::size_t pitch = (k.w + 63) / 64 * 64 + 64, rows = COPY / k.w;
            const std::size_t hpitch = k.pitched & 1 ? pitch : k.w, dpitch = k.pitched & 2 ? pitch : k.w;
            auto copies = [&](bool strided, bool other) {
                return median_ms([&] {
                    for (std::size_t c = 0; c < COPIES; ++c) {
                        char* dev = reinterpret_cast<char*>(k.out ? b.dev_out : b.dev_in) + c * rows * dpitch + k.skew;
                        char* host = reinterpret_cast<char*>(k.out ? b.host_out : b.host_in) + c * rows * hpitch + k.skew;
                        const cudaMemcpyKind kind = k.out ? cudaMemcpyDeviceToHost : cudaMemcpyHostToDevice;
                        if (strided)
                            CK(cudaMemcpy2DAsync(k.out ? host : dev, k.out ? hpitch : dpitch, k.out ? dev : host,
                                                 k.out ? dpitch : hpitch, k.w, rows, kind, b.stream[0]));
                        else
                            CK(cudaMemcpyAsync(k.out ? host : dev, k.out ? dev : host, rows * k.w, kind, b.stream[0]));
                        if (other) {
                            char* d2 = reinterpret_cast<char*>(k.out ? b.dev_in : b.dev_out) + c * COPY;
                            char* h2 = reinterpret_cast<char*>(k.out ? b.host_in : b.host_out) + c * COPY;
                            CK(cudaMemcpyAsync(k.out ? d2 : h2, k.out ? h2 : d2, COPY,
                                               k.out ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost, b.stream[1]));
                        }
                    }
                });
            };
            const double contig = copies(false, false), strided = copies(true, false);
            const double both_contig = copies(false, true), both_strided = copies(true, true);
            const char* side[] = {"", "host", "device", "both"};
            std::printf("%-4s %-7s %6zu %5zu %10.3f %10.3f %10.3f %10.3f %9.2f\n", k.out ? "out" : "in", side[k.pitched], k.w,
                        k.skew, contig, strided, both_contig, both_strided,
                        (both_strided - both_contig) * 1e6 / static_cast<double>(rows * COPIES));
        }
    }
    return 0;
}
