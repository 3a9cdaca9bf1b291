// chunk_probe.cu — what a staged recipe::Region's copies cost per chunk, by
// chunk size, stream count and direction, with the host's packing time
// beside the copy engine's. Regions copy their arrays in chunks of whole
// rows (advisor/region.cpp, region_chunk); this says which chunk and how
// many streams the library's region copies run fastest with, and what a
// chunk costs, for the model to price (docs/model.md, "Regions").
//
// For each case: regions of n and n/2 chunks of one array of floats,
// differenced (setup, fill and drain cancel), medians of REPS; "in" copies
// the array in (no launch, nothing out), "out" runs one launch that writes
// nothing and copies the array out (nothing in). The host arrays are
// pageable and touched beforehand (warm pages, as a region's arrays are once
// the program wrote them). One line per case:
//   dir chunk_MiB streams ns_per_chunk GBs staging_ns_per_chunk dma_ns_per_chunk
// (GBs: every array's piece of a chunk counted)
//
// build: nvcc -O3 -std=c++17 -arch=native -Ilibrary/include bench/region/chunk_probe.cu -o chunk_probe
// usage: chunk_probe [TOTAL_MiB=512] [REPS=7] [ARRAYS=1]
// ARRAYS=2: two arrays move each way, each chunk holding a piece of both
// (chunk_MiB is each array's piece; TOTAL_MiB each array's size).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "recipe/recipe.cuh"
#include "../../tools/profiler/library_costs.cuh"

namespace {

__global__ void untouched(recipe::Tile, recipe::InView<float>, recipe::OutView<float>) {}

struct Once {
    double ns = 0, staging_ms = 0, dma_ms = 0;
};

Once region_once(std::int64_t n, std::int64_t chunk, int streams, bool copy_in, float* in, float* out, int arrays) {
    recipe::Config c = profiler::detail::region_config(n, chunk, streams, 0);  // as recipe-profile's regionChunk*
    c.measure = true;
    c.name = "chunk probe";
    const auto t0 = std::chrono::steady_clock::now();
    recipe::Measured m;
    float* in2 = in + n;  // a second array, right after the first (ARRAYS=2)
    float* out2 = out + n;
    if (copy_in && arrays == 2) {
        recipe::Region r(c, recipe::resident(in, true, false), recipe::resident(in2, true, false));
        m = r.finish();
    } else if (copy_in) {
        recipe::Region r(c, recipe::resident(in, true, false));
        m = r.finish();
    } else if (arrays == 2) {
        recipe::Region r(c, recipe::resident(in, false, false), recipe::resident(out, false, true),
                         recipe::resident(out2, false, true));
        recipe::Config nest = c;
        nest.block = dim3(256, 1, 1);
        r.run(nest, untouched, recipe::inputs(recipe::input(in)), recipe::outputs(recipe::output(out)));
        r.run(nest, untouched, recipe::inputs(recipe::input(in)), recipe::outputs(recipe::output(out2)));
        m = r.finish();
    } else {
        recipe::Region r(c, recipe::resident(in, false, false), recipe::resident(out, false, true));
        recipe::Config nest = c;
        nest.block = dim3(256, 1, 1);
        r.run(nest, untouched, recipe::inputs(recipe::input(in)), recipe::outputs(recipe::output(out)));
        m = r.finish();
    }
    Once o;
    o.ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
    o.staging_ms = m.staging;
    o.dma_ms = copy_in ? m.h2d : m.d2h;
    return o;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    const std::int64_t total_mib = argc > 1 ? std::atoll(argv[1]) : 512;
    const int reps = argc > 2 ? std::atoi(argv[2]) : 7;
    const int arrays = argc > 3 ? std::atoi(argv[3]) : 1;
    const std::int64_t total = total_mib << 20;
    std::vector<float> in(static_cast<std::size_t>(2 * total / 4)), out(static_cast<std::size_t>(2 * total / 4));
    std::memset(in.data(), 1, static_cast<std::size_t>(2 * total));
    std::memset(out.data(), 2, static_cast<std::size_t>(2 * total));
    std::printf("# dir chunk_MiB streams ns_per_chunk GBs staging_ns_per_chunk dma_ns_per_chunk\n");
    for (int dir = 0; dir < 2; ++dir)
        for (std::int64_t mib : {1, 2, 4, 8, 16, 32, 64})
            for (int streams : {2, 3, 4}) {
                const std::int64_t chunk = (mib << 20) / 4;
                const std::int64_t chunks = std::min<std::int64_t>(128, total / (mib << 20));
                if (chunks < 4) continue;
                region_once(chunks * chunk, chunk, streams, dir == 0, in.data(), out.data(), arrays);  // warm the pool
                std::vector<double> a, b, st, dm;
                for (int r = 0; r < reps; ++r) {
                    const Once half = region_once(chunks / 2 * chunk, chunk, streams, dir == 0, in.data(), out.data(), arrays);
                    const Once whole = region_once(chunks * chunk, chunk, streams, dir == 0, in.data(), out.data(), arrays);
                    a.push_back(half.ns);
                    b.push_back(whole.ns);
                    st.push_back(whole.staging_ms * 1e6 / static_cast<double>(chunks));
                    dm.push_back(whole.dma_ms * 1e6 / static_cast<double>(chunks));
                }
                const double per = (median(b) - median(a)) / static_cast<double>(chunks - chunks / 2);
                std::printf("%s %lld %d %.0f %.2f %.0f %.0f\n", dir == 0 ? "in" : "out", static_cast<long long>(mib),
                            streams, per, static_cast<double>(arrays * (mib << 20)) / per, median(st), median(dm));
                std::fflush(stdout);
            }
    return 0;
}
