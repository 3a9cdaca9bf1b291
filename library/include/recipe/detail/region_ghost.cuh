// detail/region_ghost.cuh — recipe::Region's ghost zones (Config::
// ghost_launches; seed 002, Meng & Skadron, Figure 1(b)): the runs of a
// pass are kept as they are made, then replayed tile by tile, each tile
// copied in with the rows its runs read beyond it. RegionImpl's member
// functions for them; included by detail/region_impl.cuh after the class.
#pragma once

#include <algorithm>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "recipe/detail/region_impl.cuh"

namespace recipe::detail {

inline void RegionImpl::record_ghost(const std::vector<ArrayDesc>& named, const std::vector<std::size_t>& index,
                                     const std::vector<std::int64_t>& offset, const Box& space,
                                     std::function<void(Engine&, const std::vector<Placement>&, const Box&)> issue) {
    GhostLaunch g;
    g.issue = std::move(issue);
    g.index = index;
    g.space = space;
    for (std::size_t j = 0; j < named.size(); ++j) {
        const ArrayDesc& a = named[j];
        if (offset[j] != 0)
            throw Error("recipe: " + region_name() + ": " + a.kind + " " + std::to_string(a.index) +
                        " is a part of a region's array; a region with ghost zones runs whole arrays only");
        if (a.role != Role::In) continue;
        ++g.inputs;
        g.lo = std::max(g.lo, a.halo.lo[split_]);
        g.hi = std::max(g.hi, a.halo.hi[split_]);
    }
    pending_.push_back(std::move(g));
    if (static_cast<std::int64_t>(pending_.size()) >= cfg_.ghost_launches) ghost_pass();
}

// One pass: for each tile of `ghost_tile_rows` rows (its core), the core plus the
// rows the pass's runs read beyond it (their halos summed: the ghost
// zone, seed 002 §4.1: HaloWidth × h) copied in, every run replayed on
// the rows still valid after it (the core plus the halos of the runs
// after it), the core copied out. Tiles go one after another: a tile's
// top rows that the next tile reads as its ghost zone are held back (in
// host memory of their own) until the next tile has copied its rows in.
inline void RegionImpl::ghost_pass() {
    if (pending_.empty()) return;
    std::int64_t below = 0, above = 0;
    for (const GhostLaunch& g : pending_) {
        below += g.lo;
        above += g.hi;
    }
    const int s = split_;
    const std::int64_t rows = cfg_.extents[s];
    const std::int64_t core = cfg_.ghost_tile_rows > 0 ? std::min(cfg_.ghost_tile_rows, rows) : rows;
    if (core < rows && core < below)
        throw Error("recipe: " + region_name() + ": tiles of " + std::to_string(core) + " rows are thinner than the " +
                    std::to_string(below) + " rows of ghost zone the next tile reads below its own; use taller tiles "
                    "(Config::ghost_tile_rows) or fewer runs per pass (Config::ghost_launches)");
    const std::size_t n = descs_.size();
    std::vector<bool> used(n, false), wrote(n, false), in(n, false);
    for (const GhostLaunch& g : pending_)
        for (std::size_t j = 0; j < g.index.size(); ++j) {
            used[g.index[j]] = true;
            if (j >= g.inputs) wrote[g.index[j]] = true;
        }
    for (std::size_t i = 0; i < n; ++i) in[i] = used[i] && (copy_in_[i] || written_[i]);
    // Each run's rows still valid: the core widened by the halos of the runs after it.
    std::vector<std::int64_t> after_lo(pending_.size(), 0), after_hi(pending_.size(), 0);
    for (std::size_t j = pending_.size(); j-- > 1;) {
        after_lo[j - 1] = after_lo[j] + pending_[j].lo;
        after_hi[j - 1] = after_hi[j] + pending_[j].hi;
    }
    std::vector<std::vector<char>> held_back(n);  // the previous tile's top rows, per array
    std::int64_t held_back_row = 0;
    for (std::int64_t a = 0; a < rows; a += core) {
        const std::int64_t b = std::min(rows, a + core);
        RegionPart part;
        part.held = Box{{0, 0, 0}, cfg_.extents};
        part.held.begin[s] = std::max<std::int64_t>(0, a - below);
        part.held.end[s] = std::min(rows, b + above);
        const std::int64_t keep = b < rows ? std::min(below, b - a) : 0;  // rows the next tile reads
        part.owned = part.held;
        part.owned.begin[s] = a;
        part.owned.end[s] = b - keep;
        part.cfg = cfg_;
        part.cfg.ghost_launches = 0;
        part.cfg.extents = part.held.extents();
        part.descs = descs_;
        const std::int64_t first_row = part.held.begin[s] * row_elements_;
        for (ArrayDesc& d : part.descs) d.host += first_row * d.elem;
        engines_quiet() = true;
        part.engine = std::make_unique<Engine>(part.cfg, std::move(part.descs), true);
        engines_quiet() = false;
        Engine& e = *part.engine;
        e.setup(2 * e.grid().tile_count() + 1);
        for (const ArrayDesc& d : e.arrays()) {
            Placement p = e.place(d, 0, 0);
            part.local.push_back(p);
            p.layout.origin[s] = part.held.begin[s];
            part.global.push_back(p);
        }
        copy_in(part, in);
        e.join_streams();
        const auto where = [&] { return region_name() + ", ghost zones"; };
        // This tile has its rows: the previous tile's top rows may go home.
        check(cudaStreamSynchronize(e.stream(0)), "cudaStreamSynchronize", where);
        for (std::size_t i = 0; i < n; ++i)
            if (!held_back[i].empty())
                std::memcpy(descs_[i].host + held_back_row * row_elements_ * descs_[i].elem, held_back[i].data(),
                            held_back[i].size());
        part.kernel_entry = part.entry++;
        e.mark(part.kernel_entry, PhaseEvents::kStart, 0);
        e.mark(part.kernel_entry, PhaseEvents::kInDone, 0);
        e.mark(part.kernel_entry, PhaseEvents::kKernelStart, 0);
        for (std::size_t j = 0; j < pending_.size(); ++j) {
            const GhostLaunch& g = pending_[j];
            Box box = g.space;
            box.begin[s] = std::max({g.space.begin[s], a - after_lo[j], part.held.begin[s]});
            box.end[s] = std::min({g.space.end[s], b + after_hi[j], part.held.end[s]});
            std::vector<Placement> p;
            for (std::size_t i : g.index) p.push_back(part.global[i]);
            g.issue(e, p, box);
        }
        e.mark(part.kernel_entry, PhaseEvents::kKernelDone, 0);
        e.mark(part.kernel_entry, PhaseEvents::kOutDone, 0);
        e.join_streams();
        // The rows the next tile reads as its ghost zone, kept aside.
        held_back_row = b - keep;
        for (std::size_t i = 0; i < n; ++i) {
            held_back[i].clear();
            if (!wrote[i] || keep == 0) continue;
            const std::size_t bytes = static_cast<std::size_t>(keep * row_elements_ * descs_[i].elem);
            held_back[i].resize(bytes);
            const char* from = part.local[i].device +
                               (held_back_row - part.held.begin[s]) * row_elements_ * descs_[i].elem;
            check(cudaMemcpyAsync(held_back[i].data(), from, bytes, cudaMemcpyDeviceToHost, e.stream(0)),
                  "cudaMemcpyAsync", where);
        }
        check(cudaStreamSynchronize(e.stream(0)), "cudaStreamSynchronize", where);
        copy_out(part, wrote);
        e.finish(part.entry);
        add_measured(&ghost_measured_, e.measured());
        ++ghost_tiles_;
    }
    for (std::size_t i = 0; i < n; ++i) written_[i] = written_[i] || wrote[i];
    pending_.clear();
    ++ghost_passes_;
}

inline Measured RegionImpl::finish_ghost() {
    ghost_pass();  // the runs since the last pass (a last, shorter pass)
    Measured m = ghost_measured_;
    m.total = ms_since(t_start_);
    const ReportLevel level = report_requested();
    const std::string what = region_name() + ": ghost zones, " + std::to_string(ghost_passes_) + " passes of " +
                             std::to_string(ghost_tiles_ / std::max<std::int64_t>(1, ghost_passes_)) + " tiles";
    if (level == ReportLevel::Time) print_time_line(region_name(), m, cfg_.predicted, first_);
    if (level == ReportLevel::Full)
        print_phase_table(what + ", " + to_string(cfg_.host), m, cfg_.predicted, cfg_.host == HostMemory::Staged, first_);
    return m;
}

}  // namespace recipe::detail
