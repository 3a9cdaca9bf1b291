// The performance model of every scheme (model.h): the configuration
// normalised, its host strategy chosen, then priced in named steps. Sources
// per formula in pipeline.h and copy_costs.h; which copies a tile makes comes
// from recipe/tile_geometry.h (copy_groups_for, the same decisions
// copies_for makes for the library); what the library does its own way from
// library_pricing.h.
#include "advisor/model.h"

#include <algorithm>
#include <set>
#include <sstream>
#include <stdexcept>

#include "advisor/copy_costs.h"
#include "advisor/pipeline.h"
#include "advisor/sizes.h"
#include "advisor/tile_classes.h"

namespace recipe::advisor {

namespace {


Box box_of(const Index3& extents) {
    Box b;
    b.end = extents;
    return b;
}

bool full_device_arrays(Scheme s) { return scheme_traits(s).inputs == recipe::Residence::WholeArray; }

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
    : problem_(problem), platform_(platform), options_(options),
      library_(options.library ? *options.library : our_library()), kernel_(problem, platform, options),
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

// The library's host memory modes (library/README.md): pinned arrays are
// used as they are; pageable ones are registered, staged through pinned
// buffers, or copied pageable, as the scheme's row allows (recipe/scheme.h:
// streams and mapped memory need pinned), in the row's order.
std::vector<HostStrategy> Model::host_strategies(const Config& config) const {
    if (pinned_) return {HostStrategy::Pinned};
    std::vector<HostStrategy> allowed;
    const recipe::SchemeTraits& t = scheme_traits(config.scheme);
    for (int i = 0; i < t.pageable_mode_count; ++i) allowed.push_back(t.pageable_modes[i]);  // HostStrategy is the library's HostMemory
    return allowed;
}

bool Model::predict(const Config& given, Prediction* out, std::string* error, bool explain) const {
    Config config = given;
    if (!normalise(&config, error)) return false;
    std::vector<HostStrategy> allowed = host_strategies(config);
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
        c.streams = 1;  // one copy in, one kernel, one copy out
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

const TileClasses& Model::classes(const Index3& tile) const {
    if (!classes_ || classes_key_ != tile) {
        classes_ = std::make_unique<TileClasses>(classify_tiles(problem_, tile));
        classes_key_ = tile;
    }
    return *classes_;
}

// ---- Step 1: copy costs, per tile class.

// How one configuration's copies travel: decided once, used for every tile class.
struct Model::CopyRoute {
    const Measurements* h2d_table = nullptr;
    const Measurements* d2h_table = nullptr;
    const Measurements* stage_table = nullptr;  // packing from or into the user's array
    bool staging = false;         // through pinned buffers packed on the host
    bool packs_tiles = false;     // buffered: the device side is the packed box, one piece
    bool whole_arrays = false;    // full-size device arrays
    bool sends_fresh = false;     // halo shared with earlier tiles sent once
    bool mapped_outputs = false;  // the kernel writes the outputs into host memory
    bool page_locked = true;      // the copies' DMA reaches the user's array itself (pinned or registered)
    CopyMethod copy = CopyMethod::Merged;
    CopyMethod device_method = CopyMethod::Merged;
    int streams = 1;  // tile buffer sets in flight (staged packing's table); 0 when nothing is packed
};

const std::vector<Model::ClassCost>& Model::class_costs(const Config& config, HostStrategy host,
                                                       double occupancy) const {
    const recipe::SchemeTraits& traits = scheme_traits(config.scheme);
    // Packing is priced by the buffer sets the run keeps (as evaluate counts
    // them: one for a scheme that does not pipeline, at most one per tile);
    // other runs share one entry over the stream counts the search tries.
    const bool packed = traits.packs_tiles || host == HostStrategy::Staged;
    const int buffers = !packed ? 0
                        : traits.pipelined
                            ? static_cast<int>(library_.streams_used(config.streams, classes(config.tile).tiles))
                            : 1;
    const CostKey key{config.tile, config.scheme, config.copy, host, config.block, buffers};
    for (const auto& e : cost_cache_)
        if (e.key == key) return e.costs;
    if (cost_cache_.size() < 6) cost_cache_.emplace_back();
    CostEntry& entry = cost_cache_.size() < 6 ? cost_cache_.back() : cost_cache_[cost_next_++ % 6];
    entry.key = key;
    const Platform& pf = platform_;
    const bool pageable_copies = host == HostStrategy::Pageable;
    CopyRoute route;
    route.h2d_table = pageable_copies ? &pf.pageable_host_to_device : &pf.pinned_host_to_device;
    route.d2h_table = pageable_copies ? &pf.device_to_pageable_host : &pf.device_to_pinned_host;
    // Packing reads or writes the user's array: pinned (or registered) or pageable.
    route.stage_table =
        (pinned_ || host == HostStrategy::Register) ? &pf.pinned_host_to_pinned_host : &pf.pageable_to_pinned_host;
    route.packs_tiles = traits.packs_tiles;
    route.staging = traits.packs_tiles || host == HostStrategy::Staged;
    // Full-size device arrays send halo shared with earlier tiles once.
    route.whole_arrays = full_device_arrays(config.scheme);
    route.sends_fresh = route.whole_arrays && library_.sends_shared_halo_once(config.scheme);
    route.mapped_outputs = recipe::maps_host_memory(config.scheme);
    route.page_locked = !pageable_copies;
    route.copy = config.copy;
    route.streams = buffers;
    // thesis §6.2.3: buffered packs so that the device copy is one piece.
    route.device_method = traits.packs_tiles ? CopyMethod::Merged : config.copy;

    const TileClasses& tc = classes(config.tile);
    std::vector<ClassCost>& costs = entry.costs;
    costs.clear();
    costs.reserve(tc.classes.size());
    for (const TileClass& c : tc.classes) costs.push_back(class_cost(c, tc, route, occupancy));
    return costs;
}

// One tile of a class: its copies (as copy_groups_for decides), staging and kernel.
Model::ClassCost Model::class_cost(const TileClass& c, const TileClasses& tc, const CopyRoute& route,
                                   double occupancy) const {
    const Problem& p = problem_;
    ClassCost cc;
    cc.count = c.count;
    for (std::size_t i = 0; i < p.inputs.size(); ++i) {
        const ArrayUse& a = p.inputs[i];
        move_box(a, route.sends_fresh ? c.fresh[i] : c.padded[i], route.whole_arrays ? a.extents : tc.input_buffers[i],
                 true, route, &cc);
    }
    for (const ArrayUse& a : p.outputs) {
        const Index3 placement = route.whole_arrays ? a.extents : tc.tile;
        if (a.copy_in) move_box(a, c.core, placement, true, route, &cc);  // inout: its own points come in first
        if (route.mapped_outputs) {
            // Written through mapped memory by the kernel (seed 003 §5.6.1).
            library_.mapped_writes(volume(c.core) * a.elem_bytes, platform_, &cc.t.out, &cc.out);
            continue;
        }
        move_box(a, c.core, placement, false, route, &cc);
    }
    cc.t.kernel = kernel_.launch_ms(volume(c.core), occupancy);
    cc.t.issue = library_.issue_ms(cc.in.copies + cc.out.copies, platform_);
    return cc;
}

// One array's box between the host and its device placement.
void Model::move_box(const ArrayUse& a, const Index3& box, const Index3& placement, bool in, const CopyRoute& route,
                     ClassCost* cc) const {
    const Platform& pf = platform_;
    const Measurements& table = in ? *route.h2d_table : *route.d2h_table;
    TransferStats* stats = in ? &cc->in : &cc->out;
    double& device_ms = in ? cc->t.in : cc->t.out;
    if (!route.staging) {
        const auto groups =
            copy_groups_for(box_of(box), a.extents, DeviceLayout{{0, 0, 0}, placement}, a.elem_bytes, route.copy);
        // The split-line cost is measured with DMA into page-locked rows;
        // pageable copies go through the driver's own buffers.
        if (in || !route.page_locked || !host_rows_split_lines(box, a.extents, a.elem_bytes)) {
            device_ms += price_copies(groups, table, pf.strided_copy, stats);
            return;
        }
        // Copies out into the user's array whose rows begin or end inside a
        // host cache line: their own per-row cost, and more beside copies in.
        const StridedCopyCost& sc = pf.strided_copy;
        StridedCopyCost partial = sc;
        partial.per_row_ns = std::max(sc.per_row_ns, sc.out_partial_line_row_ns);
        device_ms += price_copies(groups, table, partial, stats);
        const double beside_row_ns = std::max(0.0, sc.out_partial_line_beside_row_ns - partial.per_row_ns);
        for (const CopyGroup& g : groups)
            if (g.rank() > 1) cc->t.out_beside += static_cast<double>(g.count * g.height * g.depth) * beside_row_ns * 1e-6;
        return;
    }
    // Staged (library README): pack the box densely into a pinned buffer on
    // the host, then copy the packed box to its placement.
    const auto host_groups =
        copy_groups_for(box_of(box), a.extents, DeviceLayout{{0, 0, 0}, box}, a.elem_bytes, route.copy);
    (in ? cc->t.buffer_in : cc->t.buffer_out) += library_.packing_ms(host_groups, *route.stage_table, pf, route.streams, &cc->staged);
    const Index3 device_extents = route.packs_tiles ? box : placement;
    device_ms += price_copies(
        copy_groups_for(box_of(box), box, DeviceLayout{{0, 0, 0}, device_extents}, a.elem_bytes, route.device_method),
        table, pf.strided_copy, stats);
}

// ---- The configuration being priced, from step to step.

struct Model::Evaluation {
    Config config;
    HostStrategy host = HostStrategy::Pinned;
    bool explain = true;
    const TileClasses* tc = nullptr;
    const std::vector<ClassCost>* costs = nullptr;
    const ClassCost* typical = nullptr;  // the most common tile: its copies set the duplex factor, its steps the timeline
    std::int64_t streams_used = 1;
    bool pageable_copies = false;
    TransferStats staged;   // host packing over the run
    TilePipeline pipe;      // the tiles as the pipeline formulas take them
    double pipeline = 0;    // the overlapped part, ms
    Prediction pred;
};

// ---- Step 2: the tiles summed.

void Model::sum_tiles(Evaluation* ev) const {
    const Problem& p = problem_;
    Prediction& pred = ev->pred;
    TileTotals& totals = ev->pipe.totals;
    const std::vector<ClassCost>& costs = *ev->costs;
    ev->pipe.weighted.reserve(costs.size());
    for (const auto& cc : costs) ev->pipe.weighted.push_back({cc.t, cc.count});
    ev->pipe.first = costs[static_cast<std::size_t>(ev->tc->first)].t;
    ev->pipe.last = costs[static_cast<std::size_t>(ev->tc->last)].t;
    for (const auto& cc : costs) {
        const double n = static_cast<double>(cc.count);
        pred.h2d.bytes += cc.count * cc.in.bytes;
        pred.h2d.copies += cc.count * cc.in.copies;
        pred.d2h.bytes += cc.count * cc.out.bytes;
        pred.d2h.copies += cc.count * cc.out.copies;
        ev->staged.bytes += cc.count * cc.staged.bytes;
        ev->staged.copies += cc.count * cc.staged.copies;
        pred.phases.h2d += n * cc.t.in;
        pred.phases.d2h += n * cc.t.out;
        pred.phases.staging += n * (cc.t.buffer_in + cc.t.buffer_out);
        totals.kernel_sum += n * cc.t.kernel;
        totals.max_kernel = std::max(totals.max_kernel, cc.t.kernel);
        totals.max_in_bytes = std::max(totals.max_in_bytes, static_cast<double>(cc.in.bytes));
        totals.max_out_bytes = std::max(totals.max_out_bytes, static_cast<double>(cc.out.bytes));
    }
    pred.phases.kernel = totals.kernel_sum;
    for (const auto& a : p.outputs) totals.all_out_bytes += volume(p.space.extents()) * a.elem_bytes;
    for (const auto& a : p.inputs) totals.all_in_bytes += volume(a.extents) * a.elem_bytes;
    totals.whole_kernel = kernel_.launch_ms(volume(p.space.extents()), pred.occupancy);
    totals.steps = std::max<std::int64_t>(1, p.time_steps);
    ev->typical = &costs.front();
    for (const auto& cc : costs)
        if (cc.count > ev->typical->count) ev->typical = &cc;
}

// ---- Step 3: the pipeline.

void Model::shape_pipeline(Evaluation* ev) const {
    const Platform& pf = platform_;
    PipelineShape& shape = ev->pipe.shape;
    // Pageable copies go through the driver's staging on the host thread:
    // the two directions cannot overlap each other.
    shape.copy_engines = ev->pageable_copies ? 1 : pf.copy_engines;
    shape.duplex_factor = pf.duplex_factor;
    shape.buffers = static_cast<int>(std::max<std::int64_t>(1, ev->streams_used));
    const double typical_bytes = static_cast<double>(ev->typical->in.bytes + ev->typical->out.bytes) / 2;
    library_.shape_pipeline(pf, typical_bytes, ev->pipe.staging || ev->pageable_copies, &shape);
}

namespace {

// thesis §6.2.1: everything in, the kernel (every step), everything out.
double naive_pipeline(const TilePipeline& tp, Prediction* pred) {
    const StepTimes& first = tp.first;
    const double steps = static_cast<double>(tp.totals.steps);
    pred->phases.kernel = steps * first.kernel;
    return first.buffer_in + first.in + steps * first.kernel + first.out + first.buffer_out;
}

// thesis §6.4.4: basic, scalable and buffered, tile by tile.
double tiled_pipeline(const TilePipeline& tp, Prediction* pred, bool explain) {
    const std::int64_t steps = tp.totals.steps;
    if (steps > 1) {
        // Iterative stencil (library iterate): the arrays stay on the
        // device; step 1's kernels overlap the copies in, the last step's
        // the copies out, the steps between are whole-space launches.
        const StepTimes& f = tp.first;
        double pipeline = two_stage_pipeline(tp.weighted, f, tp.last, &StepTimes::in, &StepTimes::kernel) +
                          static_cast<double>(steps - 2) * tp.totals.whole_kernel +
                          two_stage_pipeline(tp.weighted, f, tp.last, &StepTimes::kernel, &StepTimes::out);
        pred->phases.kernel = 2 * tp.totals.kernel_sum + static_cast<double>(steps - 2) * tp.totals.whole_kernel;
        if (tp.staging) pipeline += pred->phases.staging;  // packing is not overlapped in this model
        if (explain)
            pred->notes.push_back("iterative stencil: " + std::to_string(steps) +
                                  " steps on the device; copies overlap only the first and the last step");
        pred->startup_steps = 2;
        return pipeline;
    }
    if (tp.staging) {
        pred->startup_steps = 4;
        // thesis §6.4.4, buffered; its start-up and shutdown take the first
        // and last tiles for all four edge steps, which with a thin last tile
        // can price the pipeline below the host thread's own packing: no
        // pipeline is faster than its busiest engine.
        return std::max(thesis_buffered_pipeline(tp.weighted, tp.first, tp.last, tp.shape),
                        busiest_engine(tp.weighted, tp.shape));
    }
    pred->startup_steps = 2;
    return thesis_pipeline(tp.weighted, tp.first, tp.last, tp.shape);  // thesis §6.4.4
}

// seed 003 eq. 5.6: device-mapped host memory, both directions at once.
double mapped_pipeline(const TilePipeline& tp, const Platform& pf, Prediction* pred, bool explain) {
    const TileTotals& t = tp.totals;
    const double contention = 1 + pf.duplex_factor;
    // The kernel reads its inputs and writes its outputs through the
    // mapping: each direction at its own measured rate.
    const LinkCost hd = link_cost(pf.loggp_host_to_device, contention,
                                  pf.mapped_read_ns_per_byte > 0 ? pf.mapped_read_ns_per_byte : pf.mapped_ns_per_byte);
    const LinkCost dh = link_cost(pf.loggp_device_to_host, contention, pf.mapped_ns_per_byte);
    const double pipeline =
        mapped_model(static_cast<double>(t.all_in_bytes), static_cast<double>(t.all_out_bytes), t.whole_kernel, hd, dh);
    pred->h2d = {t.all_in_bytes, 0};
    pred->d2h = {t.all_out_bytes, 0};
    pred->phases.h2d = static_cast<double>(t.all_in_bytes) * hd.per_byte;
    pred->phases.d2h = static_cast<double>(t.all_out_bytes) * dh.per_byte;
    pred->phases.kernel = t.whole_kernel;
    if (explain) pred->notes.push_back("pipeline: seed 003 eq. 5.6 (device-mapped host memory)");
    return pipeline;
}

}  // namespace

// Each scheme's pipeline formula.
void Model::price_pipeline(Evaluation* ev) const {
    const TilePipeline& tp = ev->pipe;
    switch (tp.scheme) {
        case Scheme::Naive: ev->pipeline = naive_pipeline(tp, &ev->pred); return;
        case Scheme::Basic:
        case Scheme::Scalable:
        case Scheme::Buffered: ev->pipeline = tiled_pipeline(tp, &ev->pred, ev->explain); return;
        case Scheme::Streams:
        case Scheme::Hybrid:
            ev->pipeline = library_.stream_per_tile_pipeline(tp, platform_, &ev->pred, ev->explain);
            return;
        case Scheme::Mapped: ev->pipeline = mapped_pipeline(tp, platform_, &ev->pred, ev->explain); return;
    }
    throw std::logic_error(std::string("no pipeline formula for the ") + to_string(tp.scheme) + " scheme");
}

// An iterative stencil's written array needs its boundary frame (inside the
// halo, outside the space) on the device before step 2. Only schemes that
// run in a time loop get here (normalise()).
void Model::copy_time_loop_frame(Evaluation* ev) const {
    const Problem& p = problem_;
    if (ev->pipe.totals.steps <= 1) return;
    Prediction& pred = ev->pred;
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
            const double ms = price_copies(
                copy_groups_for(b, o.extents, DeviceLayout{{0, 0, 0}, o.extents}, o.elem_bytes, ev->config.copy),
                platform_.pinned_host_to_device, platform_.strided_copy, &st);
            ev->pipeline += ms;
            pred.phases.h2d += ms;
            pred.h2d.bytes += st.bytes;
            pred.h2d.copies += st.copies;
        }
    }
}

// ---- Step 4: allocation (thesis §6.4.1: what each scheme allocates; the
// mallocFree tables time an allocation and its free together).

bool Model::allocate(Evaluation* ev, std::string* error) const {
    const Problem& p = problem_;
    const Platform& pf = platform_;
    Prediction& pred = ev->pred;
    const TileClasses& tc = *ev->tc;
    std::vector<std::int64_t> device_allocs, host_allocs;
    auto tile_buffers = [&](std::vector<std::int64_t>* into) {
        for (std::int64_t b = 0; b < ev->streams_used; ++b) {
            for (std::size_t i = 0; i < p.inputs.size(); ++i)
                into->push_back(volume(tc.input_buffers[i]) * p.inputs[i].elem_bytes);
            for (const auto& a : p.outputs) into->push_back(volume(tc.tile) * a.elem_bytes);
        }
    };
    const recipe::SchemeTraits& traits = scheme_traits(ev->config.scheme);
    if (traits.inputs == recipe::Residence::WholeArray && traits.outputs == recipe::Residence::WholeArray) {
        for (const auto& a : host_arrays_) device_allocs.push_back(a.bytes);
    } else if (traits.inputs == recipe::Residence::WholeArray) {
        for (const auto& a : p.inputs) device_allocs.push_back(volume(a.extents) * a.elem_bytes);
    } else if (traits.inputs == recipe::Residence::TileBuffers) {
        tile_buffers(&device_allocs);  // per stream, padded for inputs
    }
    if (ev->pipe.staging) tile_buffers(&host_allocs);
    library_.price_allocations(device_allocs, host_allocs, ev->streams_used, pf, &pred);
    if (ev->host == HostStrategy::Register) {
        for (const auto& a : host_arrays_) {
            pred.phases.host_register += pf.host_register.ms(static_cast<double>(a.bytes));
            pred.phases.host_unregister += pf.host_unregister.ms(static_cast<double>(a.bytes));
        }
    }
    if (const std::int64_t budget = device_budget(pf, options_); budget > 0 && pred.device_bytes > budget) {
        if (error)
            *error = std::string("the ") + to_string(ev->config.scheme) + " scheme with tile " +
                     format_tile(ev->config.tile, p.dims) + " needs " + mb(pred.device_bytes) + " of device memory; " +
                     (options_.gpu_memory_bytes > 0 ? std::string("--gpu-memory allows ") : pf.name + " has ") +
                     mb(budget);
        return false;
    }
    return true;
}

// Inputs read whole are copied once before the tiles, synchronously: a
// device allocation and one copy each, not overlapped with anything.
void Model::copy_whole_inputs(Evaluation* ev) const {
    const Platform& pf = platform_;
    Prediction& pred = ev->pred;
    for (const auto& w : problem_.whole_inputs) {
        const double bytes = static_cast<double>(volume(w.extents) * w.elem_bytes);
        pred.phases.alloc += pf.malloc_free_device.ms(bytes);
        pred.phases.whole_in +=
            (ev->host == HostStrategy::Pinned ? pf.pinned_host_to_device : pf.pageable_host_to_device).ms(bytes);
        pred.device_bytes += static_cast<std::int64_t>(bytes);
    }
}

// ---- Step 5: the operation that sets the pace.

Operation dominant_operation(const PhaseTimes& phases) {
    const std::pair<double, Operation> busy[] = {{phases.h2d, Operation::TransferIn},
                                                 {phases.kernel, Operation::Kernel},
                                                 {phases.d2h, Operation::TransferOut},
                                                 {phases.staging, Operation::Staging}};
    Operation dominant = Operation::TransferIn;
    double top = -1;
    for (const auto& [t, op] : busy)
        if (t > top) {
            top = t;
            dominant = op;
        }
    if (phases.alloc + phases.host_register + phases.host_unregister > top) dominant = Operation::Setup;
    return dominant;
}

// The interior tile the timeline draws: mapped writes spread over the tiles;
// with no copies at all, the whole run as one tile.
void Model::set_typical_tile(Evaluation* ev) const {
    Prediction& pred = ev->pred;
    const StepTimes& t = ev->typical->t;
    const Scheme scheme = ev->config.scheme;
    pred.typical_tile = {t.buffer_in, t.in, t.kernel, t.out, t.buffer_out};
    if (recipe::maps_host_memory(scheme))
        pred.typical_tile.transfer_out = pred.phases.d2h / static_cast<double>(ev->tc->tiles);
    if (!recipe::copies_tiles(scheme)) pred.typical_tile = {0, pred.phases.h2d, pred.phases.kernel, pred.phases.d2h, 0};
}

bool Model::evaluate(const Config& config, HostStrategy host, Prediction* out, std::string* error,
                     bool explain) const {
    Evaluation ev;
    ev.config = config;
    ev.host = host;
    ev.explain = explain;
    Prediction& pred = ev.pred;
    pred.config = config;
    pred.config.host = host;
    if (explain) pred.problem = problem_;
    else pred.problem.dims = problem_.dims;
    pred.host_strategy = host;
    pred.kernel_source = kernel_.source();
    if (explain) {
        pred.kernel_note = kernel_.description();
        pred.notes.push_back(pred.kernel_note);
    }
    pred.occupancy = block_occupancy(platform_, config.block, nullptr);

    ev.tc = &classes(config.tile);
    pred.tiles = ev.tc->tiles;
    ev.streams_used = scheme_traits(config.scheme).pipelined ? library_.streams_used(config.streams, ev.tc->tiles) : 1;
    ev.pageable_copies = host == HostStrategy::Pageable;
    ev.pipe.scheme = config.scheme;
    ev.pipe.tiles = ev.tc->tiles;
    ev.pipe.staging = scheme_traits(config.scheme).packs_tiles || host == HostStrategy::Staged;

    ev.costs = &class_costs(config, host, pred.occupancy);
    sum_tiles(&ev);
    shape_pipeline(&ev);
    price_pipeline(&ev);
    copy_time_loop_frame(&ev);
    pred.phases.pipeline = ev.pipeline;
    if (!allocate(&ev, error)) return false;
    copy_whole_inputs(&ev);
    pred.total_ms = pred.phases.alloc + pred.phases.free + pred.phases.host_register + pred.phases.host_unregister +
                    pred.phases.whole_in + ev.pipeline;
    pred.dominant = dominant_operation(pred.phases);
    if (explain && ev.staged.copies > 0)
        pred.notes.push_back("host packing: " + std::to_string(ev.staged.copies) + " memcpy of " + mb(ev.staged.bytes) +
                             " in all");
    set_typical_tile(&ev);
    *out = std::move(pred);
    return true;
}

}  // namespace recipe::advisor
