// The staging threads' copies (library/include/recipe/detail/host_copy.cuh):
// plain C++, so they are tested here without a GPU.
#include "recipe/detail/host_copy.cuh"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <ctime>
#include <thread>
#include <vector>

using recipe::detail::CopyThreads;
using recipe::detail::Segment;

namespace {

std::vector<char> pattern(std::size_t n, unsigned seed) {
    std::vector<char> v(n);
    std::uint32_t x = seed * 2654435761u + 1;
    for (auto& c : v) {
        x = x * 1664525u + 1013904223u;
        c = static_cast<char>(x >> 24);
    }
    return v;
}

}  // namespace

TEST_CASE("streaming copies move every byte whatever the alignment and length", "[library]") {
    const std::vector<char> src = pattern((1 << 20) + 200, 1);
    for (std::size_t dst_off : {0, 1, 7, 15, 16, 33, 48, 63})
        for (std::size_t src_off : {0, 3, 16})
            for (std::size_t n : {0, 1, 15, 16, 63, 64, 65, 127, 128, 191, 1000, 4096 + 17, (1 << 20) + 5}) {
                std::vector<char> dst(n + 64, 'x');
                recipe::detail::stream_copy(dst.data() + dst_off % 64, src.data() + src_off, n);
                recipe::detail::stream_fence();
                INFO("dst+" << dst_off << " src+" << src_off << " n=" << n);
                CHECK(std::equal(dst.begin() + dst_off % 64, dst.begin() + dst_off % 64 + n, src.begin() + src_off));
                // nothing written outside [dst, dst + n)
                for (std::size_t i = 0; i < dst_off % 64; ++i) CHECK(dst[i] == 'x');
                for (std::size_t i = dst_off % 64 + n; i < dst.size(); ++i) CHECK(dst[i] == 'x');
            }
}

TEST_CASE("a tile's rows are copied exactly by several threads, small and large jobs", "[library]") {
    CopyThreads threads(4);
    // Rows of a 2-D box: jobs under 1 MiB stay on one thread with memcpy;
    // larger ones are split over the threads, rows of 4 KiB and more
    // streamed, shorter ones with memcpy.
    for (std::size_t row : {std::size_t(8), std::size_t(100), std::size_t(4096 + 3), std::size_t(8000), std::size_t(3) << 20}) {
        for (std::size_t rows : {std::size_t(37), std::size_t(300), std::size_t(20000)}) {
            if (row * rows > (std::size_t(128) << 20)) continue;  // keep the test quick
            const std::size_t pitch = row + 11;
            const std::vector<char> host = pattern(rows * pitch, 2);
            std::vector<char> stage(rows * row + 1, 'x');
            std::vector<Segment> segments;
            for (std::size_t r = 0; r < rows; ++r)
                segments.push_back(Segment{stage.data() + r * row, host.data() + r * pitch, row});
            recipe::detail::copy_segments(segments, threads);
            INFO("row " << row << " x " << rows);
            bool same = true;
            for (std::size_t r = 0; r < rows; ++r)
                same = same && std::equal(stage.begin() + static_cast<std::ptrdiff_t>(r * row),
                                          stage.begin() + static_cast<std::ptrdiff_t>((r + 1) * row),
                                          host.begin() + static_cast<std::ptrdiff_t>(r * pitch));
            CHECK(same);
            CHECK(stage.back() == 'x');
        }
    }
}

TEST_CASE("long rows and many short rows in one job are each shared out and copied exactly", "[library]") {
    // A region's chunk: one grid's whole planes (long rows) beside another
    // grid's frame (thousands of 8-byte rows), in either order, with jobs
    // large enough to be split over every thread and small enough for one.
    for (int threads_n : {1, 3, 8})
        for (std::size_t planes : {std::size_t(1), std::size_t(8)})
            for (bool frame_first : {false, true}) {
                CopyThreads threads(threads_n);
                const std::size_t plane = std::size_t(256) << 10, rows = 2000 * planes, pitch = 2048;
                const std::vector<char> grid = pattern(planes * plane, 7), other = pattern(rows * pitch, 8);
                std::vector<char> stage(planes * plane + rows * 8 + 1, 'x');
                std::vector<Segment> long_rows, short_rows, segments;
                for (std::size_t z = 0; z < planes; ++z)
                    long_rows.push_back(Segment{stage.data() + z * plane, grid.data() + z * plane, plane});
                for (std::size_t r = 0; r < rows; ++r)
                    short_rows.push_back(Segment{stage.data() + planes * plane + r * 8, other.data() + r * pitch + 2040, 8});
                for (auto* part : frame_first ? std::vector<std::vector<Segment>*>{&short_rows, &long_rows}
                                              : std::vector<std::vector<Segment>*>{&long_rows, &short_rows})
                    segments.insert(segments.end(), part->begin(), part->end());
                recipe::detail::copy_segments(segments, threads);
                INFO(threads_n << " threads, " << planes << " planes, frame " << (frame_first ? "first" : "last"));
                CHECK(std::equal(grid.begin(), grid.end(), stage.begin()));
                bool same = true;
                for (std::size_t r = 0; r < rows; ++r)
                    same = same && std::equal(other.begin() + static_cast<std::ptrdiff_t>(r * pitch + 2040),
                                              other.begin() + static_cast<std::ptrdiff_t>(r * pitch + 2048),
                                              stage.begin() + static_cast<std::ptrdiff_t>(planes * plane + r * 8));
                CHECK(same);
                CHECK(stage.back() == 'x');
            }
}

TEST_CASE("staging threads use no CPU before their first run and once parked", "[library]") {
    // The process's CPU time over a pause: spinning workers would add
    // about the pause per worker (3 x 150 ms); asleep, next to nothing.
    auto cpu_ms_over_pause = [] {
        const std::clock_t c0 = std::clock();
        std::this_thread::sleep_for(std::chrono::milliseconds(150));
        return 1000.0 * static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
    };
    CopyThreads threads(4);
    CHECK(cpu_ms_over_pause() < 60.0);  // born parked: start.cuh makes them long before the first run
    std::atomic<int> ran{0};
    threads.run([&](int, int) { ran.fetch_add(1); });
    CHECK(ran.load() == 4);
    threads.park();
    CHECK(cpu_ms_over_pause() < 60.0);
    threads.run([&](int, int) { ran.fetch_add(1); });  // woken again
    CHECK(ran.load() == 8);
}

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>

namespace {

// Pages of [p, p + bytes) resident in memory (mincore), p page-aligned.
std::size_t resident_pages(char* p, std::size_t bytes) {
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    std::vector<unsigned char> v((bytes + page - 1) / page);
    if (mincore(p, bytes, v.data()) != 0) return 0;
    std::size_t n = 0;
    for (unsigned char c : v) n += c & 1;
    return n;
}

}  // namespace

TEST_CASE("pages made writable before a run are present and keep every byte", "[library]") {
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    const std::size_t pages = 64, bytes = pages * page;
    char* p = static_cast<char*>(mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    REQUIRE(p != MAP_FAILED);
    // Some points written (a nest initialised on part of a calloc'd grid), the rest never touched.
    for (std::size_t i = 0; i < bytes; i += 3 * page + 17) p[i] = static_cast<char>(1 + i % 101);
    const std::size_t before = resident_pages(p, bytes);
    CHECK(before < pages);
    CopyThreads threads(3);
    // An unaligned range: its first and last pages are rounded out.
    const bool supported = recipe::detail::prefault_writable(p + 100, bytes - 200, threads);
    if (supported) CHECK(resident_pages(p, bytes) == pages);
    else WARN("this kernel cannot populate pages (MADV_POPULATE_WRITE): the run's copies fault them as before");
    for (std::size_t i = 0; i < bytes; ++i) {
        const char want = i % (3 * page + 17) == 0 ? static_cast<char>(1 + i % 101) : 0;
        if (p[i] != want) FAIL("byte " << i << " changed: " << int(p[i]) << " for " << int(want));
    }
    munmap(p, bytes);
}

TEST_CASE("an output's fresh pages made writable, then unpacked, hold exactly the tile's rows", "[library]") {
    // A first call's malloc'd output whose pages the program never touched:
    // the run makes the range writable, then unpacks a strided tile's rows
    // into it. Every row lands, the gaps between rows keep their (zero)
    // bytes, and every page of the range is present, those no row writes too.
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    const std::size_t pitch = 3 * page + 40, row = 2 * page + 8, rows = 300, bytes = rows * pitch + page;
    char* p = static_cast<char*>(mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    REQUIRE(p != MAP_FAILED);
    const std::vector<char> stage = pattern(rows * row, 5);
    std::vector<Segment> segments;
    for (std::size_t r = 0; r < rows; ++r) segments.push_back(Segment{p + 7 + r * pitch, stage.data() + r * row, row});
    CopyThreads threads(3);
    const std::size_t span = 7 + (rows - 1) * pitch + row;
    const bool supported = recipe::detail::prefault_writable(p + 7, span - 7, threads);
    recipe::detail::copy_segments(segments, threads);
    for (std::size_t i = 0; i < bytes; ++i) {
        const std::size_t at = i < 7 ? pitch : (i - 7) % pitch, r = i < 7 ? rows : (i - 7) / pitch;
        const char want = r < rows && at < row ? stage[r * row + at] : 0;
        if (p[i] != want) FAIL("byte " << i << ": " << int(p[i]) << " for " << int(want));
    }
    // Each gap holds a whole page no row writes: present only if made writable.
    const std::size_t span_pages = (span + page - 1) / page;
    if (supported) CHECK(resident_pages(p, span_pages * page) == span_pages);
    else WARN("this kernel cannot populate pages (MADV_POPULATE_WRITE): the unpacking faults them as before");
    munmap(p, bytes);
}
#endif

TEST_CASE("a range made writable once is not walked again by later runs", "[library]") {
    recipe::detail::WritableSpans spans;
    std::vector<char> a(1 << 16);
    CHECK_FALSE(spans.contains(a.data(), a.size()));
    spans.add(a.data(), a.size());
    CHECK(spans.contains(a.data(), a.size()));
    CHECK(spans.contains(a.data() + 100, 1000));            // a slab of it
    CHECK_FALSE(spans.contains(a.data() + 100, a.size()));  // reaching past it
    spans.add(a.data() + 10, 10);                           // inside: nothing new
    CHECK(spans.size() == 1);
}

TEST_CASE("slabs made writable by several GPUs' runs cover a range across them", "[library]") {
    // A nest over 4 GPUs leaves 4 slabs, in any order; a later run's range
    // that crosses slab edges (a GPU's slab plus its neighbours' halo rows)
    // is covered by them together, a range reaching past them is not.
    recipe::detail::WritableSpans spans;
    std::vector<char> a(4000);
    for (int g : {2, 0, 3, 1}) spans.add(a.data() + 1000 * g, 1000);
    CHECK(spans.size() == 1);
    CHECK(spans.contains(a.data() + 900, 1200));
    CHECK(spans.contains(a.data(), a.size()));
    CHECK_FALSE(spans.contains(a.data() + 3900, 200));
    // Overlapping ranges merge too; disjoint ones stay apart.
    std::vector<char> b(1000);
    spans.add(b.data() + 100, 300);
    spans.add(b.data() + 350, 100);
    spans.add(b.data() + 600, 100);
    CHECK(spans.contains(b.data() + 100, 350));
    CHECK_FALSE(spans.contains(b.data() + 100, 600));
    // Bounded: at most 64 disjoint ranges kept, the last one added among them.
    recipe::detail::WritableSpans many;
    std::vector<char> c(200 * 32);
    for (int i = 0; i < 200; ++i) many.add(c.data() + 32 * i, 16);
    CHECK(many.size() == 64);
    CHECK(many.contains(c.data() + 32 * 199, 16));
    CHECK_FALSE(many.contains(c.data(), 16));
}

TEST_CASE("a chunk's frame packed as the region packs it: the boxes' rows joined where they continue, every point in its place", "[library]") {
    // A 3-D chunk of int32 whose interior the region writes first: its frame
    // is six boxes (recipe::boxes_outside); the last point of each interior
    // row and the first of the next continue each other in both memories.
    const recipe::Index3 ext{16, 6, 5};
    const recipe::Box chunk{{0, 0, 0}, ext}, inner{{1, 1, 1}, {15, 5, 4}};
    const std::size_t n = static_cast<std::size_t>(chunk.count());
    std::vector<std::int32_t> host(n);
    for (std::size_t i = 0; i < n; ++i) host[i] = static_cast<std::int32_t>(i * 7 + 1);
    std::vector<std::int32_t> stage(n, -1);
    const recipe::DeviceLayout packed{chunk.begin, chunk.extents()};
    std::vector<Segment> segments;
    std::vector<std::size_t> runs;
    for (const recipe::Box& part : recipe::boxes_outside(chunk, inner)) {
        runs.push_back(segments.size());
        for (const recipe::Copy& c : recipe::copies_for(part, ext, packed, 4, recipe::CopyMethod::Merged))
            recipe::detail::append_segments(c, reinterpret_cast<char*>(host.data()), reinterpret_cast<char*>(stage.data()),
                                            true, &segments);
    }
    const std::size_t before = segments.size();
    recipe::detail::join_segments(&segments, runs);
    // The frame's maximal runs of consecutive points, counted point by point.
    std::vector<bool> frame(n);
    std::size_t expected_runs = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const std::int64_t x = static_cast<std::int64_t>(i) % ext[0], y = static_cast<std::int64_t>(i) / ext[0] % ext[1],
                           z = static_cast<std::int64_t>(i) / (ext[0] * ext[1]);
        frame[i] = !(x >= inner.begin[0] && x < inner.end[0] && y >= inner.begin[1] && y < inner.end[1] &&
                     z >= inner.begin[2] && z < inner.end[2]);
        if (frame[i] && (i == 0 || !frame[i - 1])) ++expected_runs;
    }
    CHECK(segments.size() == expected_runs);
    CHECK(recipe::runs_outside(chunk, inner, ext) == static_cast<std::int64_t>(expected_runs));  // as the model counts them
    CHECK(segments.size() < before);
    for (std::size_t i = 1; i < segments.size(); ++i) CHECK(segments[i - 1].src < segments[i].src);
    CopyThreads threads(3);
    recipe::detail::copy_segments(segments, threads);
    for (std::size_t i = 0; i < n; ++i) {
        INFO("point " << i);
        CHECK(stage[i] == (frame[i] ? host[i] : -1));  // the interior's staging bytes are left as they were
    }
}
