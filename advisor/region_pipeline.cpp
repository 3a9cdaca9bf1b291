// The timeline of a region whose launches are pipelined with its copies
// (recipe/wavefront.h, recipe::Config::pipelined_launches): the same pieces
// in the same order as the library issues them, each placed on the GPU's
// timeline after the chunk it waits for. Formulas: docs/model.md, "Regions".
#include <algorithm>
#include <numeric>

#include "advisor/region.h"

namespace recipe::advisor {

namespace {

int array_index(const RegionProblem& r, const std::string& name) {
    for (std::size_t i = 0; i < r.arrays.size(); ++i)
        if (r.arrays[i].name == name) return static_cast<int>(i);
    return -1;
}

// When each chunk of one direction is done: its share of the direction's
// time, in order (all at the end where no chunk has a share).
std::vector<double> chunk_ends(const detail::RegionCopies& d, std::int64_t chunks) {
    std::vector<double> ends(static_cast<std::size_t>(chunks), d.total_ms);
    const double sum = std::accumulate(d.chunk_ms.begin(), d.chunk_ms.end(), 0.0);
    if (sum <= 0 || static_cast<std::int64_t>(d.chunk_ms.size()) != chunks) return ends;
    double done = 0;
    for (std::size_t k = 0; k < ends.size(); ++k) {
        done += d.chunk_ms[k];
        ends[k] = d.total_ms * done / sum;
    }
    return ends;
}

}  // namespace

std::vector<LaunchRows> detail::region_launch_rows(const RegionProblem& r) {
    const int slow = std::clamp(r.dims - 1, 0, 2);
    // Swapped pointers: which buffer a name holds changes every step. With one
    // nest reading one held array and writing another (the Parboil form), the
    // two trade places each step; any other swap is not followed.
    int swap_a = -1, swap_b = -1;
    if (r.swaps) {
        if (r.nests.size() != 1) return {};
        const Problem& q = r.nests.front();
        std::vector<int> read, written;
        for (const ArrayUse& a : q.inputs) read.push_back(array_index(r, a.name));
        for (const ArrayUse& a : q.outputs) written.push_back(array_index(r, a.name));
        if (read.size() != 1 || written.size() != 1 || read[0] < 0 || written[0] < 0 || read[0] == written[0]) return {};
        swap_a = read[0];
        swap_b = written[0];
    }
    std::vector<LaunchRows> out;
    out.reserve(static_cast<std::size_t>(r.steps) * r.nests.size());
    for (std::int64_t t = 0; t < r.steps; ++t)
        for (const Problem& q : r.nests) {
            LaunchRows l;
            l.begin = q.space.begin[slow];
            l.end = q.space.end[slow];
            const auto held = [&](const std::string& name) {
                int i = array_index(r, name);
                if (t % 2 == 1 && i >= 0 && i == swap_a) i = swap_b;
                else if (t % 2 == 1 && i >= 0 && i == swap_b) i = swap_a;
                return i;
            };
            for (const ArrayUse& a : q.inputs) {
                const int i = held(a.name);
                if (i < 0) l.whole = true;
                else l.reads.push_back(RowReach{i, a.halo.lo[slow], a.halo.hi[slow]});
            }
            for (const ArrayUse& a : q.outputs) {
                const int i = held(a.name);
                if (i < 0) l.whole = true;
                else l.writes.push_back(i);
            }
            out.push_back(std::move(l));
        }
    return out;
}

double detail::pipelined_region_ms(const RegionProblem& r, const std::vector<LaunchRows>& launches,
                                   const std::vector<RegionLaunch>& per_nest, std::int64_t chunk_rows, const RegionCopies& in,
                                   const RegionCopies& back, std::int64_t cut, double issue_ms, std::int64_t* pieces) {
    const int slow = std::clamp(r.dims - 1, 0, 2);
    const std::int64_t rows = r.extents[slow];
    chunk_rows = std::max<std::int64_t>(1, chunk_rows);
    const std::int64_t chunks = (rows + chunk_rows - 1) / chunk_rows;
    const std::vector<double> landed = chunk_ends(in, chunks), sent = chunk_ends(back, chunks);
    const std::size_t n = launches.size(), nests = std::max<std::size_t>(1, per_nest.size());
    const auto pipelined = static_cast<std::size_t>(std::clamp<std::int64_t>(cut, 0, static_cast<std::int64_t>(n)));
    Wavefront wave(launches, rows);
    double gpu = 0;  // when the GPU has run every piece issued so far
    *pieces = 0;
    // Runs the pieces on the GPU after `after`; returns how many there were.
    const auto run = [&](const std::vector<Piece>& issued, double after) {
        for (const Piece& p : issued) {
            const RegionLaunch& l = per_nest[p.launch % nests];
            const LaunchRows& rows_of = launches[p.launch];
            const bool whole = p.whole || (p.begin <= rows_of.begin && p.end >= rows_of.end);
            const double share = whole ? 1.0 : static_cast<double>(p.end - p.begin) / static_cast<double>(rows_of.end - rows_of.begin);
            gpu = std::max(gpu, after) + (whole ? std::max(l.run_ms, l.overhead_ms) : l.run_ms * share + l.overhead_ms);
            ++*pieces;
        }
        return static_cast<double>(issued.size());
    };
    double late = 0;  // the host's time issuing pieces between its copies in
    for (std::int64_t k = 0; k + 1 < chunks; ++k)
        late += issue_ms * run(wave.advance((k + 1) * chunk_rows, pipelined), landed[static_cast<std::size_t>(k)] + late);
    const double all_in = landed.back() + late;
    run(wave.complete_before(n - pipelined), all_in);
    std::vector<bool> out(r.arrays.size());
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = r.arrays[i].copy_out;
    // The chunks out one after another, each once its pieces have run (and
    // not before the host has issued every chunk in); each takes its share.
    double done = all_in;
    for (std::int64_t k = 0; k < chunks; ++k) {
        const auto kk = static_cast<std::size_t>(k);
        const double issued = run(wave.until_final(std::min(rows, (k + 1) * chunk_rows), out), all_in);
        const double share = sent[kk] - (k > 0 ? sent[kk - 1] : 0.0);
        done = std::max(done + issue_ms * issued, gpu) + share;
    }
    run(wave.complete_before(n), all_in);
    return std::max(done, gpu);
}

}  // namespace recipe::advisor
