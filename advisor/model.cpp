// The performance model of every scheme. Sources per formula in
// pipeline.h; which copies a tile makes comes from recipe/tile_geometry.h
// (copy_groups_for, the same decisions copies_for makes for the library).
#include "advisor/model.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "advisor/pipeline.h"
#include "advisor/tile_classes.h"

namespace recipe::advisor {

namespace {

std::int64_t volume(const Index3& e) { return e[0] * e[1] * e[2]; }

Box box_of(const Index3& extents) {
    Box b;
    b.end = extents;
    return b;
}

// Price copy groups with one table: rank-1 copies straight from the table,
// rank-2/3 copies as a contiguous copy of the same bytes plus the
// profile's per-row and per-call extra (MEASURED.md: one cudaMemcpy2DAsync
// of 10,000 rows costs what one contiguous copy does, plus 0.8 ns a row).
double price(const std::vector<CopyGroup>& groups, const Measurements& table, const StridedCopyCost& strided,
             TransferStats* stats) {
    double ms = 0;
    for (const CopyGroup& g : groups) {
        double one = table.ms(static_cast<double>(g.bytes()));
        if (g.rank() > 1)
            one += (strided.per_row_ns * static_cast<double>(g.height * g.depth) + strided.per_call_ns) * 1e-6;
        ms += static_cast<double>(g.count) * one;
        if (stats) {
            stats->bytes += g.count * g.bytes();
            stats->copies += g.count;
        }
    }
    return ms;
}

// seed 003 §5.4. `contention` > 1 slows the bytes when both directions run
// at once: seed 003 Table 5.2 measured G under opposite traffic (1.4x
// slower on PCIe 2.0); without such a figure the profile's duplex factor
// gives it (thesis §6.4.4: two copies at once take (1 + d) times one).
LinkCost link(const LogGP& p, double contention = 1, double mapped_ns_per_byte = 0) {
    LinkCost c;
    c.latency = p.latency_ns * 1e-6;
    c.gap = p.gap_ns * 1e-6;
    c.per_byte = (mapped_ns_per_byte > 0 ? mapped_ns_per_byte : p.ns_per_byte * contention) * 1e-6;
    return c;
}

bool full_device_arrays(Scheme s) { return scheme_traits(s).inputs == recipe::Residence::WholeArray; }

// The advisor's name for a library host mode (recipe/scheme.h) of pageable arrays.
HostStrategy strategy_for(recipe::HostMemory m) {
    switch (m) {
        case recipe::HostMemory::Pinned: return HostStrategy::AlreadyPinned;
        case recipe::HostMemory::Register: return HostStrategy::Register;
        case recipe::HostMemory::Staged: return HostStrategy::Stage;
        case recipe::HostMemory::Pageable: return HostStrategy::PageableCopy;
    }
    throw std::logic_error("host memory mode without a host strategy");
}

std::string mb(std::int64_t bytes) {
    std::ostringstream os;
    os.precision(3);
    os << static_cast<double>(bytes) / 1e6 << " MB";
    return os.str();
}

// One array the host holds, for allocation and registration (an output
// that is also an input is one array).
std::vector<Model::HostArray> host_arrays(const Problem& p) {
    std::vector<Model::HostArray> out;
    std::set<std::string> seen;
    auto add = [&](const ArrayUse& a) {
        if (!a.name.empty() && !seen.insert(a.name).second) return;
        out.push_back({a.name, volume(a.extents) * a.elem_bytes});
    };
    for (const auto& a : p.inputs) add(a);
    for (const auto& a : p.outputs) add(a);
    return out;
}


}  // namespace

std::int64_t device_budget(const Platform& platform, const ModelOptions& options) {
    if (options.gpu_memory_bytes <= 0) return platform.device_memory_bytes;
    if (platform.device_memory_bytes <= 0) return options.gpu_memory_bytes;
    return std::min(options.gpu_memory_bytes, platform.device_memory_bytes);  // more than the GPU has is the GPU's
}

Model::Model(const Problem& problem, const Platform& platform, const ModelOptions& options)
    : problem_(problem), platform_(platform), options_(options), kernel_(problem, platform, options),
      host_arrays_(host_arrays(problem)) {
    pinned_ = options.host_memory ? *options.host_memory == HostMemory::Pinned : problem.pinned_host;
}

bool Model::normalise(Config* c, std::string* error) const {
    const Problem& p = problem_;
    const Index3 space = p.space.extents();
    auto fail = [&](const std::string& m) {
        if (error) *error = m;
        return false;
    };
    if (c->streams < 1 || c->streams > 1024) return fail("streams must be between 1 and 1024");
    if (p.time_steps > 1) {
        if (scheme_traits(c->scheme).time_loop == recipe::TimeLoop::AsBasic) {
            // The library keeps both arrays whole on the device in a time loop.
            c->scheme = Scheme::Basic;
        } else if (scheme_traits(c->scheme).time_loop == recipe::TimeLoop::Refused) {
            return fail(std::string("the ") + to_string(c->scheme) +
                        " scheme does not keep the arrays on the device between the time steps of an iterative "
                        "stencil; use basic or naive");
        }
    }
    if (recipe::reads_inputs_over_the_bus(c->scheme) && p.reads_twice)
        return fail("mapped memory fetches an element over PCIe every time it is read; this nest reads elements "
                    "more than once (a stencil of more than one point)");
    if (!scheme_traits(c->scheme).tiled) {
        c->tile = space;  // one tile; its copies follow config.copy, as in the library
        if (!recipe::copies_tiles(c->scheme)) c->copy = CopyMethod::Merged;
    } else {
        for (int d = 0; d < 3; ++d) {
            if (c->tile[d] < 1) return fail("tile size must be at least 1 in every dimension");
            if (d >= p.dims && c->tile[d] != 1)
                return fail("a " + std::to_string(p.dims) + "-dimensional nest takes a tile of " +
                            std::to_string(p.dims) + " size" + (p.dims > 1 ? "s" : ""));
            if (c->tile[d] > p.extents[d])
                return fail("tile " + format_tile(c->tile, p.dims) + " is larger than the arrays (" +
                            format_tile(p.extents, p.dims) + ") in dimension " + "xyz"[d]);
            // Like the library: a tile wider than the loops' space covers all of it.
            c->tile[d] = std::min(c->tile[d], space[d]);
        }
    }
    if (scheme_traits(c->scheme).stream_per_tile) {
        // seed 003 §5.6.1 and the library: every tile has a stream of its own.
        const TileGrid grid(p.extents, c->tile, p.space);
        if (grid.tile_count() > 1024)
            return fail("the " + std::string(to_string(c->scheme)) + " scheme gives every tile a stream; tile " +
                        format_tile(c->tile, p.dims) + " makes " + std::to_string(grid.tile_count()) +
                        " tiles (at most 1024)");
        c->streams = static_cast<int>(grid.tile_count());
    }
    std::string why;
    if (c->block == Index3{0, 0, 0}) {
        c->block = choose_block(p, platform_, c->tile, nullptr);
    } else if (block_occupancy(platform_, c->block, &why) <= 0) {
        return fail("thread block " + format_tile(c->block, 3) + ": " + why);
    }
    return true;
}

bool Model::predict(const Config& given, Prediction* out, std::string* error, bool explain) const {
    Config config = given;
    if (!normalise(&config, error)) return false;
    // The library's host memory modes (library/README.md): pinned arrays are
    // used as they are; pageable ones are registered, staged through pinned
    // buffers, or copied pageable, as the scheme's row allows
    // (recipe/scheme.h: streams and mapped memory need pinned).
    std::vector<HostStrategy> allowed;
    if (pinned_) {
        allowed = {HostStrategy::AlreadyPinned};
    } else {
        const recipe::SchemeTraits& t = scheme_traits(config.scheme);
        for (int i = 0; i < t.pageable_mode_count; ++i) allowed.push_back(strategy_for(t.pageable_modes[i]));
    }
    if (config.host) {
        if (std::find(allowed.begin(), allowed.end(), *config.host) == allowed.end()) {
            if (error)
                *error = std::string("host strategy '") + to_string(*config.host) + "' does not apply to the " +
                         to_string(config.scheme) + " scheme with " + (pinned_ ? "pinned" : "pageable") +
                         " host memory";
            return false;
        }
        allowed = {*config.host};
    }
    bool any = false;
    std::string first_error;
    for (HostStrategy h : allowed) {
        Prediction p;
        std::string e;
        if (!evaluate(config, h, &p, &e, explain)) {
            if (first_error.empty()) first_error = e;
            continue;
        }
        if (!any || p.total_ms < out->total_ms) *out = std::move(p);
        any = true;
    }
    if (!any && error) *error = first_error;
    if (any && explain && allowed.size() > 1)
        out->notes.push_back(std::string("host arrays are pageable: '") + to_string(out->host_strategy) +
                             "' was the cheapest way to copy them");
    return any;
}

bool Model::naive_baseline(Prediction* naive, std::string* error) const {
    bool any = false;
    for (CopyMethod m : {CopyMethod::Merged, CopyMethod::Strided, CopyMethod::RowByRow}) {
        Config c;
        c.scheme = Scheme::Naive;
        c.copy = m;
        Prediction p;
        // Until one fits, each failure's reason is kept (they agree: the copy
        // method changes no limit).
        if (predict(c, &p, any ? nullptr : error) && (!any || p.total_ms < naive->total_ms)) {
            *naive = std::move(p);
            any = true;
        }
    }
    return any;
}

namespace {

// Host-side packing: every row is a memcpy (a strided descriptor is split
// into its rows), at the staging table's rate times the threads' speed-up.
// The user's arrays are larger than any cache, so packing streams from
// memory: no faster than the table's largest copies (its last segment's
// ns per byte), whatever a small, cache-warm measurement says.
double host_copy_ms(const std::vector<CopyGroup>& groups, const Measurements& table, double speedup,
                    double row_ns, TransferStats* stats) {
    double ms = 0;
    std::int64_t bytes = 0;
    for (const CopyGroup& g : groups) {
        const std::int64_t rows = g.count * g.height * g.depth;
        ms += static_cast<double>(rows) * table.ms(static_cast<double>(g.width_bytes));
        bytes += rows * g.width_bytes;
        if (stats) {
            stats->bytes += rows * g.width_bytes;
            stats->copies += rows;
        }
    }
    const std::size_t n = table.ns.size();
    const double streaming_ns_per_byte =
        n >= 2 ? std::max(0.0, (table.ns[n - 1] - table.ns[n - 2]) / (table.bytes[n - 1] - table.bytes[n - 2])) : 0;
    ms = std::max(ms, static_cast<double>(bytes) * streaming_ns_per_byte * 1e-6);
    // Each row starts cold in a new page of the user's array (hostCopyRowNs,
    // measured from the library's staging: 10^6 rows of 512 B packed at half
    // the rate of the same bytes in whole rows).
    std::int64_t rows = 0;
    for (const CopyGroup& g : groups) rows += g.count * g.height * g.depth;
    ms += static_cast<double>(rows) * row_ns * 1e-6;
    return ms / std::max(1.0, speedup);
}

// Host-side packing priced by the library's own staged pipeline (profile
// "stagingTile": a staged run's time per tile, so the copy engines slowed by
// the packing, which shares the host's memory with them, are in it): each
// group's bytes at the rate of a tile box of its size, plus "stagingRowNs"
// per row. This makes the host the staged pipeline's pace, as measured.
double library_staging_ms(const std::vector<CopyGroup>& groups, const Platform& pf, TransferStats* stats) {
    double ms = 0;
    for (const CopyGroup& g : groups) {
        const std::int64_t rows = g.count * g.height * g.depth;
        const double box_bytes = static_cast<double>(g.width_bytes * g.height * g.depth);
        const double pair_ms = pf.staging_tile.ms(box_bytes);  // pack + unpack of one such box
        ms += static_cast<double>(rows * g.width_bytes) * (box_bytes > 0 ? pair_ms / (2 * box_bytes) : 0) +
              static_cast<double>(rows) * pf.staging_row_ns * 1e-6;
        if (stats) {
            stats->bytes += rows * g.width_bytes;
            stats->copies += rows;
        }
    }
    return ms;
}

std::int64_t aligned(std::int64_t bytes) { return (bytes + 255) / 256 * 256; }

// thesis §6.4.4's duplex factor as the library's pinned pipeline meets it,
// for tiles copying `bytes` each way: the profile's "pipelineTile" (a pinned
// run's steady time per tile, one input and one output tile of b bytes)
// beyond the longer copy, over the shorter one, both priced from the copy
// tables as the model prices a tile's copies. On an H200 tiles of a few MB
// going both ways slow each other more than two whole-array copies do
// (docs/model.md, "Schemes").
double pipeline_duplex(const Platform& pf, double bytes) {
    if (pf.pipeline_tile.empty() || bytes <= 0) return pf.duplex_factor;
    // Below the smallest tile measured, that tile's factor: the table's
    // first time held constant would say that small copies never overlap.
    bytes = std::max(bytes, pf.pipeline_tile.bytes.front());
    const double in = pf.pinned_host_to_device.ms(bytes), out = pf.device_to_pinned_host.ms(bytes);
    if (std::min(in, out) <= 0) return pf.duplex_factor;
    return std::clamp((pf.pipeline_tile.ms(bytes) - std::max(in, out)) / std::min(in, out), 0.0, 1.0);
}

}  // namespace

const TileClasses& Model::classes(const Index3& tile) const {
    if (!classes_ || classes_key_ != tile) {
        classes_ = std::make_unique<TileClasses>(classify_tiles(problem_, tile));
        classes_key_ = tile;
    }
    return *classes_;
}

const std::vector<Model::ClassCost>& Model::class_costs(const Config& config, HostStrategy host,
                                                       double occupancy) const {
    const CostKey key{config.tile, config.scheme, config.copy, host, config.block};
    for (const auto& e : cost_cache_)
        if (e.key == key) return e.costs;
    if (cost_cache_.size() < 6) cost_cache_.emplace_back();
    CostEntry& entry = cost_cache_.size() < 6 ? cost_cache_.back() : cost_cache_[cost_next_++ % 6];
    entry.key = key;
    const Problem& p = problem_;
    const Platform& pf = platform_;
    const Scheme scheme = config.scheme;
    const bool thesis = options_.thesis_library;
    const bool pageable_copies = host == HostStrategy::PageableCopy;
    const bool packs = scheme_traits(scheme).packs_tiles;
    const bool staging = packs || host == HostStrategy::Stage;
    const Measurements& h2d_table = pageable_copies ? pf.pageable_host_to_device : pf.pinned_host_to_device;
    const Measurements& d2h_table = pageable_copies ? pf.device_to_pageable_host : pf.device_to_pinned_host;
    // Packing reads or writes the user's array: pinned (or registered) or pageable.
    const Measurements& stage_table =
        (pinned_ || host == HostStrategy::Register) ? pf.pinned_host_to_pinned_host : pf.pageable_to_pinned_host;
    const double pack_speedup = thesis ? 1.0 : pf.host_copy_parallel_speedup;
    const TileClasses& tc = classes(config.tile);
    // Full-size device arrays send halo shared with earlier tiles once.
    const bool full_layout = full_device_arrays(scheme);
    const bool sends_fresh =
        full_layout && scheme_traits(scheme).pipelined && !(thesis && scheme_traits(scheme).in_thesis_library);
    // thesis §6.2.3: buffered packs so that the device copy is one piece.
    const CopyMethod device_method = packs ? CopyMethod::Merged : config.copy;

    // Per tile class: its copies (as copy_groups_for decides), staging and kernel.
    std::vector<ClassCost>& costs = entry.costs;
    costs.clear();
    costs.reserve(tc.classes.size());
    for (const TileClass& c : tc.classes) {
        ClassCost cc;
        cc.count = c.count;
        // One array's box between the host and its device placement.
        auto move = [&](const ArrayUse& a, const Index3& box, const Index3& placement, bool in) {
            const Measurements& table = in ? h2d_table : d2h_table;
            TransferStats* stats = in ? &cc.in : &cc.out;
            double& device_ms = in ? cc.t.in : cc.t.out;
            if (!staging) {
                device_ms += price(copy_groups_for(box_of(box), a.extents, DeviceLayout{{0, 0, 0}, placement},
                                                   a.elem_bytes, config.copy),
                                   table, pf.strided_copy, stats);
                return;
            }
            // Staged (library README): pack the box densely into a pinned
            // buffer on the host, then copy the packed box to its placement.
            const auto host_groups =
                copy_groups_for(box_of(box), a.extents, DeviceLayout{{0, 0, 0}, box}, a.elem_bytes, config.copy);
            (in ? cc.t.buffer_in : cc.t.buffer_out) +=
                !thesis && !pf.staging_tile.empty()
                    ? library_staging_ms(host_groups, pf, &cc.staged)
                    : host_copy_ms(host_groups, stage_table, pack_speedup, thesis ? 0.0 : pf.host_copy_row_ns, &cc.staged);
            const Index3 device_extents = packs ? box : placement;
            device_ms += price(copy_groups_for(box_of(box), box, DeviceLayout{{0, 0, 0}, device_extents}, a.elem_bytes,
                                               device_method),
                               table, pf.strided_copy, stats);
        };
        for (std::size_t i = 0; i < p.inputs.size(); ++i) {
            const ArrayUse& a = p.inputs[i];
            move(a, sends_fresh ? c.fresh[i] : c.padded[i], full_layout ? a.extents : tc.input_buffers[i], true);
        }
        for (const ArrayUse& a : p.outputs) {
            const Index3 placement = full_layout ? a.extents : tc.tile;
            if (a.copy_in) move(a, c.core, placement, true);  // inout: its own points come in first
            if (recipe::maps_host_memory(scheme)) {
                // Written through mapped memory by the kernel: the tile's
                // bytes cross the link at the mapped rate (seed 003 §5.6.1).
                if (!thesis) {
                    const double per_byte = pf.mapped_ns_per_byte > 0 ? pf.mapped_ns_per_byte
                                                                      : pf.loggp_device_to_host.ns_per_byte;
                    const std::int64_t b = volume(c.core) * a.elem_bytes;
                    cc.t.out += static_cast<double>(b) * per_byte * 1e-6;
                    cc.out.bytes += b;
                }
                continue;
            }
            move(a, c.core, placement, false);
        }
        cc.t.kernel = kernel_.launch_ms(volume(c.core), occupancy);
        // The issuing thread: every copy, the launch, and an event record
        // and wait per tile. The thesis's model has no such bound.
        if (!thesis)
            cc.t.issue = static_cast<double>(cc.in.copies + cc.out.copies + 3) * pf.async_call_ns * 1e-6;
        costs.push_back(cc);
    }

    return costs;
}

bool Model::evaluate(const Config& config, HostStrategy host, Prediction* out, std::string* error,
                     bool explain) const {
    const Problem& p = problem_;
    const Platform& pf = platform_;
    const Scheme scheme = config.scheme;
    const bool thesis = options_.thesis_library;
    Prediction pred;
    pred.config = config;
    pred.config.host = host;
    if (explain) pred.problem = p;
    else pred.problem.dims = p.dims;
    pred.host_strategy = host;
    pred.kernel_source = kernel_.source();
    if (explain) {
        pred.kernel_note = kernel_.description();
        pred.notes.push_back(pred.kernel_note);
    }
    pred.occupancy = block_occupancy(pf, config.block, nullptr);

    const bool pageable_copies = host == HostStrategy::PageableCopy;
    const bool staging = scheme_traits(scheme).packs_tiles || host == HostStrategy::Stage;
    const TileClasses& tc = classes(config.tile);
    pred.tiles = tc.tiles;
    const std::int64_t streams_used = !scheme_traits(scheme).pipelined
                                          ? 1
                                          : (thesis ? config.streams : std::min<std::int64_t>(config.streams, tc.tiles));

    const std::vector<ClassCost>& costs = class_costs(config, host, pred.occupancy);

    std::vector<WeightedSteps> weighted;
    weighted.reserve(costs.size());
    for (const auto& cc : costs) weighted.push_back({cc.t, cc.count});
    const StepTimes& first = costs[static_cast<std::size_t>(tc.first)].t;
    const StepTimes& last = costs[static_cast<std::size_t>(tc.last)].t;

    // Totals over all tiles.
    double max_in = 0, max_out = 0, kernel_sum = 0, max_kernel = 0;
    TransferStats staged;
    for (const auto& cc : costs) {
        const double n = static_cast<double>(cc.count);
        pred.h2d.bytes += cc.count * cc.in.bytes;
        pred.h2d.copies += cc.count * cc.in.copies;
        pred.d2h.bytes += cc.count * cc.out.bytes;
        pred.d2h.copies += cc.count * cc.out.copies;
        staged.bytes += cc.count * cc.staged.bytes;
        staged.copies += cc.count * cc.staged.copies;
        pred.phases.h2d += n * cc.t.in;
        pred.phases.d2h += n * cc.t.out;
        pred.phases.staging += n * (cc.t.buffer_in + cc.t.buffer_out);
        kernel_sum += n * cc.t.kernel;
        max_kernel = std::max(max_kernel, cc.t.kernel);
        max_in = std::max(max_in, static_cast<double>(cc.in.bytes));
        max_out = std::max(max_out, static_cast<double>(cc.out.bytes));
    }
    pred.phases.kernel = kernel_sum;
    std::int64_t all_out_bytes = 0, all_in_bytes = 0;
    for (const auto& a : p.outputs) all_out_bytes += volume(p.space.extents()) * a.elem_bytes;
    for (const auto& a : p.inputs) all_in_bytes += volume(a.extents) * a.elem_bytes;

    PipelineShape shape;
    // Pageable copies go through the driver's staging on the host thread:
    // the two directions cannot overlap each other.
    shape.copy_engines = pageable_copies ? 1 : pf.copy_engines;
    shape.duplex_factor = pf.duplex_factor;
    // The most common tile: its copies set the duplex factor, its steps the timeline.
    const ClassCost* typical = &costs.front();
    for (const auto& cc : costs)
        if (cc.count > typical->count) typical = &cc;
    if (!thesis && !staging && !pageable_copies) {
        shape.duplex_factor =
            pipeline_duplex(pf, static_cast<double>(typical->in.bytes + typical->out.bytes) / 2);
    }
    shape.buffers = static_cast<int>(std::max<std::int64_t>(1, streams_used));
    shape.streams_in_order = !thesis;
    shape.serial_host = !thesis;
    shape.engine_floors = !thesis;

    const double whole_kernel = kernel_.launch_ms(volume(p.space.extents()), pred.occupancy);
    const std::int64_t steps = std::max<std::int64_t>(1, p.time_steps);
    double pipeline = 0;
    switch (scheme) {
        case Scheme::Naive:
            // thesis §6.2.1: everything in, the kernel (every step), everything out.
            pipeline = first.buffer_in + first.in + static_cast<double>(steps) * first.kernel + first.out + first.buffer_out;
            pred.phases.kernel = static_cast<double>(steps) * first.kernel;
            break;
        case Scheme::Basic:
        case Scheme::Scalable:
        case Scheme::Buffered:
            if (steps > 1) {
                // Iterative stencil (library iterate): the arrays stay on the
                // device; step 1's kernels overlap the copies in, the last
                // step's the copies out, the steps between are whole-space
                // launches.
                const StepTimes& f = first;
                pipeline = two_stage_pipeline(weighted, f, last, &StepTimes::in, &StepTimes::kernel) +
                           static_cast<double>(steps - 2) * whole_kernel +
                           two_stage_pipeline(weighted, f, last, &StepTimes::kernel, &StepTimes::out);
                pred.phases.kernel = 2 * kernel_sum + static_cast<double>(steps - 2) * whole_kernel;
                if (staging) pipeline += pred.phases.staging;  // packing is not overlapped in this model
                if (explain) pred.notes.push_back("iterative stencil: " + std::to_string(steps) +
                                     " steps on the device; copies overlap only the first and the last step");
                pred.startup_steps = 2;
            } else if (staging) {
                pipeline = thesis_buffered_pipeline(weighted, first, last, shape);  // thesis §6.4.4, buffered
                pred.startup_steps = 4;
            } else {
                pipeline = thesis_pipeline(weighted, first, last, shape);  // thesis §6.4.4
                pred.startup_steps = 2;
            }
            break;
        case Scheme::Streams:
        case Scheme::Hybrid:
            if (!thesis) {
                // Our library runs both as basic with a stream per tile
                // (library/README.md), issuing exactly the copies priced per
                // tile above, so the thesis's pipeline prices them (§6.4.4)
                // with one buffer per tile. Hybrid's output step is the
                // kernel's mapped writes; they share the link with the
                // copies in without overlapping them (measured on an H200:
                // hybrid's total is the copies in plus the mapped writes,
                // docs/results-h200.md), as on one copy engine.
                PipelineShape ps = shape;
                if (recipe::maps_host_memory(scheme)) ps.copy_engines = 1;
                pipeline = thesis_pipeline(weighted, first, last, ps);
                pred.startup_steps = 2;
                if (explain)
                    pred.notes.push_back("pipeline: thesis §6.4.4 with a stream per tile (" + std::to_string(tc.tiles) +
                                         " streams), every copy the library issues priced");
                break;
            }
        {
            // The thesis-library mode keeps seed 003's LogGP formulas.
            StreamsInput si;
            si.bytes_in = static_cast<double>(pred.h2d.bytes);
            si.max_bytes_in = max_in;
            si.kernel = kernel_sum;
            si.max_kernel = max_kernel;
            si.streams = static_cast<int>(tc.tiles);
            // Both directions overlap in eq. 5.5 (two engines, or mapped output).
            const bool both = recipe::maps_host_memory(scheme) || (!pf.implicit_synchronization && pf.copy_engines >= 2);
            const double contention = both ? 1 + pf.duplex_factor : 1;
            si.hd = link(pf.loggp_host_to_device, contention);
            StreamsEquation eq;
            if (!recipe::maps_host_memory(scheme)) {
                si.bytes_out = static_cast<double>(pred.d2h.bytes);
                si.max_bytes_out = max_out;
                si.dh = link(pf.loggp_device_to_host, contention);
                pipeline = streams_model(si, pf.implicit_synchronization, pf.copy_engines, &eq);
            } else {
                // seed 003 §5.6.1: output through mapped memory, modelled
                // with eq. 5.5 on every device.
                si.bytes_out = static_cast<double>(all_out_bytes);
                si.max_bytes_out = static_cast<double>(all_out_bytes) / static_cast<double>(tc.tiles);
                si.dh = link(pf.loggp_device_to_host, contention, pf.mapped_ns_per_byte);
                pipeline = streams_model(si, false, 2, &eq);
                pred.d2h.bytes = all_out_bytes;
                pred.phases.d2h = si.bytes_out * si.dh.per_byte;
            }
            if (explain) pred.notes.push_back(std::string("pipeline: ") + to_string(eq) + " with " + std::to_string(tc.tiles) +
                                 " streams (LogGP copy costs)");
            break;
        }
        case Scheme::Mapped: {
            const double contention = 1 + pf.duplex_factor;  // eq. 5.6: both directions at once
            const LinkCost hd = link(pf.loggp_host_to_device, contention, pf.mapped_ns_per_byte);
            const LinkCost dh = link(pf.loggp_device_to_host, contention, pf.mapped_ns_per_byte);
            pipeline = mapped_model(static_cast<double>(all_in_bytes), static_cast<double>(all_out_bytes), whole_kernel,
                                    hd, dh);  // seed 003 eq. 5.6
            pred.h2d = {all_in_bytes, 0};
            pred.d2h = {all_out_bytes, 0};
            pred.phases.h2d = static_cast<double>(all_in_bytes) * hd.per_byte;
            pred.phases.d2h = static_cast<double>(all_out_bytes) * dh.per_byte;
            pred.phases.kernel = whole_kernel;
            if (explain) pred.notes.push_back("pipeline: seed 003 eq. 5.6 (device-mapped host memory)");
            break;
        }
    }

    // An iterative stencil's written array needs its boundary frame (inside
    // the halo, outside the space) on the device before step 2 (only
    // schemes that run in a time loop get here: normalise()).
    if (steps > 1) {
        for (const ArrayUse& o : p.outputs) {
            if (!o.exchanged) continue;
            Box reach = p.space;
            Halo h;  // the pair's halo: the widest reach of the inputs
            for (const auto& in : p.inputs)
                for (int d = 0; d < 3; ++d) {
                    h.lo[d] = std::max(h.lo[d], in.halo.lo[d]);
                    h.hi[d] = std::max(h.hi[d], in.halo.hi[d]);
                }
            for (int d = 0; d < 3; ++d) {
                reach.begin[d] = std::max<std::int64_t>(0, p.space.begin[d] - h.lo[d]);
                reach.end[d] = std::min(o.extents[d], p.space.end[d] + h.hi[d]);
            }
            for (const Box& b : frame_boxes(reach, p.space)) {
                TransferStats st;
                const double ms = price(copy_groups_for(b, o.extents, DeviceLayout{{0, 0, 0}, o.extents}, o.elem_bytes,
                                                        config.copy),
                                        pf.pinned_host_to_device, pf.strided_copy, &st);
                pipeline += ms;
                pred.phases.h2d += ms;
                pred.h2d.bytes += st.bytes;
                pred.h2d.copies += st.copies;
            }
        }
    }
    pred.phases.pipeline = pipeline;

    // thesis §6.4.1: what each scheme allocates. The mallocFree tables time
    // an allocation and its free together.
    std::vector<std::int64_t> device_allocs, host_allocs;
    const auto& arrays = host_arrays_;
    auto tile_buffers = [&](std::vector<std::int64_t>* into) {
        for (std::int64_t b = 0; b < streams_used; ++b) {
            for (std::size_t i = 0; i < p.inputs.size(); ++i)
                into->push_back(volume(tc.input_buffers[i]) * p.inputs[i].elem_bytes);
            for (const auto& a : p.outputs) into->push_back(volume(tc.tile) * a.elem_bytes);
        }
    };
    const recipe::SchemeTraits& traits = scheme_traits(scheme);
    if (traits.inputs == recipe::Residence::WholeArray && traits.outputs == recipe::Residence::WholeArray) {
        for (const auto& a : arrays) device_allocs.push_back(a.bytes);
    } else if (traits.inputs == recipe::Residence::WholeArray) {
        for (const auto& a : p.inputs) device_allocs.push_back(volume(a.extents) * a.elem_bytes);
    } else if (traits.inputs == recipe::Residence::TileBuffers) {
        tile_buffers(&device_allocs);  // per stream, padded for inputs
    }
    if (staging) tile_buffers(&host_allocs);
    if (thesis) {
        // The 2012 library: one allocation per buffer (thesis §6.4.1).
        for (auto b : device_allocs) pred.phases.alloc += pf.malloc_free_device.ms(static_cast<double>(b));
        for (auto b : host_allocs) pred.phases.alloc += pf.malloc_free_host.ms(static_cast<double>(b));
        for (auto b : device_allocs) pred.device_bytes += b;
        for (auto b : host_allocs) pred.host_bytes += b;
    } else {
        // Ours (library/README.md, detail/resources.cuh): one cudaMalloc, 256-byte
        // aligned parts; staging buffers in one page-aligned host block
        // (aligned_alloc, rounded up to 4096 bytes) that cudaHostRegister
        // page-locks and cudaHostUnregister releases at the end.
        for (auto b : device_allocs) pred.device_bytes += aligned(b);
        for (auto b : host_allocs) pred.host_bytes += aligned(b);
        if (pred.host_bytes > 0) pred.host_bytes = (pred.host_bytes + 4095) / 4096 * 4096;
        if (!pf.library_setup.empty()) {
            // The library's alloc phase as recipe-profile measured it: a
            // one-stream run with a device block of this size, then each
            // further stream.
            const double block = std::max(static_cast<double>(pred.device_bytes), pf.library_setup.bytes.front());
            pred.phases.alloc += pf.library_setup.ms(block) +
                                 static_cast<double>(std::max<std::int64_t>(0, streams_used - 1)) * pf.stream_setup_ns * 1e-6;
        } else {
            if (pred.device_bytes > 0)
                pred.phases.alloc += pf.malloc_free_device.ms(static_cast<double>(pred.device_bytes));
            // Estimated from the library's alloc phase: the run's own setup
            // and teardown, and a stream with its events per stream in flight.
            pred.phases.alloc += (pf.run_setup_ns + static_cast<double>(streams_used) * pf.stream_setup_ns) * 1e-6;
        }
        // The staging block and threads stay in the library's pool between
        // runs (detail/pool.cuh): a warm run pays neither; the program's
        // first run does (first_call_extra_ms, advisor/program_time.cpp).
        // A profile without the library's measured costs prices the block's
        // registration per run, as the library did before it pooled.
        if (pred.host_bytes > 0 && pf.staging_setup.empty())
            pred.phases.alloc += pf.host_register.ms(static_cast<double>(pred.host_bytes)) +
                                 pf.host_unregister.ms(static_cast<double>(pred.host_bytes));
    }
    if (host == HostStrategy::Register) {
        for (const auto& a : arrays) {
            pred.phases.host_register += pf.host_register.ms(static_cast<double>(a.bytes));
            pred.phases.host_unregister += pf.host_unregister.ms(static_cast<double>(a.bytes));
        }
    }
    if (const std::int64_t budget = device_budget(pf, options_); budget > 0 && pred.device_bytes > budget) {
        if (error)
            *error = std::string("the ") + to_string(scheme) + " scheme with tile " + format_tile(config.tile, p.dims) +
                     " needs " + mb(pred.device_bytes) + " of device memory; " +
                     (options_.gpu_memory_bytes > 0 ? std::string("--gpu-memory allows ") : pf.name + " has ") + mb(budget);
        return false;
    }

    // Inputs read whole are copied once before the tiles, synchronously: a
    // device allocation and one copy each, not overlapped with anything.
    for (const auto& w : p.whole_inputs) {
        const double bytes = static_cast<double>(volume(w.extents) * w.elem_bytes);
        pred.phases.alloc += pf.malloc_free_device.ms(bytes);
        pred.phases.whole_in += (host == HostStrategy::AlreadyPinned ? pf.pinned_host_to_device : pf.pageable_host_to_device).ms(bytes);
        pred.device_bytes += static_cast<std::int64_t>(bytes);
    }
    pred.total_ms = pred.phases.alloc + pred.phases.free + pred.phases.host_register + pred.phases.host_unregister +
                    pred.phases.whole_in + pipeline;

    // The operation that sets the pace.
    const std::pair<double, Operation> busy[] = {{pred.phases.h2d, Operation::TransferIn},
                                                 {pred.phases.kernel, Operation::Kernel},
                                                 {pred.phases.d2h, Operation::TransferOut},
                                                 {pred.phases.staging, Operation::Staging}};
    double top = -1;
    for (const auto& [t, op] : busy)
        if (t > top) {
            top = t;
            pred.dominant = op;
        }
    if (pred.phases.alloc + pred.phases.host_register + pred.phases.host_unregister > top)
        pred.dominant = Operation::Setup;
    if (explain && staged.copies > 0)
        pred.notes.push_back("host packing: " + std::to_string(staged.copies) + " memcpy of " + mb(staged.bytes) +
                             " in all");

    pred.typical_tile = {typical->t.buffer_in, typical->t.in, typical->t.kernel, typical->t.out, typical->t.buffer_out};
    if (recipe::maps_host_memory(scheme))
        pred.typical_tile.transfer_out = pred.phases.d2h / static_cast<double>(tc.tiles);
    if (!recipe::copies_tiles(scheme)) pred.typical_tile = {0, pred.phases.h2d, pred.phases.kernel, pred.phases.d2h, 0};

    *out = std::move(pred);
    return true;
}

}  // namespace recipe::advisor
