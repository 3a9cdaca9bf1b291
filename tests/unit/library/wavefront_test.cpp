// The order a region's launches run in when pipelined with its copies
// (library/include/recipe/wavefront.h): random regions run piece by piece as
// the chunks land must compute what the program order computes, and every
// chunk copied out early must already hold its final values.
#include "recipe/wavefront.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <vector>

using recipe::LaunchRows;
using recipe::Piece;
using recipe::RowReach;
using recipe::Wavefront;

namespace {

using Arrays = std::vector<std::vector<std::int64_t>>;

// Rows [b, e) of launch l: each written row gets a mix of the rows it reads,
// all read from the arrays as they were before the rows were computed (a
// GPU launch: no row sees another row's write of the same launch). A whole
// launch reads every row of what it reads.
void run_rows(const LaunchRows& l, std::size_t id, std::int64_t b, std::int64_t e, Arrays* a) {
    const Arrays before = *a;
    const std::int64_t rows = static_cast<std::int64_t>(before[0].size());
    for (std::int64_t q = b; q < e; ++q) {
        std::int64_t v = static_cast<std::int64_t>(id) * 1000003 + q;
        for (const RowReach& r : l.reads) {
            const std::int64_t lo = l.whole ? 0 : q - r.lo, hi = l.whole ? rows - 1 : q + r.hi;
            for (std::int64_t x = std::max<std::int64_t>(0, lo); x <= std::min(rows - 1, hi); ++x)
                v = v * 31 + before[static_cast<std::size_t>(r.array)][static_cast<std::size_t>(x)];
        }
        for (int w : l.writes) (*a)[static_cast<std::size_t>(w)][static_cast<std::size_t>(q)] = v;
    }
}

struct Region {
    std::int64_t rows = 0;
    int arrays = 0;
    std::vector<LaunchRows> launches;
    Arrays host;
};

Region random_region(std::mt19937& rng) {
    Region r;
    r.rows = std::uniform_int_distribution<std::int64_t>(1, 40)(rng);
    r.arrays = std::uniform_int_distribution<int>(1, 4)(rng);
    const int n = std::uniform_int_distribution<int>(0, 12)(rng);
    std::uniform_int_distribution<int> pick(0, r.arrays - 1), reach(0, 3), coin(0, 9);
    for (int i = 0; i < n; ++i) {
        LaunchRows l;
        l.begin = std::uniform_int_distribution<std::int64_t>(0, r.rows)(rng);
        l.end = std::uniform_int_distribution<std::int64_t>(l.begin, r.rows)(rng);
        if (coin(rng) < 3 && l.begin > 0) l.begin = std::uniform_int_distribution<std::int64_t>(0, 2)(rng);  // interiors
        l.whole = coin(rng) == 0;
        l.writes.push_back(pick(rng));
        if (coin(rng) < 2) {
            const int w = pick(rng);
            if (w != l.writes[0]) l.writes.push_back(w);
        }
        const int reads = std::uniform_int_distribution<int>(0, 3)(rng);
        for (int k = 0; k < reads; ++k) {
            RowReach rr{pick(rng), reach(rng), reach(rng)};
            bool dup = false;
            for (const RowReach& o : l.reads) dup = dup || o.array == rr.array;
            if (dup) continue;
            // Written in place only at its own row, as a GPU launch may.
            for (int w : l.writes)
                if (w == rr.array) rr.lo = rr.hi = 0;
            l.reads.push_back(rr);
        }
        r.launches.push_back(l);
    }
    r.host.assign(static_cast<std::size_t>(r.arrays), std::vector<std::int64_t>(static_cast<std::size_t>(r.rows)));
    for (auto& v : r.host)
        for (auto& x : v) x = std::uniform_int_distribution<std::int64_t>(1, 1 << 20)(rng);
    return r;
}

// Runs the region the way the library does with `pipelined` launches cut,
// chunks of `chunk` rows: what each chunk copied out holds, per array.
Arrays run_pipelined(const Region& r, std::int64_t chunk, std::size_t pipelined, const std::vector<bool>& out,
                     Arrays* device_after) {
    const std::int64_t kUnset = -7;
    Arrays device(r.host.size(), std::vector<std::int64_t>(static_cast<std::size_t>(r.rows), kUnset));
    Wavefront wf(r.launches, r.rows);
    const auto issue = [&](const std::vector<Piece>& pieces) {
        for (const Piece& p : pieces) {
            const LaunchRows& l = r.launches[p.launch];
            if (p.whole) REQUIRE((p.begin == l.begin && p.end == l.end));
            run_rows(l, p.launch, p.begin, p.end, &device);
        }
    };
    for (std::int64_t at = 0; at < r.rows; at += chunk) {
        const std::int64_t end = std::min(r.rows, at + chunk);
        for (std::size_t a = 0; a < r.host.size(); ++a)
            for (std::int64_t q = at; q < end; ++q)
                device[a][static_cast<std::size_t>(q)] = r.host[a][static_cast<std::size_t>(q)];
        if (end < r.rows) issue(wf.advance(end, pipelined));  // the last chunk: the copies out's demand, below
    }
    const std::size_t n = r.launches.size();
    issue(wf.complete_before(n > pipelined ? n - pipelined : 0));
    Arrays copied(r.host.size(), std::vector<std::int64_t>(static_cast<std::size_t>(r.rows), kUnset));
    for (std::int64_t at = 0; at < r.rows; at += chunk) {
        const std::int64_t end = std::min(r.rows, at + chunk);
        if (pipelined > 0) issue(wf.until_final(end, out));
        else issue(wf.complete_before(n));
        for (std::size_t a = 0; a < r.host.size(); ++a)
            if (out[a])
                for (std::int64_t q = at; q < end; ++q)
                    copied[a][static_cast<std::size_t>(q)] = device[a][static_cast<std::size_t>(q)];
    }
    issue(wf.complete_before(n));
    for (std::size_t i = 0; i < n; ++i) CHECK(wf.complete(i));
    *device_after = device;
    return copied;
}

}  // namespace

TEST_CASE("launches cut into pieces as chunks land compute what the program order computes", "[library]") {
    std::mt19937 rng(20261129);
    for (int trial = 0; trial < 3000; ++trial) {
        const Region r = random_region(rng);
        Arrays expected = r.host;
        for (std::size_t i = 0; i < r.launches.size(); ++i)
            run_rows(r.launches[i], i, r.launches[i].begin, r.launches[i].end, &expected);
        std::vector<bool> out(r.host.size());
        for (std::size_t a = 0; a < out.size(); ++a) out[a] = (rng() % 3) != 0;
        const std::int64_t chunk = std::uniform_int_distribution<std::int64_t>(1, 12)(rng);
        const std::size_t pipelined = std::uniform_int_distribution<std::size_t>(0, r.launches.size() + 1)(rng);
        INFO("trial " << trial << ": " << r.launches.size() << " launches over " << r.rows << " rows, chunks of " << chunk
                      << ", " << pipelined << " pipelined");
        Arrays device;
        const Arrays copied = run_pipelined(r, chunk, pipelined, out, &device);
        for (std::size_t a = 0; a < out.size(); ++a) {
            if (out[a]) CHECK(copied[a] == expected[a]);
            CHECK(device[a] == expected[a]);
        }
    }
}

TEST_CASE("a 3-D stencil's steps follow the copies in one chunk behind another", "[library]") {
    // stencil7's form: 20 steps of a reach-1 stencil between two grids of 64
    // planes, chunks of 8 planes, the interior written.
    std::vector<LaunchRows> steps;
    for (int t = 0; t < 20; ++t) steps.push_back(LaunchRows{1, 63, {RowReach{t % 2, 1, 1}}, {1 - t % 2}, false});
    Wavefront wf(steps, 64);
    // When the first chunk lands, step 1 runs planes 1-6 (it reads plane 7),
    // step 2 planes 1-5, ..., step 6 plane 1.
    const std::vector<Piece> first = wf.advance(8, steps.size());
    REQUIRE(first.size() == 6);
    for (std::size_t s = 0; s < first.size(); ++s) {
        CHECK(first[s].launch == s);
        CHECK(first[s].begin == 1);
        CHECK(first[s].end == 7 - static_cast<std::int64_t>(s));
    }
    // With all but the last chunk in, step 20 has reached plane 36.
    for (std::int64_t at = 16; at <= 56; at += 8) wf.advance(at, steps.size());
    CHECK(wf.frontier(19) == 36);
    // Only the first three steps may be cut: the others wait for every chunk.
    Wavefront head(steps, 64);
    head.advance(56, 3);
    CHECK(head.frontier(2) == 53);
    CHECK(head.frontier(3) == 1);
    // The last chunk in, then the copies out of the grid step 20 writes: the
    // first four chunks are final already; the fifth needs step 20 up to plane
    // 40, so step 19 up to 41 and so on back to step 1 at 59, and no further.
    std::vector<bool> out{true, false};
    CHECK(wf.until_final(32, out).empty());
    const std::vector<Piece> fifth = wf.until_final(40, out);
    CHECK(wf.frontier(19) == 40);
    CHECK(wf.frontier(18) == 41);
    CHECK(wf.frontier(0) == 59);
    CHECK(fifth.size() == 20);
}
