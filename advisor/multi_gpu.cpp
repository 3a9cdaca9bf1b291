// Several GPUs (multi_gpu.h): each formula cites seed 004 §4.1, Figure 14:
// the parts run at once, the time is the slowest part plus the exchange.
#include "advisor/multi_gpu.h"

#include <algorithm>
#include <cmath>

#include "advisor/kernel_time.h"
#include "advisor/model.h"
#include "advisor/program_time.h"
#include "advisor/sizes.h"
#include "recipe/device_split.h"

namespace recipe::advisor {

namespace {


void scale(Measurements* m, double factor) {
    for (double& ns : m->ns) ns *= factor;
}

bool fail(std::string* error, const std::string& why) {
    if (error) *error = why;
    return false;
}

// The figure for n GPUs of a list holding one per GPU count.
double at(const std::vector<double>& list, int devices) {
    if (list.empty() || devices < 1) return 0;
    return list[static_cast<std::size_t>(std::min<int>(devices, static_cast<int>(list.size())) - 1)];
}

}  // namespace

int profile_gpus(const Platform& platform) { return std::max(1, platform.multi_gpu.gpus); }

std::string missing_gpu_figures(const Platform& platform, int gpus) {
    if (gpus <= 1 || profile_gpus(platform) >= gpus) return "";
    const std::string measure = "; measure them with recipe-profile on a host with " + std::to_string(gpus) + " GPUs";
    if (platform.multi_gpu.gpus == 0)
        return "--gpus " + std::to_string(gpus) + ": the profile " + platform.name +
               " has no figures for several GPUs at once (its \"multiGpu\" object is missing: the copy bandwidths, "
               "context start-up and NCCL figures of 1 to " + std::to_string(gpus) + " GPUs)" + measure;
    return "--gpus " + std::to_string(gpus) + ": the profile " + platform.name + "'s \"multiGpu\" figures cover " +
           std::to_string(platform.multi_gpu.gpus) + (platform.multi_gpu.gpus == 1 ? " GPU" : " GPUs") + ", not " +
           std::to_string(gpus) + measure;
}

// seed 004 §4.1, Figure 14: the parts run at once, the time is the slowest
// part plus the exchange. Each GPU's part moves over its share of what the n
// GPUs share: the host's links (the aggregate bandwidth measured with n GPUs
// copying at once) and its memory (the aggregate packing rate of n GPUs'
// staging threads).
DeviceShares device_shares(const Platform& platform, int devices) {
    DeviceShares s;
    const MultiGpu& m = platform.multi_gpu;
    if (devices <= 1 || m.gpus < devices) return s;
    const double n = devices;
    auto share = [&](const std::vector<double>& gbs) { return gbs[0] / (at(gbs, devices) / n); };
    s.h2d = share(m.h2d_gbs);
    s.d2h = share(m.d2h_gbs);
    s.staging = share(m.staging_gbs);
    if (static_cast<int>(m.fresh_gbs.size()) >= devices) s.fresh = share(m.fresh_gbs);
    return s;
}

Platform platform_for_devices(const Platform& platform, int devices) {
    Platform p = platform;
    const DeviceShares s = device_shares(platform, devices);
    if (s.h2d == 1 && s.d2h == 1 && s.staging == 1) return p;
    scale(&p.pinned_host_to_device, s.h2d);
    scale(&p.pageable_host_to_device, s.h2d);
    p.loggp_host_to_device.ns_per_byte *= s.h2d;
    scale(&p.device_to_pinned_host, s.d2h);
    scale(&p.device_to_pageable_host, s.d2h);
    p.loggp_device_to_host.ns_per_byte *= s.d2h;
    // A pinned pipeline's steady tile is copy-bound: at the slower
    // direction's share (equal shares leave its duplex factor as it was).
    scale(&p.pipeline_tile, std::max(s.h2d, s.d2h));
    p.mapped_ns_per_byte *= std::max(s.h2d, s.d2h);
    p.mapped_read_ns_per_byte *= std::max(s.h2d, s.d2h);
    scale(&p.pinned_host_to_pinned_host, s.staging);
    scale(&p.pageable_to_pinned_host, s.staging);
    scale(&p.staging_tile, s.staging);
    for (Measurements& m : p.staging_tile_streams.tables) scale(&m, s.staging);
    // A region's staged chunk is paced by the host's packing or by the copy
    // engine, whichever its direction's share slows more.
    for (Measurements& m : p.region_chunk_in.tables) scale(&m, std::max(s.staging, s.h2d));
    for (Measurements& m : p.region_chunk_out.tables) scale(&m, std::max(s.staging, s.d2h));
    for (Measurements& m : p.region_pass_in.tables) scale(&m, std::max(s.staging, s.h2d));
    for (Measurements& m : p.region_pass_out.tables) scale(&m, std::max(s.staging, s.d2h));
    p.staging_row_ns *= s.staging;
    p.host_copy_row_ns *= s.staging;
    return p;
}

double extra_contexts_ms(const Platform& platform, int devices) {
    const MultiGpu& m = platform.multi_gpu;
    if (devices <= 1 || m.context_start_ms.empty()) return 0;
    return std::max(0.0, at(m.context_start_ms, devices) - m.context_start_ms[0]);
}

double nccl_init_ms(const Platform& platform, int devices) {
    if (devices <= 1) return 0;
    return at(platform.multi_gpu.nccl_init_ms, devices);
}

double extra_exit_ms(const Platform& platform, int devices, bool nccl) {
    const MultiGpu& m = platform.multi_gpu;
    if (devices <= 1 || m.exit_ms.empty()) return 0;
    const double contexts = std::max(0.0, at(m.exit_ms, devices) - m.exit_ms[0]);
    const double comms = nccl ? std::max(0.0, at(m.nccl_exit_ms, devices) - at(m.exit_ms, devices)) : 0.0;
    return contexts + comms;
}

double halo_exchange_ms(const Platform& platform, double bytes) {
    const MultiGpu& m = platform.multi_gpu;
    if (m.exchange_gbs <= 0) return 0;
    return m.exchange_us * 1e-3 + bytes / (m.exchange_gbs * 1e9) * 1e3;
}

// ---- recipe::run over n GPUs.

std::string devices_refusal(const Problem& problem, const Config& config) {
    if (problem.time_steps > 1)
        return "its time loop runs through recipe::iterate, which keeps the arrays on one GPU between the steps";
    if (!scheme_traits(config.scheme).tiled)
        return std::string("its plan, the ") + to_string(config.scheme) + " scheme, runs the whole space as one tile";
    if (device_slabs(problem.space, config.tile, 2).size() < 2)
        return "its plan's tile (" + format_tile(config.tile, problem.dims) +
               ") covers the whole space: fewer than 2 tile rows to share out";
    return "";
}

// seed 004 §4.1, Figure 14: the parts run at once, the time is the slowest
// part plus the exchange (a call exchanges nothing: its slabs read the
// user's arrays, halo included, from host memory).
bool predict_devices(const Problem& problem, const Platform& platform, const ModelOptions& options, const Config& config,
                     int devices, DevicePrediction* out, std::string* error) {
    if (devices < 1) return fail(error, "at least one GPU");
    if (devices > 1) {
        if (const std::string why = devices_refusal(problem, config); !why.empty()) return fail(error, why);
        if (profile_gpus(platform) < devices) return fail(error, missing_gpu_figures(platform, devices));
    }
    DevicePrediction d;
    d.slabs = devices == 1 ? std::vector<Box>{problem.space} : device_slabs(problem.space, config.tile, devices);
    if (static_cast<int>(d.slabs.size()) < devices)
        return fail(error, "the space has " + std::to_string(d.slabs.size()) + " tile rows of " +
                               format_tile(config.tile, problem.dims) + ", fewer than " + std::to_string(devices) + " GPUs");
    d.devices = devices;
    Index3 rows{1, 1, 1};
    for (int k = 0; k < 3; ++k) {
        const std::int64_t t = config.tile[k] <= 0 || config.tile[k] > problem.space.extent(k) ? problem.space.extent(k) : config.tile[k];
        rows[k] = (std::max<std::int64_t>(problem.space.extent(k), 1) + std::max<std::int64_t>(t, 1) - 1) / std::max<std::int64_t>(t, 1);
    }
    d.split_dimension = split_dimension(rows);
    const Platform shared = platform_for_devices(platform, devices);
    std::vector<Prediction> parts;
    for (const Box& slab : d.slabs) {
        Problem part = problem;
        part.space = slab;
        Prediction p;
        std::string why;
        if (!Model(part, shared, options).predict(config, &p, &why, false))
            return fail(error, "slab " + std::to_string(parts.size() + 1) + " of " + std::to_string(devices) + ": " + why);
        d.slab_ms.push_back(p.total_ms);
        d.h2d_bytes.push_back(p.h2d.bytes);
        d.d2h_bytes.push_back(p.d2h.bytes);
        parts.push_back(std::move(p));
    }
    d.slowest = static_cast<std::size_t>(std::max_element(d.slab_ms.begin(), d.slab_ms.end()) - d.slab_ms.begin());
    Prediction call = parts[d.slowest];
    call.problem = problem;
    call.config = config;
    for (const Prediction& p : parts) {
        call.device_bytes = std::max(call.device_bytes, p.device_bytes);
        call.host_bytes = std::max(call.host_bytes, p.host_bytes);
    }
    if (devices > 1)
        call.notes.push_back("on " + std::to_string(devices) + " GPUs: the slowest of " + std::to_string(devices) +
                             " slabs (seed 004 §4.1), each with its GPU's share of the host's links");
    d.prediction = std::move(call);
    *out = std::move(d);
    return true;
}

// ---- recipe::Region over n GPUs.

namespace {

// The dimension a region's arrays are cut along (recipe::region_slabs).
int region_split(const RegionProblem& r) { return split_dimension(r.extents); }

// The rows of `box` along `s` within [begin, end), as a box (empty: end <= begin).
Box rows_of(const Box& box, int s, std::int64_t begin, std::int64_t end) {
    Box b = box;
    b.begin[s] = std::max(box.begin[s], begin);
    b.end[s] = std::min(box.end[s], end);
    return b;
}

std::int64_t points(const Box& b) {
    std::int64_t n = 1;
    for (int d = 0; d < 3; ++d) n *= std::max<std::int64_t>(0, b.extent(d));
    return n;
}

const RegionArray* array_named(const RegionProblem& r, const std::string& name) {
    for (const RegionArray& a : r.arrays)
        if (a.name == name) return &a;
    return nullptr;
}

}  // namespace

std::int64_t region_halo_rows(const RegionProblem& r) {
    const int s = region_split(r);
    std::int64_t h = 0;
    for (const Problem& q : r.nests)
        for (const ArrayUse& a : q.inputs) h = std::max({h, a.halo.lo[s], a.halo.hi[s]});
    return h;
}

std::string region_devices_refusal(const RegionProblem& r) {
    if (r.uses_parts)
        return "a launch works on a part of an array, which a region over several GPUs does not split";
    const int s = region_split(r);
    if (s != std::clamp(r.dims - 1, 0, 2) || r.extents[s] < 2)
        return "its arrays have one row along their slowest dimension: nothing to share out";
    return "";
}

// seed 004 §4.1, Figure 14: the parts run at once, the time is the slowest
// part plus the exchange. Each launch waits for the halo rows its GPU's
// neighbours wrote; the exchange overlaps the rows that need none (the
// interior), and the rows that do (one strip per neighbour) run after it.
bool predict_region_devices(const RegionProblem& region, const Platform& platform, const ModelOptions& options, int devices,
                            RegionDevicePrediction* out, std::string* error) {
    const RegionProblem r = copied_whole(region);  // every GPU copies its held rows in whole
    if (devices <= 1) return fail(error, "a region over several GPUs needs at least two");
    if (const std::string why = region_devices_refusal(r); !why.empty()) return fail(error, why);
    if (profile_gpus(platform) < devices) return fail(error, missing_gpu_figures(platform, devices));
    RegionDevicePrediction d;
    const int s = region_split(r);
    d.devices = devices;
    d.split_dimension = s;
    d.halo_rows = region_halo_rows(r);
    d.owned = region_slabs(r.extents, devices);
    if (static_cast<int>(d.owned.size()) < devices)
        return fail(error, "the arrays have " + std::to_string(r.extents[s]) + " rows, fewer than " + std::to_string(devices) + " GPUs");
    for (const Box& o : d.owned) {
        if (o.extent(s) < std::max<std::int64_t>(1, d.halo_rows))
            return fail(error, "a GPU's " + std::to_string(o.extent(s)) + " rows are fewer than the " + std::to_string(d.halo_rows) +
                                   " halo rows its neighbours read");
        d.held.push_back(region_held(o, r.extents, d.halo_rows));
    }
    const Platform shared = platform_for_devices(platform, devices);
    const bool pinned = options.host_memory ? *options.host_memory == HostMemory::Pinned : r.pinned_host;
    const bool staged = !pinned;
    const Index3 chunk = region_chunk(r);

    // Each GPU's set-up and copies: its held rows in, its owned rows out.
    double setup_ms = -1, alloc_ms = 0, in_ms = 0, out_ms = 0;  // the GPU that starts its launches last
    Prediction& p = d.total;
    for (std::size_t i = 0; i < d.owned.size(); ++i) {
        const Box& held = d.held[i];
        const Box& owned = d.owned[i];
        const std::int64_t chunks = (held.extent(s) + chunk[s] - 1) / chunk[s];
        const std::int64_t streams = std::min<std::int64_t>(2, chunks);
        // Priced as the copies are asked for, over 2 streams (a GPU of fewer
        // chunks runs fewer), as on one GPU.
        const detail::RegionCopies in = detail::region_copies(r, shared, chunk, 2, true, staged, held.begin[s], held.end[s]);
        const detail::RegionCopies back = detail::region_copies(r, shared, chunk, 2, false, staged, owned.begin[s], owned.end[s]);
        std::int64_t device = 0;
        for (const RegionArray& a : r.arrays) device += aligned(volume(held.extents()) * a.elem_bytes);
        const std::int64_t host = staged ? region_staging_bytes(r, chunk, streams) : 0;
        const double alloc = detail::region_alloc_ms(shared, device, host, streams, staged);
        d.in_bytes.push_back(in.stats.bytes);
        d.out_bytes.push_back(back.stats.bytes);
        d.device_bytes.push_back(device);
        if (alloc + in.total_ms > setup_ms) {
            setup_ms = alloc + in.total_ms;
            alloc_ms = alloc;
            in_ms = in.total_ms;
        }
        out_ms = std::max(out_ms, back.total_ms);
        p.device_bytes = std::max(p.device_bytes, device);
        p.host_bytes = std::max(p.host_bytes, host);
        if (in.stats.bytes >= p.h2d.bytes) p.h2d = in.stats;
        if (back.stats.bytes >= p.d2h.bytes) p.d2h = back.stats;
        p.phases.h2d = std::max(p.phases.h2d, in.dma_ms);
        p.phases.d2h = std::max(p.phases.d2h, back.dma_ms);
        p.phases.staging = std::max(p.phases.staging, in.staging_ms + back.staging_ms);
    }
    if (const std::int64_t budget = device_budget(platform, options); budget > 0 && p.device_bytes > budget)
        return fail(error, "a GPU's part of the region's arrays needs " + std::to_string(p.device_bytes) + " bytes of device memory");

    // Each launch on each GPU's owned rows; one step's launches in order, the
    // first step exchanging only what an earlier launch of it wrote.
    std::vector<bool> written_before(r.nests.size(), false), written_later(r.nests.size(), false);
    std::vector<std::int64_t> exchange_bytes(r.nests.size(), 0);
    {
        std::vector<std::string> written;  // by the launches so far in the first step
        std::vector<std::string> all;      // by any launch
        for (const Problem& q : r.nests)
            for (const ArrayUse& a : q.outputs) all.push_back(a.name);
        for (std::size_t k = 0; k < r.nests.size(); ++k) {
            const Problem& q = r.nests[k];
            for (const ArrayUse& a : q.inputs) {
                if (a.halo.lo[s] <= 0 && a.halo.hi[s] <= 0) continue;  // reads nothing across the cut
                const bool now = std::find(written.begin(), written.end(), a.name) != written.end();
                // Under swapped pointers any array may hold what a launch wrote.
                const bool later = (r.swaps && !all.empty()) || std::find(all.begin(), all.end(), a.name) != all.end();
                if (!later) continue;
                const RegionArray* held = array_named(r, a.name);
                const std::int64_t row = volume(r.extents) / std::max<std::int64_t>(1, r.extents[s]) * (held ? held->elem_bytes : a.elem_bytes);
                exchange_bytes[k] += d.halo_rows * row;
                written_later[k] = true;
                written_before[k] = written_before[k] || now;
            }
            for (const ArrayUse& a : q.outputs) written.push_back(a.name);
        }
    }
    p.kernel_source = KernelSource::Measured;
    double first_step = 0, later_step = 0;
    for (std::size_t k = 0; k < r.nests.size(); ++k) {
        const Problem& q = r.nests[k];
        double occupancy = 0;
        choose_block(q, platform, q.space.extents(), &occupancy);
        if (occupancy <= 0) return fail(error, "no thread block of this device runs the nest of kernel " + q.kernel_name);
        const KernelModel kernel(q, platform, options);
        if (kernel.source() == KernelSource::Estimate) p.kernel_source = KernelSource::Estimate;
        else if (kernel.source() == KernelSource::UserGiven && p.kernel_source == KernelSource::Measured)
            p.kernel_source = KernelSource::UserGiven;
        const double overhead = kernel.launch_overhead_ms();
        auto run = [&](std::int64_t n) { return n > 0 ? kernel.run_ms(n, occupancy) : 0.0; };
        const double exchange = halo_exchange_ms(platform, static_cast<double>(exchange_bytes[k]));
        double plain = 0, exchanged = 0;  // the slowest GPU's launch without and with the exchange
        for (std::size_t i = 0; i < d.owned.size(); ++i) {
            const Box& o = d.owned[i];
            const Box mine = rows_of(q.space, s, o.begin[s], o.end[s]);
            const std::int64_t all = points(mine);
            plain = std::max(plain, all > 0 ? std::max(run(all), overhead) : 0.0);
            // The strips next to each neighbour need its rows; the rest does not.
            std::int64_t lo_end = o.begin[s], hi_begin = o.end[s];
            int strips = 0;
            if (i > 0) {
                lo_end = std::min(o.end[s], o.begin[s] + d.halo_rows);
                ++strips;
            }
            if (i + 1 < d.owned.size()) {
                hi_begin = std::max(lo_end, o.end[s] - d.halo_rows);
                ++strips;
            }
            const std::int64_t lo = points(rows_of(mine, s, o.begin[s], lo_end));
            const std::int64_t hi = points(rows_of(mine, s, hi_begin, o.end[s]));
            const std::int64_t interior = points(rows_of(mine, s, lo_end, hi_begin));
            const double inner = interior > 0 ? std::max(run(interior), overhead) : 0.0;
            exchanged = std::max(exchanged, std::max(inner, exchange) + run(lo) + run(hi) + strips * overhead);
        }
        const double later = written_later[k] ? exchanged : plain;
        const double first = written_before[k] ? exchanged : plain;
        d.launch_ms.push_back(later);
        later_step += later;
        first_step += first;
        if (written_later[k]) {
            ++d.exchanges_per_step;
            d.exchange_bytes_per_step += exchange_bytes[k];
            d.exchange_ms_per_step += exchange;
        }
        if (written_before[k]) ++d.exchanges_first_step;
    }
    const std::int64_t steps = std::max<std::int64_t>(0, r.steps);
    const double kernels = steps > 0 ? first_step + static_cast<double>(steps - 1) * later_step : 0.0;

    const std::int64_t chunks = (r.extents[s] + chunk[s] - 1) / chunk[s];
    p.config.scheme = Scheme::Basic;
    p.config.tile = chunk;
    p.config.streams = static_cast<int>(std::min<std::int64_t>(2, chunks));
    p.config.copy = CopyMethod::Merged;
    p.host_strategy = staged ? HostStrategy::Staged : HostStrategy::Pinned;
    p.config.host = p.host_strategy;
    p.problem.dims = r.dims;
    p.problem.extents = r.extents;
    p.tiles = chunks;
    p.phases.alloc = alloc_ms;
    p.phases.kernel = kernels;
    p.phases.pipeline = in_ms + kernels + out_ms;
    p.total_ms = p.phases.alloc + p.phases.pipeline;
    p.dominant = dominant_operation(p.phases);
    p.notes.push_back("region on " + std::to_string(devices) + " GPUs: each holds its slab and " + std::to_string(d.halo_rows) +
                      " halo rows of each neighbour (seed 004 §4.1); " + std::to_string(d.exchanges_per_step) +
                      " halo exchanges per step");
    *out = std::move(d);
    return true;
}

// ---- What the program pays.

DeviceCost device_cost(const Prediction& call, const Platform& platform, int devices, bool exchanges_halos, double fresh_bytes,
                       std::int64_t calls, double hidden_ms) {
    DeviceCost c;
    c.devices = devices;
    c.calls = std::max<std::int64_t>(1, calls);
    c.call_ms = call.total_ms;
    c.first_ms = call.total_ms + first_call_extra_ms(call, platform, fresh_bytes, devices);
    c.nccl_ms = exchanges_halos ? nccl_init_ms(platform, devices) : 0.0;
    c.added_ms = extra_contexts_ms(platform, devices) + c.nccl_ms;
    const double own = cuda_startup_ms(platform, devices);
    const double hidden = std::max(0.0, hidden_ms);
    c.startup_ms = std::max(0.0, own + c.added_ms - hidden) - std::max(0.0, own - hidden);
    c.exit_ms = extra_exit_ms(platform, devices, exchanges_halos);
    return c;
}

std::size_t fastest(const std::vector<DeviceCost>& costs) {
    std::size_t best = 0;
    for (std::size_t i = 1; i < costs.size(); ++i)
        if (costs[i].total_ms() < costs[best].total_ms()) best = i;
    return best;
}

}  // namespace recipe::advisor
