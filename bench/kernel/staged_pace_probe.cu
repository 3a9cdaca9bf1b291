// staged_pace_probe.cu — is a staged run's time per tile what the profile's
// stagingTile tables say? recipe-profile measures it by differencing runs of
// n and n/2 tiles over the same arrays (tools/profiler/library_costs.cuh,
// steady_tile_ns); the GPU benchmark times whole runs of the moving average
// (64 Mi floats) after writing the output array, and on one H200 host its
// staged plans ran 10-26% slower than the tables price (docs/results-h200.md,
// run E). For each stream count and tile this prints, per tile:
//   diff      the profiler's figure (runs of TILES and TILES/2 differenced)
//   whole     a whole run of 64 Mi floats over its tiles, median of 7, warm
//   memset    the same, the output written by one thread (memset) before each
//             run, as the benchmark does
//   written   the same, the input written by one thread before each run, as a
//             program's initialisation leaves it
// and the phases of one measured run (staging, copies). A tool for
// understanding, not a test.
//   nvcc -O2 -std=c++17 -arch=native -I library/include -I tools/profiler \
//        bench/kernel/staged_pace_probe.cu -o /tmp/spp && /tmp/spp [THREADS]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "library_costs.cuh"

namespace {

constexpr std::int64_t kN = std::int64_t(64) << 20;  // floats: the benchmark's moving average

double median7(const std::function<void()>& before, const recipe::Config& c, const float* in, float* out) {
    std::vector<double> t;
    for (int r = 0; r < 7; ++r) {
        before();
        t.push_back(profiler::detail::run_1d(c, in, out).total * 1e6);
    }
    std::sort(t.begin(), t.end());
    return t[3];
}

}  // namespace

int main(int argc, char** argv) {
    const int threads = argc > 1 ? std::atoi(argv[1]) : 0;
    // The profiler's layout: one pageable block, the output 512 MiB past the input.
    char* block = static_cast<char*>(std::malloc(std::size_t(1) << 30));
    if (!block) return 1;
    std::memset(block, 1, std::size_t(1) << 30);
    float* in = reinterpret_cast<float*>(block);
    float* out = reinterpret_cast<float*>(block + (std::size_t(512) << 20));
    std::printf("streams\ttile_bytes\tdiff_us\twhole_us\tmemset_us\twritten_us\tstaging_ms\th2d_ms\td2h_ms\ttotal_ms\n");
    for (std::int64_t tile : {std::int64_t(1) << 20, std::int64_t(1) << 22}) {
        const std::int64_t tiles = kN / tile;
        for (int streams : {2, 3, 4}) {
            const double diff = profiler::detail::steady_tile_ns(5, tile, std::min<std::int64_t>(64, tiles), streams,
                                                                 recipe::HostMemory::Staged, in, out, threads);
            recipe::Config c = profiler::detail::config_1d(kN, tile, streams, recipe::HostMemory::Staged);
            c.measure = false;
            c.host_threads = threads;
            profiler::detail::run_1d(c, in, out);
            const double whole = median7([] {}, c, in, out);
            const double memset = median7([&] { std::memset(out, 0xff, kN * sizeof(float)); }, c, in, out);
            const double written = median7([&] { profiler::detail::write_as_program(const_cast<float*>(in), kN); }, c,
                                           in, out);
            recipe::Config m = c;
            m.measure = true;
            const recipe::Measured ph = profiler::detail::run_1d(m, in, out);
            std::printf("%d\t%lld\t%.1f\t%.1f\t%.1f\t%.1f\t%.3f\t%.3f\t%.3f\t%.3f\n", streams,
                        static_cast<long long>(tile * 4), diff / 1e3, whole / tiles / 1e3, memset / tiles / 1e3,
                        written / tiles / 1e3, ph.staging, ph.h2d, ph.d2h, ph.total);
            std::fflush(stdout);
        }
    }
    std::free(block);
    return 0;
}
