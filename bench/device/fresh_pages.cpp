// fresh_pages.cpp — how fast the library's unpacking writes a tile stream into
// an output array whose pages the program never touched (malloc'd, the
// emitted program's first call), and what helps: the pages faulted in by the
// copies themselves (what staged runs did before), made present first with
// MADV_POPULATE_WRITE over the same threads (all first: what the library
// does, prefault_writable; or each thread its share of each tile just before
// copying it), or asked for as transparent huge pages
// (MADV_HUGEPAGE) with and without populating, against the same copies
// into pages already present (the floor). The copies are the library's own
// (detail/host_copy.cuh's copy_segments), one call per tile, as unpacking runs.
// Prints the host's THP settings, then one line per threads/mode:
// `threads T mode M gbs G (runs ...)`, each a fresh array per run.
//   g++ -O2 -std=c++17 -pthread -x c++ -Ilibrary/include bench/device/fresh_pages.cpp -o fresh_pages
//   [TILE_MIB=16] ./fresh_pages [GiB=1] [threads...]
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "recipe/detail/host_copy.cuh"

namespace {

using Clock = std::chrono::steady_clock;
// One tile's bytes: TILE_MIB (default 16; emboss's tiles are 12.2 MiB, smooth's 4).
const std::size_t kTile = (std::getenv("TILE_MIB") ? std::strtoul(std::getenv("TILE_MIB"), nullptr, 10) : 16) << 20;

std::string first_line(const char* path) {
    std::ifstream f(path);
    std::string s;
    std::getline(f, s);
    return s.empty() ? "(unreadable)" : s;
}

enum class Mode { Faulted, Populate, PopulatePerTile, Huge, HugePopulate, Present };
// Each thread its share of each tile: populated, then copied (the variant
// the library tried and left: no faster than faulting with 4 MiB tiles).
void populate_then_copy_tile(char* dst, const char* src, std::size_t n, recipe::detail::CopyThreads& threads) {
    threads.run([&](int i, int t) {
        const std::size_t from = n * static_cast<std::size_t>(i) / static_cast<std::size_t>(t);
        const std::size_t to = n * static_cast<std::size_t>(i + 1) / static_cast<std::size_t>(t);
        recipe::detail::populate_write(dst + from, dst + to);
        std::memcpy(dst + from, src + from, to - from);
    });
}
const char* name(Mode m) {
    switch (m) {
        case Mode::Faulted: return "faulted-by-copies";
        case Mode::Populate: return "populate-then-copy";
        case Mode::PopulatePerTile: return "populate-per-tile";
        case Mode::Huge: return "hugepage-faulted";
        case Mode::HugePopulate: return "hugepage-populate";
        case Mode::Present: return "pages-present";
    }
    return "?";
}

// Seconds to fill `bytes` of a freshly malloc'd array tile by tile from a
// source that stays hot (the staging buffer's role), the preparation included.
double one_run(std::size_t bytes, Mode mode, const std::vector<char>& source,
               recipe::detail::CopyThreads& threads) {
    char* dst = static_cast<char*>(std::malloc(bytes));  // mmap'd by glibc: fresh pages
    if (!dst) {
        std::perror("malloc");
        std::exit(1);
    }
    if (mode == Mode::Present) std::memset(dst, 1, bytes);
    const auto t0 = Clock::now();
    if (mode == Mode::Huge || mode == Mode::HugePopulate)
        madvise(reinterpret_cast<void*>(reinterpret_cast<std::uintptr_t>(dst) / 4096 * 4096), bytes + 4096, MADV_HUGEPAGE);
    if (mode == Mode::Populate || mode == Mode::HugePopulate)
        if (!recipe::detail::prefault_writable(dst, bytes, threads)) std::fprintf(stderr, "populate refused\n");
    for (std::size_t at = 0; at < bytes; at += kTile) {
        const std::size_t n = std::min(kTile, bytes - at);
        if (mode == Mode::PopulatePerTile) populate_then_copy_tile(dst + at, source.data(), n, threads);
        else recipe::detail::copy_segments({{dst + at, source.data(), n}}, threads);
    }
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    volatile char keep = dst[bytes / 2];
    (void)keep;
    std::free(dst);
    return s;
}

}  // namespace

int main(int argc, char** argv) {
    const std::size_t gib = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 1;
    std::vector<int> counts;
    for (int i = 2; i < argc; ++i) counts.push_back(std::atoi(argv[i]));
    if (counts.empty()) counts = {1, 6, 8, 12};
    std::printf("thp enabled: %s\n", first_line("/sys/kernel/mm/transparent_hugepage/enabled").c_str());
    std::printf("thp defrag: %s\n", first_line("/sys/kernel/mm/transparent_hugepage/defrag").c_str());
    std::printf("tile: %zu MiB\n", kTile >> 20);
    const std::size_t bytes = gib << 30;
    std::vector<char> source(kTile, 7);
    for (int t : counts) {
        recipe::detail::CopyThreads threads(t);
        for (Mode m : {Mode::Present, Mode::Faulted, Mode::Populate, Mode::PopulatePerTile, Mode::Huge, Mode::HugePopulate}) {
            std::vector<double> gbs;
            for (int r = 0; r < 5; ++r) gbs.push_back(static_cast<double>(bytes) / one_run(bytes, m, source, threads) / 1e9);
            std::vector<double> sorted = gbs;
            std::sort(sorted.begin(), sorted.end());
            std::printf("threads %d mode %s gbs %.1f (runs", t, name(m), sorted[sorted.size() / 2]);
            for (double g : gbs) std::printf(" %.1f", g);
            std::printf(")\n");
            std::fflush(stdout);
        }
        threads.park();
    }
}
