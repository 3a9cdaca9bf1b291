// pack_probe.cu — which host copy keeps a staged pipeline at the link's
// pace: the same pipeline as staged_floor.cu (8 MiB chunks, 4 page-locked
// buffers, 8 threads), its chunks packed and unpacked four ways: memcpy or
// the library's streaming stores (detail/host_copy.cuh's stream_copy), on
// OpenMP threads or the library's CopyThreads. Also each way alone, without
// the DMA. Median of 5 after one discarded, ms.
//   nvcc -O2 -arch=native -Xcompiler -fopenmp -Ilibrary/include bench/region/pack_probe.cu -o pack_probe
//   pack_probe [BYTES_IN BYTES_OUT]   (default 134217728 67108864: stencil7's region)
#include <cuda_runtime.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

#include "recipe/detail/host_copy.cuh"

namespace {

constexpr int kThreads = 8, kBuffers = 4;
constexpr std::size_t kChunk = std::size_t(8) << 20;

double now_ms() {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

using Copy = std::function<void(char*, const char*, std::size_t)>;

recipe::detail::CopyThreads& lib_threads() {
    static recipe::detail::CopyThreads t(kThreads);
    return t;
}

void omp_share(char* dst, const char* src, std::size_t bytes, bool stream) {
#pragma omp parallel num_threads(kThreads)
    {
        const int i = omp_get_thread_num(), n = omp_get_num_threads();
        const std::size_t share = ((bytes / n) + 4095) & ~std::size_t(4095);
        const std::size_t b = std::min(bytes, share * i), e = std::min(bytes, b + share);
        if (e > b) {
            if (stream) {
                recipe::detail::stream_copy(dst + b, src + b, e - b);
                recipe::detail::stream_fence();
            } else {
                std::memcpy(dst + b, src + b, e - b);
            }
        }
    }
}

void lib_share(char* dst, const char* src, std::size_t bytes, bool stream) {
    if (stream) {
        recipe::detail::copy_segments({recipe::detail::Segment{dst, src, bytes}}, lib_threads());
        return;
    }
    lib_threads().run([&](int i, int n) {
        const std::size_t share = ((bytes / n) + 4095) & ~std::size_t(4095);
        const std::size_t b = std::min(bytes, share * i), e = std::min(bytes, b + share);
        if (e > b) std::memcpy(dst + b, src + b, e - b);
    });
}

struct Pipe {
    char* pinned[kBuffers];
    cudaStream_t stream[kBuffers];
    cudaEvent_t done[kBuffers];
};

double in_ms(char* dev, const char* host, std::size_t bytes, Pipe& p, const Copy& copy, bool dma) {
    const double t0 = now_ms();
    const std::size_t chunks = (bytes + kChunk - 1) / kChunk;
    for (std::size_t c = 0; c < chunks; ++c) {
        const int b = static_cast<int>(c % kBuffers);
        const std::size_t off = c * kChunk, len = std::min(kChunk, bytes - off);
        if (dma && c >= kBuffers) cudaEventSynchronize(p.done[b]);
        copy(p.pinned[b], host + off, len);
        if (dma) {
            cudaMemcpyAsync(dev + off, p.pinned[b], len, cudaMemcpyHostToDevice, p.stream[b]);
            cudaEventRecord(p.done[b], p.stream[b]);
        }
    }
    cudaDeviceSynchronize();
    return now_ms() - t0;
}

double out_ms(char* host, const char* dev, std::size_t bytes, Pipe& p, const Copy& copy, bool dma) {
    const double t0 = now_ms();
    const std::size_t chunks = (bytes + kChunk - 1) / kChunk;
    auto issue = [&](std::size_t c) {
        const int b = static_cast<int>(c % kBuffers);
        const std::size_t off = c * kChunk, len = std::min(kChunk, bytes - off);
        cudaMemcpyAsync(p.pinned[b], dev + off, len, cudaMemcpyDeviceToHost, p.stream[b]);
        cudaEventRecord(p.done[b], p.stream[b]);
    };
    if (dma)
        for (std::size_t c = 0; c < chunks && c < kBuffers; ++c) issue(c);
    for (std::size_t c = 0; c < chunks; ++c) {
        const int b = static_cast<int>(c % kBuffers);
        const std::size_t off = c * kChunk, len = std::min(kChunk, bytes - off);
        if (dma) cudaEventSynchronize(p.done[b]);
        copy(host + off, p.pinned[b], len);
        if (dma && c + kBuffers < chunks) issue(c + kBuffers);
    }
    cudaDeviceSynchronize();
    return now_ms() - t0;
}

template <class F>
double median5(F&& f) {
    f();
    std::vector<double> t;
    for (int i = 0; i < 5; ++i) t.push_back(f());
    std::sort(t.begin(), t.end());
    return t[2];
}

}  // namespace

int main(int argc, char** argv) {
    const std::size_t in = argc > 2 ? std::strtoull(argv[1], nullptr, 10) : std::size_t(134217728);
    const std::size_t out = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : std::size_t(67108864);
    const std::size_t n = std::max(in, out);
    char* host = static_cast<char*>(std::aligned_alloc(4096, (n + 4095) & ~std::size_t(4095)));
    char* dev = nullptr;
    if (!host || cudaMalloc(&dev, n) != cudaSuccess) return 1;
    std::memset(host, 1, n);
    Pipe p;
    for (int b = 0; b < kBuffers; ++b) {
        cudaMallocHost(&p.pinned[b], kChunk);
        std::memset(p.pinned[b], 0, kChunk);
        cudaStreamCreateWithFlags(&p.stream[b], cudaStreamNonBlocking);
        cudaEventCreateWithFlags(&p.done[b], cudaEventDisableTiming);
    }
    struct Way {
        const char* name;
        Copy copy;
    };
    const Way ways[] = {
        {"openmp memcpy", [](char* d, const char* s, std::size_t b) { omp_share(d, s, b, false); }},
        {"openmp stream_copy", [](char* d, const char* s, std::size_t b) { omp_share(d, s, b, true); }},
        {"CopyThreads memcpy", [](char* d, const char* s, std::size_t b) { lib_share(d, s, b, false); }},
        {"CopyThreads copy_segments", [](char* d, const char* s, std::size_t b) { lib_share(d, s, b, true); }},
    };
    std::printf("%zu bytes in, %zu out; %d threads, %zu MiB chunks, %d buffers (ms)\n", in, out, kThreads, kChunk >> 20, kBuffers);
    std::printf("%-28s %10s %10s %10s %10s\n", "copy", "in", "out", "pack only", "unpack only");
    for (const Way& w : ways) {
        const double i = median5([&] { return in_ms(dev, host, in, p, w.copy, true); });
        const double o = median5([&] { return out_ms(host, dev, out, p, w.copy, true); });
        const double pi = median5([&] { return in_ms(dev, host, in, p, w.copy, false); });
        const double po = median5([&] { return out_ms(host, dev, out, p, w.copy, false); });
        std::printf("%-28s %10.3f %10.3f %10.3f %10.3f\n", w.name, i, o, pi, po);
    }
    return 0;
}
