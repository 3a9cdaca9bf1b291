#include "advisor/ghost_zones.h"

#include <algorithm>
#include <cstdio>

#include "advisor/kernel_time.h"
#include "advisor/model.h"
#include "advisor/sizes.h"

namespace recipe::advisor {

namespace {


std::string mb(double bytes) {
    char s[32];
    std::snprintf(s, sizeof s, "%.1f MB", bytes / 1e6);
    return s;
}

int split_of(const RegionProblem& r) { return std::clamp(r.dims - 1, 0, 2); }

// One launch of the region: its halo along the split dimension and its price.
struct GhostLaunch {
    std::int64_t below = 0, above = 0;  // rows it reads beyond its own
    std::int64_t space_begin = 0, space_end = 0;  // its space along the split dimension
    double points_per_row = 0;          // its space's points in one row
    double occupancy = 0;
    KernelModel kernel;
};

bool launches_of(const RegionProblem& r, const Platform& pf, const ModelOptions& options, std::vector<GhostLaunch>* out,
                 std::string* error) {
    const int s = split_of(r);
    for (const Problem& q : r.nests) {
        GhostLaunch l{0, 0, 0, 0, 0, 0, KernelModel(q, pf, options)};
        for (const ArrayUse& a : q.inputs) {
            l.below = std::max(l.below, a.halo.lo[s]);
            l.above = std::max(l.above, a.halo.hi[s]);
        }
        l.space_begin = q.space.begin[s];
        l.space_end = q.space.end[s];
        const std::int64_t rows = std::max<std::int64_t>(1, q.space.extent(s));
        l.points_per_row = static_cast<double>(volume(q.space.extents())) / static_cast<double>(rows);
        choose_block(q, pf, q.space.extents(), &l.occupancy);
        if (l.occupancy <= 0) {
            if (error) *error = "no thread block of this device runs the nest of kernel " + q.kernel_name;
            return false;
        }
        out->push_back(l);
    }
    return true;
}

// The device bytes of a tile of `rows` rows of every array.
std::int64_t tile_bytes(const RegionProblem& r, std::int64_t rows) {
    const int s = split_of(r);
    const std::int64_t row = volume(r.extents) / std::max<std::int64_t>(1, r.extents[s]);
    std::int64_t bytes = 0;
    for (const RegionArray& a : r.arrays) bytes += aligned(std::min(rows, r.extents[s]) * row * a.elem_bytes);
    return bytes;
}

// One pass of `steps` steps over every tile, one tile after another: its
// held rows copied in, each launch on the rows still valid after it, its
// own rows copied out (the library's RegionImpl::ghost_pass).
struct PassCost {
    double in_dma = 0, in_staging = 0, out_dma = 0, out_staging = 0, kernel = 0, total = 0;
    double points = 0, own_points = 0;
    TransferStats h2d, d2h;

    void add(const PassCost& c, double times = 1) {
        in_dma += c.in_dma * times;
        in_staging += c.in_staging * times;
        out_dma += c.out_dma * times;
        out_staging += c.out_staging * times;
        kernel += c.kernel * times;
        total += c.total * times;
        points += c.points * times;
        own_points += c.own_points * times;
        h2d.bytes += static_cast<std::int64_t>(static_cast<double>(c.h2d.bytes) * times);
        h2d.copies += static_cast<std::int64_t>(static_cast<double>(c.h2d.copies) * times);
        d2h.bytes += static_cast<std::int64_t>(static_cast<double>(c.d2h.bytes) * times);
        d2h.copies += static_cast<std::int64_t>(static_cast<double>(c.d2h.copies) * times);
    }
};

PassCost price_pass(const RegionProblem& r, const RegionProblem& moved, const Platform& pf,
                    const std::vector<GhostLaunch>& launches, std::int64_t steps, std::int64_t core, const Index3& chunk,
                    bool staged, double tile_setup_ms) {
    PassCost c;
    const int s = split_of(r);
    const std::int64_t rows = r.extents[s];
    const std::size_t per_step = launches.size();
    const std::size_t count = per_step * static_cast<std::size_t>(steps);
    // The rows each launch of the pass must still make valid: its tile's own
    // rows widened by the halos of the launches after it.
    std::vector<std::int64_t> after_below(count, 0), after_above(count, 0);
    for (std::size_t m = count; m-- > 1;) {
        after_below[m - 1] = after_below[m] + launches[m % per_step].below;
        after_above[m - 1] = after_above[m] + launches[m % per_step].above;
    }
    const std::int64_t below = count ? after_below[0] + launches[0].below : 0;
    const std::int64_t above = count ? after_above[0] + launches[0].above : 0;
    // Tiles away from the ends cost the same: one is priced for all of them.
    std::int64_t space_begin = 0, space_end = rows;
    for (const GhostLaunch& l : launches) {
        space_begin = std::max(space_begin, l.space_begin);
        space_end = std::min(space_end, l.space_end);
    }
    PassCost inner;
    bool inner_priced = false;
    for (std::int64_t a = 0; a < rows; a += core) {
        const std::int64_t b = std::min(rows, a + core);
        const bool interior = b - a == core && a - below >= space_begin && b + above <= space_end;
        if (interior && inner_priced) {
            c.add(inner);
            continue;
        }
        PassCost t;
        const std::int64_t held_begin = std::max<std::int64_t>(0, a - below), held_end = std::min(rows, b + above);
        // Priced as the tile's copies are asked for: over 2 streams (the
        // library runs one per chunk where a tile holds fewer).
        const detail::RegionCopies in = detail::region_copies(moved, pf, chunk, 2, true, staged, held_begin, held_end);
        const detail::RegionCopies out = detail::region_copies(moved, pf, chunk, 2, false, staged, a, b);
        double kernels = 0;
        for (std::size_t m = 0; m < count; ++m) {
            const GhostLaunch& l = launches[m % per_step];
            const std::int64_t lo = std::max({l.space_begin, a - after_below[m], held_begin});
            const std::int64_t hi = std::min({l.space_end, b + after_above[m], held_end});
            const double points = hi > lo ? static_cast<double>(hi - lo) * l.points_per_row : 0;
            const std::int64_t own = std::max<std::int64_t>(0, std::min(l.space_end, b) - std::max(l.space_begin, a));
            t.points += points;
            t.own_points += static_cast<double>(own) * l.points_per_row;
            if (points <= 0) continue;
            kernels += std::max(l.kernel.run_ms(static_cast<std::int64_t>(points), l.occupancy), l.kernel.launch_overhead_ms());
        }
        t.in_dma = in.dma_ms;
        t.in_staging = in.staging_ms;
        t.out_dma = out.dma_ms;
        t.out_staging = out.staging_ms;
        t.kernel = kernels;
        t.h2d = in.stats;
        t.d2h = out.stats;
        t.total = tile_setup_ms + in.total_ms + kernels + out.total_ms;
        if (interior) {
            inner = t;
            inner_priced = true;
        }
        c.add(t);
    }
    return c;
}

// What every tile of a plan holds and moves: the copies go in the region's
// chunks (region_chunk) within the tile, over up to 2 streams; each tile is a
// library run of its own (its pooled blocks taken again: run and stream
// set-up), the blocks allocated once.
struct TileLayout {
    Index3 chunk{1, 1, 1};
    std::int64_t streams = 1;
    std::int64_t device_bytes = 0, host_bytes = 0;
    double setup_ms = 0;
};

TileLayout tile_layout(const RegionProblem& r, const Platform& pf, const GhostPlan& g, bool staged) {
    TileLayout t;
    const int s = split_of(r);
    const std::int64_t rows = r.extents[s];
    t.chunk = region_chunk(r);
    t.chunk[s] = std::min(t.chunk[s], g.core_rows);
    const std::int64_t held = std::min(rows, g.core_rows + g.ghost_below + g.ghost_above);
    t.streams = std::min<std::int64_t>(2, (held + t.chunk[s] - 1) / t.chunk[s]);
    t.setup_ms = (pf.run_setup_ns + static_cast<double>(t.streams) * pf.stream_setup_ns) * 1e-6;
    t.device_bytes = tile_bytes(r, held);
    t.host_bytes = staged ? region_staging_bytes(r, t.chunk, t.streams) : 0;
    return t;
}

// Every pass: the first copies in what the loop reads before writing it;
// later passes also what earlier passes wrote (the host holds it between
// passes); the last pass may run fewer steps.
PassCost price_passes(const RegionProblem& r, const Platform& pf, const std::vector<GhostLaunch>& launches, const GhostPlan& g,
                      const TileLayout& layout, bool staged) {
    const RegionProblem first = copied_whole(r);  // every tile is copied in whole
    RegionProblem later = first;
    for (RegionArray& a : later.arrays) a.copy_in = a.copy_in || a.copy_out;
    const std::int64_t k = g.steps_per_pass;
    const std::int64_t last_steps = std::max<std::int64_t>(0, r.steps) - (g.passes - 1) * k;
    auto pass = [&](const RegionProblem& moved, std::int64_t steps) {
        return price_pass(r, moved, pf, launches, steps, g.core_rows, layout.chunk, staged, layout.setup_ms);
    };
    PassCost total;
    if (g.passes >= 1) total.add(pass(first, g.passes == 1 ? last_steps : k));
    if (g.passes >= 3) total.add(pass(later, k), static_cast<double>(g.passes - 2));
    if (g.passes >= 2) total.add(pass(later, last_steps));
    return total;
}

// The region's prediction from its passes, as predict_region gives one.
void fill_prediction(const RegionProblem& r, const Platform& pf, const ModelOptions& options, const GhostPlan& g,
                     const TileLayout& layout, const PassCost& total, bool staged, RegionPrediction* rp) {
    Prediction& p = rp->total;
    rp->chunks = g.tiles;
    p.config.scheme = Scheme::Basic;
    p.config.tile = layout.chunk;
    p.config.streams = static_cast<int>(layout.streams);
    p.config.copy = CopyMethod::Merged;
    p.host_strategy = staged ? HostStrategy::Staged : HostStrategy::Pinned;
    p.config.host = p.host_strategy;
    p.problem.dims = r.dims;
    p.problem.extents = r.extents;
    p.tiles = g.tiles * g.passes;
    p.device_bytes = layout.device_bytes;
    p.host_bytes = layout.host_bytes;
    p.kernel_source = KernelSource::Measured;
    for (const Problem& q : r.nests) {
        const KernelModel kernel(q, pf, options);
        if (kernel.source() == KernelSource::Estimate) p.kernel_source = KernelSource::Estimate;
        else if (kernel.source() == KernelSource::UserGiven && p.kernel_source == KernelSource::Measured)
            p.kernel_source = KernelSource::UserGiven;
        RegionLaunch l;
        l.block = choose_block(q, pf, q.space.extents(), &l.occupancy);
        l.kernel_ms = std::max(kernel.run_ms(volume(q.space.extents()), l.occupancy), kernel.launch_overhead_ms());
        l.source = kernel.source();
        rp->launches.push_back(l);
    }
    p.h2d = total.h2d;
    p.d2h = total.d2h;
    p.phases.h2d = total.in_dma;
    p.phases.d2h = total.out_dma;
    p.phases.staging = total.in_staging + total.out_staging;
    p.phases.kernel = total.kernel;
    p.phases.alloc = detail::region_alloc_ms(pf, layout.device_bytes, layout.host_bytes, layout.streams, staged);
    p.phases.pipeline = total.total;
    p.total_ms = p.phases.alloc + p.phases.pipeline;
    p.dominant = dominant_operation(p.phases);
    const double per = static_cast<double>(std::max<std::int64_t>(1, p.tiles));
    p.typical_tile = {p.phases.staging / per / 2, p.phases.h2d / per, p.phases.kernel / per, p.phases.d2h / per,
                      p.phases.staging / per / 2};
    char redundant[32];
    std::snprintf(redundant, sizeof redundant, "%.1f%%", 100 * g.redundant);
    p.notes.push_back("ghost zones (seed 002): " + std::to_string(g.passes) + " passes of " + std::to_string(g.steps_per_pass) +
                      " steps, each over " + std::to_string(g.tiles) + " tiles of " + std::to_string(g.core_rows) + " rows with " +
                      std::to_string(g.ghost_below) + " + " + std::to_string(g.ghost_above) + " rows of ghost zone; " +
                      redundant + " of the launches' points computed again");
}

}  // namespace

bool predict_ghost_region(const RegionProblem& r, const Platform& pf, const ModelOptions& options, std::int64_t k,
                          std::int64_t core, GhostPlan* out, std::string* error) {
    auto fail = [&](const std::string& why) {
        if (error) *error = why;
        return false;
    };
    if (k < 1) return fail("a pass needs at least one step");
    if (r.uses_parts) return fail("a launch works on a part of an array, which a region with ghost zones does not run");
    std::vector<GhostLaunch> launches;
    if (!launches_of(r, pf, options, &launches, error)) return false;
    const std::int64_t rows = r.extents[split_of(r)];
    GhostPlan g;
    g.steps_per_pass = k;
    g.core_rows = std::clamp<std::int64_t>(core, 1, rows);
    for (const GhostLaunch& l : launches) {
        g.ghost_below += k * l.below;
        g.ghost_above += k * l.above;
    }
    if (g.core_rows < rows && g.core_rows < g.ghost_below)
        return fail("tiles of " + std::to_string(g.core_rows) + " rows are thinner than the " + std::to_string(g.ghost_below) +
                    " rows of ghost zone below them");
    const bool staged = !(options.host_memory ? *options.host_memory == HostMemory::Pinned : r.pinned_host);
    const TileLayout layout = tile_layout(r, pf, g, staged);
    if (const std::int64_t budget = device_budget(pf, options); budget > 0 && layout.device_bytes > budget)
        return fail("a tile of " + std::to_string(g.core_rows) + " rows and its ghost zone need " +
                    mb(static_cast<double>(layout.device_bytes)) + " of device memory; " + mb(static_cast<double>(budget)) +
                    " are allowed");
    g.tiles = (rows + g.core_rows - 1) / g.core_rows;
    g.passes = (std::max<std::int64_t>(0, r.steps) + k - 1) / k;
    g.launches_per_pass = k * static_cast<std::int64_t>(r.nests.size());
    const PassCost total = price_passes(r, pf, launches, g, layout, staged);
    g.redundant = total.own_points > 0 ? total.points / total.own_points - 1 : 0;
    fill_prediction(r, pf, options, g, layout, total, staged, &g.prediction);
    *out = std::move(g);
    return true;
}

bool plan_ghost_region(const RegionProblem& r, const Platform& pf, const ModelOptions& options, GhostPlan* out,
                       std::string* error) {
    const int s = split_of(r);
    const std::int64_t rows = r.extents[s];
    const std::int64_t budget = device_budget(pf, options);
    const std::int64_t steps = std::max<std::int64_t>(1, r.steps);
    // One step's ghost rows: each launch's halo, summed over the step's launches.
    std::int64_t below = 0, above = 0;
    for (const Problem& q : r.nests) {
        std::int64_t lo = 0, hi = 0;
        for (const ArrayUse& a : q.inputs) {
            lo = std::max(lo, a.halo.lo[s]);
            hi = std::max(hi, a.halo.hi[s]);
        }
        below += lo;
        above += hi;
    }
    // The rows of every array the budget holds at once.
    std::int64_t row_bytes = 0;
    for (const RegionArray& a : r.arrays) row_bytes += volume(r.extents) / std::max<std::int64_t>(1, rows) * a.elem_bytes;
    std::int64_t fit = budget > 0 ? budget / std::max<std::int64_t>(1, row_bytes) : rows;
    while (fit > 0 && tile_bytes(r, fit) > budget && budget > 0) --fit;  // the 256-byte alignment of each array
    GhostPlan best;
    bool found = false;
    std::string why = "no tile and its ghost zone fit the device memory";
    for (std::int64_t k = 1; k <= std::min(steps, kMaxStepsPerPass); ++k) {
        const std::int64_t core = std::min(rows, fit - k * (below + above));
        if (core < 1) break;
        GhostPlan g;
        std::string e;
        if (!predict_ghost_region(r, pf, options, k, core, &g, &e)) {
            why = e;
            if (core < rows && core < k * below) break;  // taller ghost zones only get worse
            continue;
        }
        best.curve.push_back({k, core, g.prediction.total.total_ms});
        if (!found || g.prediction.total.total_ms < best.prediction.total.total_ms) {
            auto curve = std::move(best.curve);
            best = std::move(g);
            best.curve = std::move(curve);
            found = true;
        }
    }
    if (!found) {
        if (error) *error = why;
        return false;
    }
    *out = std::move(best);
    return true;
}

}  // namespace recipe::advisor
