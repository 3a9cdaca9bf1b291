// link_bench.cu — the costs under a pipeline that the model prices, each
// measured alone on the GPU it runs on, to find where a run loses time
// against the bound max(H2D, D2H, kernel). (The copies alone and both ways
// at once are pipeline_bench --bounds, per experiment; its raw-CUDA pipeline
// floor is pipeline_bench --floor, raw_floor.cuh.)
//
//   pack       host copies pageable <-> pinned of 256 MiB with 1..16
//              threads, plain memcpy and the library's streaming stores, alone and
//              while the copy engines move data both ways
//   block      the ways to get a pinned staging block of 16 and 64 MiB
//   setup      the library's own setup and teardown (recipe::run's alloc
//              phase) for 1, 3, 16 and 65 streams, pinned and staged
//
//   link_bench            prints one table per part (TSV-like, '#' headers)
#include <cuda_runtime.h>
#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <thread>
#include <vector>

#include <recipe/recipe.cuh>

#include "../../tools/profiler/sample_kernels.cuh"

namespace {

using Clock = std::chrono::steady_clock;

void ck(cudaError_t e, const char* what) {
    if (e != cudaSuccess) {
        std::fprintf(stderr, "link_bench: %s: %s\n", what, cudaGetErrorString(e));
        std::exit(3);
    }
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

double ms_of(const std::function<void()>& f) {
    const auto t0 = Clock::now();
    f();
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

double median_ms(int reps, const std::function<void()>& f) {
    std::vector<double> t;
    f();
    for (int r = 0; r < reps; ++r) t.push_back(ms_of(f));
    return median(t);
}

constexpr std::size_t kMiB = std::size_t(1) << 20;

// ---- host copies
// Copies n bytes on `threads` threads in 4 MiB tiles (a staged tile's size),
// each tile split over the threads as the library does.
void parallel_copy(char* dst, const char* src, std::size_t n, int threads, bool nt) {
    recipe::detail::CopyThreads pool(threads);
    const std::size_t tile = 4 * kMiB;
    for (std::size_t at = 0; at < n; at += tile) {
        const std::size_t len = std::min(tile, n - at);
        pool.run([&](int i, int k) {
            const std::size_t step = (len / k + 4095) / 4096 * 4096;
            const std::size_t from = std::min(len, step * i), to = std::min(len, from + step);
            if (from < to) {
                if (nt) {
                    recipe::detail::stream_copy(dst + at + from, src + at + from, to - from);
                    recipe::detail::stream_fence();
                } else
                    std::memcpy(dst + at + from, src + at + from, to - from);
            }
        });
    }
}

}  // namespace

int main() {
    const std::size_t big = 256 * kMiB;
    char *pin_a, *pin_b, *pin_c, *pin_d, *dev_a, *dev_b;
    ck(cudaMallocHost(&pin_a, big), "cudaMallocHost");
    ck(cudaMallocHost(&pin_b, big), "cudaMallocHost");
    ck(cudaMallocHost(&pin_c, big), "cudaMallocHost");
    ck(cudaMallocHost(&pin_d, big), "cudaMallocHost");
    char* page_a = static_cast<char*>(std::malloc(big));
    char* page_b = static_cast<char*>(std::malloc(big));
    std::memset(pin_a, 1, big);
    std::memset(pin_b, 2, big);
    std::memset(pin_c, 3, big);
    std::memset(pin_d, 4, big);
    std::memset(page_a, 5, big);
    std::memset(page_b, 6, big);
    ck(cudaMalloc(&dev_a, big), "cudaMalloc");
    ck(cudaMalloc(&dev_b, big), "cudaMalloc");
    cudaStream_t s[3];
    for (auto& x : s) ck(cudaStreamCreateWithFlags(&x, cudaStreamNonBlocking), "stream");

    // ---- pack: host copies while the copy engines run both ways (or not)
    std::printf("# pack: 256 MiB in 4 MiB tiles, GB/s (median of 3); dma = both directions busy meanwhile\n"
                "# direction\tthreads\tstores\tdma\tGB/s\n");
    {
        std::atomic<bool> stop{false};
        for (int dma : {0, 1}) {
            std::thread traffic;
            if (dma)
                traffic = std::thread([&] {
                    while (!stop.load()) {
                        ck(cudaMemcpyAsync(dev_a, pin_c, 64 * kMiB, cudaMemcpyHostToDevice, s[0]), "h2d");
                        ck(cudaMemcpyAsync(pin_d, dev_b, 64 * kMiB, cudaMemcpyDeviceToHost, s[1]), "d2h");
                        ck(cudaStreamSynchronize(s[0]), "sync");
                        ck(cudaStreamSynchronize(s[1]), "sync");
                    }
                });
            if (dma) std::this_thread::sleep_for(std::chrono::milliseconds(20));
            for (int dir = 0; dir < 2; ++dir)
                for (int threads : {1, 4, 8, 12, 16})
                    for (int nt : {0, 1}) {
                        char* dst = dir == 0 ? pin_a : page_b;
                        const char* src = dir == 0 ? page_a : pin_a;
                        const double ms = median_ms(3, [&] { parallel_copy(dst, src, big, threads, nt); });
                        std::printf("%s\t%d\t%s\t%d\t%.1f\n", dir == 0 ? "pageable->pinned" : "pinned->pageable", threads,
                                    nt ? "stream" : "memcpy", dma, big / ms / 1e6);
                        std::fflush(stdout);
                    }
            stop.store(true);
            if (traffic.joinable()) traffic.join();
            stop.store(false);
        }
    }

    // ---- block: a pinned staging block
    std::printf("# block: get and release a pinned staging block, host ms (median of 5, fresh memory each time)\n"
                "# MiB\tway\tms\n");
    for (std::size_t mib : {16, 64}) {
        const std::size_t bytes = mib * kMiB;
        auto ways = std::vector<std::pair<const char*, std::function<void()>>>{
            {"register-untouched", [&] {
                 void* p = std::aligned_alloc(4096, bytes);
                 ck(cudaHostRegister(p, bytes, cudaHostRegisterDefault), "register");
                 ck(cudaHostUnregister(p), "unregister");
                 std::free(p);
             }},
            {"touch1-register", [&] {
                 char* p = static_cast<char*>(std::aligned_alloc(4096, bytes));
                 for (std::size_t i = 0; i < bytes; i += 4096) p[i] = 0;
                 ck(cudaHostRegister(p, bytes, cudaHostRegisterDefault), "register");
                 ck(cudaHostUnregister(p), "unregister");
                 std::free(p);
             }},
            {"touch8-register", [&] {
                 recipe::detail::CopyThreads pool(8);
                 char* p = static_cast<char*>(std::aligned_alloc(4096, bytes));
                 recipe::detail::touch_pages(p, bytes, pool);
                 ck(cudaHostRegister(p, bytes, cudaHostRegisterDefault), "register");
                 ck(cudaHostUnregister(p), "unregister");
                 std::free(p);
             }},
            {"huge-touch8-register (library)", [&] {
                 recipe::detail::CopyThreads pool(8);
                 recipe::detail::PinnedBlock b;
                 auto where = [] { return std::string("link_bench"); };
                 b.allocate(bytes, where, [&](char* p, std::size_t n) { recipe::detail::touch_pages(p, n, pool); });
                 b.release(where);
             }},
            {"threads8-only", [&] { recipe::detail::CopyThreads pool(8); }},
            {"cudaHostAlloc", [&] {
                 void* p = nullptr;
                 ck(cudaHostAlloc(&p, bytes, cudaHostAllocDefault), "cudaHostAlloc");
                 ck(cudaFreeHost(p), "cudaFreeHost");
             }},
        };
        for (auto& [name, f] : ways) std::printf("%zu\t%s\t%.3f\n", mib, name, median_ms(5, f));
        std::fflush(stdout);
    }

    // ---- setup: the library's alloc phase
    std::printf("# setup: recipe::run alloc phase (setup + teardown), moving average 1 Mi floats, tile 64 Ki, "
                "ms (median of 5)\n# host\tstreams\talloc_ms\ttotal_ms\n");
    {
        const std::int64_t n = 1 << 20;
        float* in = reinterpret_cast<float*>(pin_c);
        float* out = reinterpret_cast<float*>(pin_d);
        float* pin = reinterpret_cast<float*>(page_a);
        float* pout = reinterpret_cast<float*>(page_b);
        for (int staged : {0, 1})
            for (int streams : {1, 3, 16, 65}) {
                recipe::Config c;
                c.scheme = recipe::Scheme::Scalable;
                c.extents = {n, 1, 1};
                c.space = recipe::Box{{4, 0, 0}, {n - 4, 1, 1}};
                c.tile = {n / 16 > 65536 ? 65536 : n / 16, 1, 1};
                c.copy = recipe::CopyMethod::Merged;
                c.streams = streams;
                c.block = dim3(256, 1, 1);
                c.host = staged ? recipe::HostMemory::Staged : recipe::HostMemory::Pinned;
                c.measure = true;
                std::vector<double> alloc, total;
                for (int r = 0; r < 6; ++r) {
                    const recipe::Measured m = recipe::run(
                        c, samples::moving_average,
                        recipe::inputs(recipe::input(staged ? pin : in, recipe::Halo{{4, 0, 0}, {4, 0, 0}})),
                        recipe::outputs(recipe::output(staged ? pout : out)), 4, 1);
                    if (r) {
                        alloc.push_back(m.alloc);
                        total.push_back(m.total);
                    }
                }
                std::printf("%s\t%d\t%.3f\t%.3f\n", staged ? "staged" : "pinned", streams, median(alloc), median(total));
                std::fflush(stdout);
            }
    }
    return 0;
}
