// first_pass_probe.cu — does a program's single pass of a staged region cost
// what the profile's region tables say? recipe-profile's regionChunkIn/Out
// were a steady pace: regions of n and n/2 chunks over the same array,
// differenced (now they are measured over freshly written arrays, with the
// pass's own part beside them, region_chunk_pace). A
// program runs its region once, over arrays its host code has just written.
// This probe, in one fresh process with the pool reserved at start-up as an
// emitted program does, times single regions of one array of floats (chunks
// of CHUNK_MiB over STREAMS streams, the library's own thread count) of
// 4, 8, 16 and 32 chunks, each over a slice of host memory written by one
// thread just before ("fresh"), then the same sizes again over one slice
// used over and over ("same"), each direction; then the profile's own
// differenced pace for the same chunk and streams. Fitting pass = fixed +
// chunks × pace to each set says whether a single pass pays a fixed cost
// the steady pace leaves out, a slower pace, or both. One line per pass:
//   pass DIR MODE CHUNKS ORDINAL ms
// then, per direction and mode, the least-squares fit:
//   fit DIR MODE fixed_ms pace_us_per_chunk
// and the profile's figures (recipe-profile's regionPass* and regionChunk*,
// tools/profiler/library_costs.cuh, region_chunk_pace):
//   profile DIR pass_ms pace_us_per_chunk
//   nvcc -O2 -std=c++17 -arch=native -I library/include bench/region/first_pass_probe.cu -o first_pass_probe
//   ./first_pass_probe [CHUNK_MiB (8)] [STREAMS (4)] [REPS (3)]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "recipe/recipe.cuh"
#include "../../tools/profiler/library_costs.cuh"

namespace {

constexpr std::int64_t kMostChunks = 32;

// What an emitted program reserves at start-up for a region of this size.
static recipe::EarlyStart early(recipe::PoolSize{2 * (std::int64_t(512) << 20), 64 << 20, 5, 0});

void write_slice(float* p, std::int64_t n, int salt) {
    for (std::int64_t i = 0; i < n; ++i) p[i] = static_cast<float>((i + salt) % 101) / 101.0f;
}

struct Fit {
    double fixed_ms = 0, pace_us = 0;
};

Fit fit(const std::vector<std::pair<double, double>>& xy) {  // (chunks, ms)
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (const auto& [x, y] : xy) {
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
    }
    const double n = static_cast<double>(xy.size()), b = (n * sxy - sx * sy) / (n * sxx - sx * sx);
    return {(sy - b * sx) / n, b * 1e3};
}

}  // namespace

int main(int argc, char** argv) {
    const std::int64_t chunk_mib = argc > 1 ? std::atoll(argv[1]) : 8;
    const int streams = argc > 2 ? std::atoi(argv[2]) : 4;
    const int reps = argc > 3 ? std::atoi(argv[3]) : 3;
    const std::int64_t chunk = (chunk_mib << 20) / 4, most = kMostChunks * chunk;
    // Fresh slices: one per pass, each written just before its pass.
    const int slices = 2 * reps * 4 + 1;
    std::vector<float*> slice(static_cast<std::size_t>(slices));
    for (float*& p : slice) {
        p = static_cast<float*>(std::malloc(static_cast<std::size_t>(most) * 4));
        if (!p) {
            std::fprintf(stderr, "first_pass_probe: out of host memory\n");
            return 1;
        }
    }
    float* same = slice.back();
    float* out_same = static_cast<float*>(std::malloc(static_cast<std::size_t>(most) * 4));
    write_slice(same, most, 0);
    write_slice(out_same, most, 1);
    std::printf("# pass DIR MODE CHUNKS ORDINAL ms; chunks of %lld MiB over %d streams\n", static_cast<long long>(chunk_mib),
                streams);
    int used = 0, ordinal = 0;
    for (const char* mode : {"fresh", "same"})
        for (int dir = 0; dir < 2; ++dir) {
            std::vector<std::pair<double, double>> points;
            for (int r = 0; r < reps; ++r)
                for (std::int64_t chunks : {4, 8, 16, 32}) {
                    float* p = same;
                    if (std::string(mode) == "fresh") {
                        p = slice[static_cast<std::size_t>(used++ % (slices - 1))];
                        write_slice(p, chunks * chunk, r);
                    }
                    const double ns = profiler::detail::region_once(chunks * chunk, chunk, streams, dir == 0,
                                                                    dir == 0 ? p : out_same, dir == 0 ? out_same : p, 0);
                    points.emplace_back(static_cast<double>(chunks), ns * 1e-6);
                    std::printf("pass %s %s %lld %d %.3f\n", dir == 0 ? "in" : "out", mode, static_cast<long long>(chunks),
                                ordinal++, ns * 1e-6);
                    std::fflush(stdout);
                }
            const Fit f = fit(points);
            std::printf("fit %s %s %.3f %.1f\n", dir == 0 ? "in" : "out", mode, f.fixed_ms, f.pace_us);
        }
    for (int dir = 0; dir < 2; ++dir) {
        const profiler::detail::RegionPace p =
            profiler::detail::region_chunk_pace(5, chunk, kMostChunks, streams, dir == 0, same, out_same, 0);
        std::printf("profile %s %.3f %.1f\n", dir == 0 ? "in" : "out", p.pass_ns * 1e-6, p.chunk_ns * 1e-3);
    }
    return 0;
}
