// detail/region_pipelined.cuh — recipe::Region's launches pipelined with
// its copies (Config::pipelined_launches; the order is recipe/wavefront.h's):
// the runs are kept as they are made, then issued at finish() piece by piece
// between the chunks in and out. RegionImpl's member functions for them;
// included by detail/region_impl.cuh after the class.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "recipe/detail/region_impl.cuh"
#include "recipe/wavefront.h"

namespace recipe::detail {

inline void RegionImpl::record_pipelined(const std::vector<ArrayDesc>& named, const std::vector<std::size_t>& index,
                                         const std::vector<std::int64_t>& offset, std::size_t inputs, const Box& space,
                                         std::function<void(Engine&, const std::vector<Placement>&, const Box&)> issue) {
    for (std::size_t i : broken_promises(index, offset, inputs, space)) late_[i] = true;
    PipelinedLaunch l;
    l.issue = std::move(issue);
    l.space = space;
    l.rows.begin = space.begin[chunked_];
    l.rows.end = space.end[chunked_];
    const RegionPart& part = *parts_.front();
    for (std::size_t j = 0; j < named.size(); ++j) {
        Placement place = part.global[index[j]];
        place.device += offset[j];
        l.placements.push_back(place);
        l.rows.whole = l.rows.whole || offset[j] != 0;
        const int array = static_cast<int>(index[j]);
        if (j < inputs) l.rows.reads.push_back(RowReach{array, named[j].halo.lo[chunked_], named[j].halo.hi[chunked_]});
        else if (std::find(l.rows.writes.begin(), l.rows.writes.end(), array) == l.rows.writes.end())
            l.rows.writes.push_back(array);
    }
    recorded_.push_back(std::move(l));
    for (std::size_t i : index) first_named_[i] = true;
    for (std::size_t j = inputs; j < named.size(); ++j) written_[index[j]] = true;
}

inline void RegionImpl::run_pipelined(RegionPart& part) {
    Engine& e = *part.engine;
    std::vector<LaunchRows> rows;
    for (const PipelinedLaunch& l : recorded_) rows.push_back(l.rows);
    const std::int64_t extent = cfg_.extents[chunked_];
    Wavefront wave(std::move(rows), extent);
    const std::size_t n = recorded_.size();
    const std::size_t cut = static_cast<std::size_t>(std::min<std::int64_t>(cfg_.pipelined_launches, static_cast<std::int64_t>(n)));
    const auto issue = [&](const std::vector<Piece>& pieces) {
        for (const Piece& p : pieces) {
            open_kernels(part);
            const PipelinedLaunch& l = recorded_[p.launch];
            Box box = l.space;
            if (!p.whole) {
                box.begin[chunked_] = p.begin;
                box.end[chunked_] = p.end;
            }
            l.issue(e, l.placements, box);
        }
    };
    copy_in(part, copy_in_, [&](std::int64_t k) {
        const std::int64_t arrived = e.grid().core(k).end[chunked_];
        e.stream_waits(0, copy_stream(e, k));
        if (arrived < extent) issue(wave.advance(arrived, cut));
    });
    issue(wave.complete_before(n - cut));
    part.entry = part.kernel_entry + 1;
    std::vector<bool> out(descs_.size());
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = copy_out_[i] && written_[i];
    copy_out(part, out, [&](std::int64_t k, int s) {
        issue(wave.until_final(e.grid().core(k).end[chunked_], out));
        e.stream_waits(s, 0);
    });
    issue(wave.complete_before(n));  // what writes only arrays not copied out
    close_kernels(part);
    recorded_.clear();
}

}  // namespace recipe::detail
