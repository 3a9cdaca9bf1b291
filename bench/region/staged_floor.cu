// staged_floor.cu — the floor for a region's copies when the program's
// arrays are pageable (malloc'd, their pages present), as most programs'
// are: a page-locked cudaMemcpy (copy_floor.cu) is out of their reach
// without locking the pages first. Two ways to move the bytes, each timed
// whole (wall clock, median of 3 after one discarded), the faster kept:
//  - staged: raw CUDA, OpenMP threads copy each chunk into one of a few
//    page-locked buffers allocated beforehand while the chunks before it
//    cross the bus (out: the reverse); the chunk size, thread count and
//    buffer count found by search;
//  - registered: cudaHostRegister of the array, one cudaMemcpy, unregister.
// Prints "in_ms out_ms how_in how_out", how = "staged:CHUNK_MiB:THREADS:BUFFERS"
// or "registered".
//   staged_floor BYTES_IN BYTES_OUT
#include <cuda_runtime.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr int kMaxBuffers = 4;

void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) {
        std::fprintf(stderr, "staged_floor: %s: %s\n", what, cudaGetErrorString(e));
        std::exit(1);
    }
}

double now_ms() {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// `bytes` from `src` to `dst` over `threads` OpenMP threads, page-aligned shares.
void parallel_copy(char* dst, const char* src, std::size_t bytes, int threads) {
#pragma omp parallel num_threads(threads)
    {
        const int i = omp_get_thread_num(), n = omp_get_num_threads();
        const std::size_t share = ((bytes / n) + 4095) & ~std::size_t(4095);
        const std::size_t begin = std::min(bytes, share * i), end = std::min(bytes, begin + share);
        if (end > begin) std::memcpy(dst + begin, src + begin, end - begin);
    }
}

struct Staging {
    char* pinned[kMaxBuffers];
    cudaStream_t stream[kMaxBuffers];
    cudaEvent_t done[kMaxBuffers];
};

double staged_in(char* dev, const char* host, std::size_t bytes, std::size_t chunk, int threads, int buffers, Staging& s) {
    const double t0 = now_ms();
    const std::size_t chunks = (bytes + chunk - 1) / chunk;
    for (std::size_t c = 0; c < chunks; ++c) {
        const int b = static_cast<int>(c % buffers);
        const std::size_t off = c * chunk, len = std::min(chunk, bytes - off);
        if (c >= static_cast<std::size_t>(buffers)) check(cudaEventSynchronize(s.done[b]), "event");
        parallel_copy(s.pinned[b], host + off, len, threads);
        check(cudaMemcpyAsync(dev + off, s.pinned[b], len, cudaMemcpyHostToDevice, s.stream[b]), "copy in");
        check(cudaEventRecord(s.done[b], s.stream[b]), "event");
    }
    check(cudaDeviceSynchronize(), "sync");
    return now_ms() - t0;
}

double staged_out(char* host, const char* dev, std::size_t bytes, std::size_t chunk, int threads, int buffers, Staging& s) {
    const double t0 = now_ms();
    const std::size_t chunks = (bytes + chunk - 1) / chunk;
    auto issue = [&](std::size_t c) {
        const int b = static_cast<int>(c % buffers);
        const std::size_t off = c * chunk, len = std::min(chunk, bytes - off);
        check(cudaMemcpyAsync(s.pinned[b], dev + off, len, cudaMemcpyDeviceToHost, s.stream[b]), "copy out");
        check(cudaEventRecord(s.done[b], s.stream[b]), "event");
    };
    for (std::size_t c = 0; c < chunks && c < static_cast<std::size_t>(buffers); ++c) issue(c);
    for (std::size_t c = 0; c < chunks; ++c) {
        const int b = static_cast<int>(c % buffers);
        const std::size_t off = c * chunk, len = std::min(chunk, bytes - off);
        check(cudaEventSynchronize(s.done[b]), "event");
        parallel_copy(host + off, s.pinned[b], len, threads);
        if (c + buffers < chunks) issue(c + buffers);
    }
    return now_ms() - t0;
}

double registered(char* host, char* dev, std::size_t bytes, bool in) {
    const double t0 = now_ms();
    check(cudaHostRegister(host, bytes, cudaHostRegisterDefault), "cudaHostRegister");
    check(in ? cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice) : cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost), "copy");
    check(cudaHostUnregister(host), "cudaHostUnregister");
    return now_ms() - t0;
}

template <class F>
double median_of_3(F&& run) {
    run();  // discarded: first touches, lazily made resources
    std::vector<double> t{run(), run(), run()};
    std::sort(t.begin(), t.end());
    return t[1];
}

// The fastest way to move `bytes` one direction: {ms, how}.
std::pair<double, std::string> best(char* host, char* dev, std::size_t bytes, bool in, Staging& s, std::size_t max_chunk) {
    std::pair<double, std::string> b{median_of_3([&] { return registered(host, dev, bytes, in); }), "registered"};
    const int cores = omp_get_num_procs();
    for (std::size_t chunk = std::size_t(2) << 20; chunk <= max_chunk; chunk *= 2) {
        if (chunk > bytes * 2) break;
        for (int threads : {2, 4, 8, 12, 16, 24, 32}) {
            if (threads > cores) break;
            for (int buffers : {2, 3, 4}) {
                const double ms = median_of_3([&] {
                    return in ? staged_in(dev, host, bytes, chunk, threads, buffers, s) : staged_out(host, dev, bytes, chunk, threads, buffers, s);
                });
                if (ms < b.first)
                    b = {ms, "staged:" + std::to_string(chunk >> 20) + ":" + std::to_string(threads) + ":" + std::to_string(buffers)};
            }
        }
    }
    return b;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: staged_floor BYTES_IN BYTES_OUT\n");
        return 2;
    }
    const std::size_t in = std::strtoull(argv[1], nullptr, 10), out = std::strtoull(argv[2], nullptr, 10);
    const std::size_t n = std::max<std::size_t>(4096, std::max(in, out));
    constexpr std::size_t kMaxChunk = std::size_t(32) << 20;
    char* host = static_cast<char*>(std::aligned_alloc(4096, (n + 4095) & ~std::size_t(4095)));
    char* dev = nullptr;
    if (!host || cudaMalloc(&dev, n) != cudaSuccess) {
        std::fprintf(stderr, "staged_floor: allocation of %zu bytes failed\n", n);
        return 1;
    }
    std::memset(host, 1, n);  // pages present, as a program's initialised arrays are
    Staging s;
    for (int b = 0; b < kMaxBuffers; ++b) {
        check(cudaMallocHost(&s.pinned[b], kMaxChunk), "cudaMallocHost");
        std::memset(s.pinned[b], 0, kMaxChunk);
        check(cudaStreamCreateWithFlags(&s.stream[b], cudaStreamNonBlocking), "stream");
        check(cudaEventCreateWithFlags(&s.done[b], cudaEventDisableTiming), "event");
    }
    const auto i = in ? best(host, dev, in, true, s, kMaxChunk) : std::pair<double, std::string>{0, "-"};
    const auto o = out ? best(host, dev, out, false, s, kMaxChunk) : std::pair<double, std::string>{0, "-"};
    std::printf("%.4f %.4f %s %s\n", i.first, o.first, i.second.c_str(), o.second.c_str());
    return 0;
}
