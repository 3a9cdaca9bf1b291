// wavefront.h — the order a region's launches run in when they are
// pipelined with its copies, decided in one place.
//
// A region (recipe::Region) copies its arrays in chunk by chunk, runs its
// launches, and copies the arrays out chunk by chunk. Run as written, every
// launch waits for the last chunk in and every chunk out waits for the last
// launch: the region costs copies in + kernels + copies out. Yet a launch
// that computes rows [b, f) of the chunked dimension only needs the rows it
// reads, and a chunk can leave once the last launch writing it has passed
// it. So the launches are cut into pieces of rows, a wavefront in the sense
// of time skewing: as each chunk lands, every launch runs the rows it can
// (step s behind step s−1 by its reach), and at the end each chunk out is
// preceded only by the pieces it needs. The region's time approaches the
// longest of the three instead of their sum.
//
// A piece may run once the rows it reads hold what the program order says
// they hold and no earlier launch still needs what it overwrites:
//   - reads: every earlier launch writing the array has passed the rows read
//     (its frontier ≥ f + hi, or it is complete), and the copies in have
//     landed beyond them;
//   - writes: every earlier launch writing the array has passed f (writes in
//     order), every earlier launch reading it has passed f + its lo (it has
//     read the old values), and the copies in have landed beyond f (a copy in
//     landing later would overwrite the piece);
// frontiers are prefixes of each launch's rows, so these are bounds on f.
// A launch that names a part of an array (`ey[0]`) is not cut: it runs whole
// once everything before it is complete, and nothing after it moves until it
// has run. The advisor prices the region with this same order (the pieces,
// their sizes and where they wait), the library issues it. Pure C++17, no
// CUDA.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

namespace recipe {

// One array a launch reads: rows of it beyond each computed row, below and above.
struct RowReach {
    int array = 0;
    std::int64_t lo = 0, hi = 0;
};

// One launch as the wavefront sees it: the rows of the chunked dimension it
// computes, what it reads and writes.
struct LaunchRows {
    std::int64_t begin = 0, end = 0;
    std::vector<RowReach> reads;
    std::vector<int> writes;
    bool whole = false;  // names a part of an array: never cut, a barrier
};

// Rows [begin, end) of one launch.
struct Piece {
    std::size_t launch = 0;
    std::int64_t begin = 0, end = 0;
    bool whole = false;  // the launch in one piece (whatever its rows)
};

class Wavefront {
public:
    // `rows`: the arrays' extent along the chunked dimension.
    Wavefront(std::vector<LaunchRows> launches, std::int64_t rows) : l_(std::move(launches)), rows_(rows) {
        f_.reserve(l_.size());
        for (const LaunchRows& l : l_) {
            f_.push_back(l.begin);
            for (const RowReach& r : l.reads) arrays_ = std::max(arrays_, static_cast<std::size_t>(r.array) + 1);
            for (int a : l.writes) arrays_ = std::max(arrays_, static_cast<std::size_t>(a) + 1);
        }
    }

    std::size_t size() const { return l_.size(); }
    std::int64_t frontier(std::size_t i) const { return f_[i]; }
    bool complete(std::size_t i) const { return f_[i] >= l_[i].end; }

    // The copies in have landed up to row `arrived` (exclusive): the pieces of
    // launches [0, upto) that can run now, in the order they must be issued.
    std::vector<Piece> advance(std::int64_t arrived, std::size_t upto) { return sweep(arrived, upto, nullptr); }

    // Every copy in has landed: launches [0, upto) run to their ends, in order.
    std::vector<Piece> complete_before(std::size_t upto) { return sweep(rows_, upto, nullptr); }

    // Every copy in has landed: the pieces after which rows below `row` of
    // every array in `arrays` (by index) hold their final values, and no more
    // (demand worked back from the launches writing them). Should the demand
    // not be met (it always is, by construction), every launch is run to its
    // end: the chunk is never copied out early.
    std::vector<Piece> until_final(std::int64_t row, const std::vector<bool>& arrays) {
        const std::size_t n = l_.size();
        std::vector<std::int64_t> need(f_);
        // What the launches after the one at hand need of it, per array: rows
        // they read of it (written by it), rows they write of it.
        std::vector<std::int64_t> read_up_to(arrays_, kNone), written_up_to(arrays_, kNone);
        bool barrier = false, later_needs = false;
        for (std::size_t i = n; i-- > 0;) {
            const LaunchRows& l = l_[i];
            if (complete(i)) continue;
            if (barrier || (l.whole && later_needs)) need[i] = l.end;
            for (int a : l.writes) {
                const auto k = static_cast<std::size_t>(a);
                if (k < arrays.size() && arrays[k]) need[i] = std::max(need[i], clamp_rows(row, i));
                need[i] = std::max({need[i], clamp_rows(read_up_to[k], i), clamp_rows(written_up_to[k], i)});
            }
            for (const RowReach& r : l.reads) {
                const std::int64_t w = written_up_to[static_cast<std::size_t>(r.array)];
                if (w != kNone) need[i] = std::max(need[i], clamp_rows(w + r.lo, i));
            }
            if (need[i] <= f_[i]) continue;
            later_needs = true;
            if (l.whole) {
                need[i] = l.end;
                barrier = true;
            }
            for (const RowReach& r : l.reads) {
                auto& m = read_up_to[static_cast<std::size_t>(r.array)];
                m = std::max(m, need[i] + r.hi);
            }
            for (int a : l.writes) {
                auto& m = written_up_to[static_cast<std::size_t>(a)];
                m = std::max(m, need[i]);
            }
        }
        std::vector<Piece> out = sweep(rows_, n, &need);
        for (std::size_t i = 0; i < n; ++i) {
            bool needed = false;
            for (int a : l_[i].writes)
                needed = needed || (static_cast<std::size_t>(a) < arrays.size() && arrays[static_cast<std::size_t>(a)]);
            if (needed && f_[i] < clamp_rows(row, i)) {
                std::vector<Piece> rest = complete_before(n);
                out.insert(out.end(), rest.begin(), rest.end());
                break;
            }
        }
        return out;
    }

private:
    static constexpr std::int64_t kNone = std::numeric_limits<std::int64_t>::min() / 4;
    static constexpr std::int64_t kFree = std::numeric_limits<std::int64_t>::max() / 4;

    // One pass in program order: launch i < upto moves as far as the
    // launches before it allow (and `cap`, if given), each bound from what
    // the incomplete earlier launches still need, kept per array.
    std::vector<Piece> sweep(std::int64_t arrived, std::size_t upto, const std::vector<std::int64_t>* cap) {
        std::vector<Piece> out;
        upto = std::min(upto, l_.size());
        const bool landed = arrived >= rows_;
        // Per array: the least frontier of an incomplete earlier writer, and
        // the least frontier less reach below of an incomplete earlier reader.
        std::vector<std::int64_t> writer(arrays_, kFree), reader(arrays_, kFree);
        bool barrier = false, all_complete = true;
        for (std::size_t i = 0; i < upto; ++i) {
            const LaunchRows& l = l_[i];
            std::int64_t f = l.end;
            if (barrier) {
                f = l.begin;
            } else if (l.whole) {
                if (!landed || !all_complete) f = l.begin;
            } else {
                for (const RowReach& r : l.reads) {
                    if (!landed) f = std::min(f, arrived - r.hi);
                    f = std::min(f, writer[static_cast<std::size_t>(r.array)] - r.hi);
                }
                for (int a : l.writes) {
                    if (!landed) f = std::min(f, arrived);
                    f = std::min({f, writer[static_cast<std::size_t>(a)], reader[static_cast<std::size_t>(a)]});
                }
            }
            if (cap) f = std::min(f, (*cap)[i]);
            step(i, f, &out);
            if (complete(i)) continue;
            all_complete = false;
            if (l.whole) barrier = true;
            for (int a : l.writes) {
                auto& m = writer[static_cast<std::size_t>(a)];
                m = std::min(m, f_[i]);
            }
            for (const RowReach& r : l.reads) {
                auto& m = reader[static_cast<std::size_t>(r.array)];
                m = std::min(m, f_[i] - r.lo);
            }
        }
        return out;
    }

    void step(std::size_t i, std::int64_t to, std::vector<Piece>* out) {
        const LaunchRows& l = l_[i];
        to = std::min(to, l.end);
        if (to <= f_[i]) return;
        if (l.whole) {
            if (to < l.end) return;
            out->push_back(Piece{i, l.begin, l.end, true});
        } else {
            out->push_back(Piece{i, f_[i], to, false});
        }
        f_[i] = to;
    }

    std::int64_t clamp_rows(std::int64_t row, std::size_t i) const {
        return std::clamp(row, l_[i].begin, std::max(l_[i].begin, l_[i].end));
    }

    std::vector<LaunchRows> l_;
    std::vector<std::int64_t> f_;  // each launch has run rows [begin, f)
    std::int64_t rows_ = 0;
    std::size_t arrays_ = 0;
};

}  // namespace recipe
