// warm_probe.cu — is a staged region's copy in slow because it is the
// process's first pass over the arrays, or every time? stencil7's region
// (two 512x512x64 float grids, malloc'd, chunks of 8 planes over 4 streams,
// staged; one launch copying the first grid's interior into the second)
// runs REPS times in one process, each time as recipe::Region; between
// them, the raw staged pipeline of staged_floor.cu moves the same bytes (8
// MiB chunks, 8 OpenMP threads, 4 page-locked buffers: its best found on
// H200 hosts). Each pass is timed alone; the first of each kind is the cold
// one a program pays. Prints one line per pass:
//   region REP total_ms h2d_ms staging_ms d2h_ms     raw REP in_ms out_ms
//   nvcc -O2 -std=c++17 -arch=native -Xcompiler -fopenmp -I library/include bench/region/warm_probe.cu -o warm_probe
//   ./warm_probe [REPS (5)] [raw-first]
#include <cuda_runtime.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "recipe/recipe.cuh"

namespace {

constexpr std::int64_t kX = 512, kY = 512, kZ = 64, kPoints = kX * kY * kZ;
constexpr std::size_t kChunk = std::size_t(8) << 20;
constexpr int kBuffers = 4;
#define WARM_PROBE_THREADS 8  // OpenMP threads of the raw pipeline (a macro: num_threads takes it)

static recipe::EarlyStart early(recipe::PoolSize{2 * kPoints * 4, 64 << 20, 4, 0});

__global__ void copy_interior(recipe::Tile t, recipe::InView<float> a, recipe::OutView<float> b) {
    const std::int64_t x = t.x(), y = t.y(), z = t.z();
    if (!t.contains(x, y, z)) return;
    b(x, y, z) = a(x, y, z);
}

void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) {
        std::fprintf(stderr, "warm_probe: %s: %s\n", what, cudaGetErrorString(e));
        std::exit(1);
    }
}

double now_ms() {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void parallel_copy(char* dst, const char* src, std::size_t bytes) {
#pragma omp parallel num_threads(WARM_PROBE_THREADS)
    {
        const int i = omp_get_thread_num(), n = omp_get_num_threads();
        const std::size_t share = ((bytes / n) + 4095) & ~std::size_t(4095);
        const std::size_t begin = std::min(bytes, share * i), end = std::min(bytes, begin + share);
        if (end > begin) std::memcpy(dst + begin, src + begin, end - begin);
    }
}

struct Raw {
    char* pinned[kBuffers];
    cudaStream_t stream[kBuffers];
    cudaEvent_t done[kBuffers];
    char* dev = nullptr;
};

// Arrays `a` then `b` in, then `b` out, chunk by chunk through the buffers.
void raw_pass(Raw& r, const char* a, char* b, double* in_ms, double* out_ms) {
    const std::size_t bytes = kPoints * 4;
    double t0 = now_ms();
    std::size_t c = 0;
    for (const char* host : {a, static_cast<const char*>(b)})
        for (std::size_t off = 0; off < bytes; off += kChunk, ++c) {
            const int k = static_cast<int>(c % kBuffers);
            if (c >= kBuffers) check(cudaEventSynchronize(r.done[k]), "event");
            parallel_copy(r.pinned[k], host + off, std::min(kChunk, bytes - off));
            check(cudaMemcpyAsync(r.dev + (host == a ? 0 : bytes) + off, r.pinned[k], std::min(kChunk, bytes - off),
                                  cudaMemcpyHostToDevice, r.stream[k]),
                  "copy in");
            check(cudaEventRecord(r.done[k], r.stream[k]), "event");
        }
    check(cudaDeviceSynchronize(), "sync");
    *in_ms = now_ms() - t0;
    t0 = now_ms();
    const std::size_t chunks = (bytes + kChunk - 1) / kChunk;
    auto issue = [&](std::size_t k) {
        const int s = static_cast<int>(k % kBuffers);
        check(cudaMemcpyAsync(r.pinned[s], r.dev + bytes + k * kChunk, std::min(kChunk, bytes - k * kChunk),
                              cudaMemcpyDeviceToHost, r.stream[s]),
              "copy out");
        check(cudaEventRecord(r.done[s], r.stream[s]), "event");
    };
    for (std::size_t k = 0; k < chunks && k < kBuffers; ++k) issue(k);
    for (std::size_t k = 0; k < chunks; ++k) {
        const int s = static_cast<int>(k % kBuffers);
        check(cudaEventSynchronize(r.done[s]), "event");
        parallel_copy(b + k * kChunk, r.pinned[s], std::min(kChunk, bytes - k * kChunk));
        if (k + kBuffers < chunks) issue(k + kBuffers);
    }
    *out_ms = now_ms() - t0;
}

recipe::Measured region_pass(float* a, float* b) {
    recipe::Config rc;
    rc.extents = {kX, kY, kZ};
    rc.tile = {kX, kY, 8};
    rc.streams = 4;
    rc.host = recipe::HostMemory::Staged;
    rc.name = "warm_probe region";
    recipe::Config nest;
    nest.extents = rc.extents;
    nest.space = {{1, 1, 1}, {kX - 1, kY - 1, kZ - 1}};
    nest.block = dim3(256, 1, 1);
    nest.name = "copy_interior";
    recipe::Region region(rc, recipe::resident(a, true, false), recipe::resident(b));
    region.run(nest, copy_interior, recipe::inputs(recipe::input(static_cast<const float*>(a))), recipe::outputs(recipe::output(b)));
    return region.finish();
}

}  // namespace

int main(int argc, char** argv) {
    const int reps = argc > 1 ? std::atoi(argv[1]) : 5;
    const bool raw_first = argc > 2 && std::string(argv[2]) == "raw-first";
    auto* a = static_cast<float*>(std::malloc(kPoints * 4));
    auto* b = static_cast<float*>(std::malloc(kPoints * 4));
    for (std::int64_t i = 0; i < kPoints; ++i) a[i] = b[i] = static_cast<float>(i % 101) / 101.0f;  // pages present
    Raw r;
    check(cudaMalloc(&r.dev, 2 * kPoints * 4), "cudaMalloc");
    for (int k = 0; k < kBuffers; ++k) {
        check(cudaMallocHost(&r.pinned[k], kChunk), "cudaMallocHost");
        std::memset(r.pinned[k], 0, kChunk);
        check(cudaStreamCreateWithFlags(&r.stream[k], cudaStreamNonBlocking), "stream");
        check(cudaEventCreateWithFlags(&r.done[k], cudaEventDisableTiming), "event");
    }
    for (int rep = 0; rep < reps; ++rep)
        for (int turn = 0; turn < 2; ++turn) {
            if ((turn == 0) == raw_first) {
                double in = 0, out = 0;
                raw_pass(r, reinterpret_cast<const char*>(a), reinterpret_cast<char*>(b), &in, &out);
                std::printf("raw %d %.3f %.3f\n", rep, in, out);
            } else {
                const recipe::Measured m = region_pass(a, b);
                std::printf("region %d %.3f %.3f %.3f %.3f\n", rep, m.total, m.h2d, m.staging, m.d2h);
            }
            std::fflush(stdout);
        }
    return 0;
}
