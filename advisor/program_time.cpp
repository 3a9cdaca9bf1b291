#include "advisor/program_time.h"

#include "advisor/multi_gpu.h"

#include <algorithm>

namespace recipe::advisor {

namespace {

double array_bytes(const ArrayUse& a) { return static_cast<double>(a.extents[0] * a.extents[1] * a.extents[2]) * a.elem_bytes; }

double points(const Box& b) {
    return static_cast<double>(b.extent(0)) * static_cast<double>(b.extent(1)) * static_cast<double>(b.extent(2));
}

// The box an input's reads cover: the space grown by its halo, inside the array.
Box reach(const Box& space, const Halo& halo, const Index3& extents) {
    Box r = space;
    for (int d = 0; d < 3; ++d) {
        r.begin[d] = std::max<std::int64_t>(0, space.begin[d] - halo.lo[d]);
        r.end[d] = std::min(extents[d], space.end[d] + halo.hi[d]);
    }
    return r;
}

// An output's pages are fresh at the nest's first call: not read first
// (copied in), written by no nest before it and not rows from the C
// library's heap (ArrayUse::heap_rows), or still zero pages.
bool fresh(const ArrayUse& a) { return (!a.copy_in && !a.written_before && !a.heap_rows) || a.zero_pages; }

}  // namespace

double host_gflops_for(const Platform& platform, int lanes) {
    // Wider than four lanes (AVX's eight floats, when the user builds with
    // -mavx2) is not measured: priced at the four-lane rate, an upper bound
    // on the time.
    const double rate = lanes >= 4 ? platform.host_gflops_vector4 : lanes == 2 ? platform.host_gflops_vector2 : 0;
    return rate > 0 ? rate : platform.host_gflops;
}

bool cpu_time(const Problem& p, const Platform& platform, CpuEstimate* out, std::string* error) {
    if (platform.host_stream_gbs <= 0 || platform.host_gflops <= 0) {
        if (error)
            *error = "the profile " + platform.name +
                     " has no host figures (hostStreamGBs, hostGflops): measure it with recipe-profile";
        return false;
    }
    CpuEstimate e;
    const double steps = static_cast<double>(std::max<std::int64_t>(1, p.time_steps));
    double bytes = 0, written = 0;
    for (const auto& a : p.inputs) bytes += points(reach(p.space, a.halo, a.extents)) * a.elem_bytes;
    for (const auto& a : p.whole_inputs)
        bytes += static_cast<double>(a.extents[0] * a.extents[1] * a.extents[2]) * a.elem_bytes;
    for (const auto& a : p.outputs) {
        bytes += points(p.space) * a.elem_bytes * (a.copy_in ? 2 : 1);
        // Fresh: an output not read first and written by no nest before, or
        // one whose pages still are zero pages.
        if (fresh(a)) written += points(p.space) * a.elem_bytes;
    }
    e.bytes = bytes * steps;
    e.flops = static_cast<double>(p.flops_per_point) * points(p.space) * steps;
    // A C math library call costs tens of flops: priced by its own measured rate.
    const double calls = platform.host_math_call_ns > 0 ? static_cast<double>(p.math_calls_per_point) * points(p.space) * steps : 0;
    // One step's arrays at the rate of their working set (a time loop's stay
    // in the caches between steps when they fit), else main memory's.
    const double dram_ms = bytes / (platform.host_stream_gbs * 1e9) * 1e3;
    const double step_ms = platform.host_stream.empty() ? dram_ms : std::min(dram_ms, platform.host_stream.ms(bytes));
    e.memory_ms = step_ms * steps;
    // A 64-bit integer converted to floating: scalar on the host (no vector
    // form below AVX-512), priced by its own measured cost, on top.
    const double conversions = static_cast<double>(p.conversions_per_point) * points(p.space) * steps;
    // A loop that clamps its contiguous index: its compiler vectorises it
    // and loads the clamped elements one lane at a time. With the host's
    // cost of such a load, the arithmetic at the vectorised rate and each
    // such read on top; without it, the scalar rate. emboss's loop (four
    // such reads a point) on a 2-core Xeon build host: 2.65 ns a point with
    // its pages present, priced 1.30 at the scalar rate and 2.52 this way
    // (0.42 ns a lane load there; bench/host/cpu_loops.c, docs/model.md).
    // Only where the compiler did vectorise it (a loop it leaves scalar loads
    // those elements as any other).
    const bool lanes_loaded = p.lane_loads_per_point > 0 && p.host_reported_lanes > 1 && platform.host_lane_load_ns > 0;
    const double lane_loads = lanes_loaded ? static_cast<double>(p.lane_loads_per_point) * points(p.space) * steps : 0;
    e.gflops = host_gflops_for(platform, lanes_loaded ? p.host_reported_lanes : p.host_vector_lanes);
    e.compute_ms = (e.flops - calls) / (e.gflops * 1e9) * 1e3 + calls * platform.host_math_call_ns * 1e-6 +
                   conversions * platform.host_convert_ns * 1e-6 + lane_loads * platform.host_lane_load_ns * 1e-6;
    // One thread does not hide its loads behind its arithmetic, nor the
    // other way round: priced as the two added. Measured nest by nest
    // (bench/e2e/cpu_nests.py's last line, the samples' C loops priced at
    // the rate of their vector width): first calls within 25% for 14 of 19
    // nests added against 11 and 9 as the slower of the two, on a 2-core
    // build host and an H200 host; 12 against 6 on an H200 and an H100 host
    // in later runs (docs/model.md). The memory figure is a stream with next to no arithmetic
    // and the arithmetic one a stencil in the second-level cache: each
    // measures its part alone.
    e.ms = e.memory_ms + e.compute_ms;
    // A floating accumulation chained across the iterations (a checksum
    // loop, `sum += a[i]`): no faster than its chain, each add waiting for
    // the one before, which also limits the loads in flight: priced per add
    // at the chained sum's pace over doubles of the nest's working set
    // (hostChainedSum; a sum of floats into a double runs slower still: a
    // lower bound). On a 2-core Xeon build host vector_add's checksum of 64
    // Mi floats took 109 ms where its bytes and flops priced 36
    // (bench/host/tail_check.sh, bench/README.md).
    if (p.serial_adds_per_point > 0 && !platform.host_chained_sum.empty()) {
        const double set = std::max(bytes, platform.host_chained_sum.bytes.front());
        const double ns_per_add = platform.host_chained_sum.ms(set) * 1e6 / (set / sizeof(double));
        e.chain_ms = static_cast<double>(p.serial_adds_per_point) * points(p.space) * steps * ns_per_add * 1e-6;
    }
    e.ms = std::max(e.ms, e.chain_ms);
    // The first call's first step faults the fresh output pages in.
    const double fresh_ms = platform.host_first_touch_gbs > 0
                                ? written / (platform.host_first_touch_gbs * 1e9) * 1e3 - written / (platform.host_stream_gbs * 1e9) * 1e3
                                : 0;
    e.first_ms = e.ms + std::max(0.0, fresh_ms);
    *out = e;
    return true;
}

double cuda_startup_ms(const Platform& platform, int host_gpus) {
    // On a host of several GPUs one context takes that host's own time
    // (measured with its GPUs idle 3 s before: 1.17 s on a host of 4 H200s,
    // whose programs waited 1.00-1.05 s; 0.54 s on a host of 2; 0.2 s on a
    // host of one H200): that host's figure, when the profile has it.
    const std::vector<double>& several = platform.multi_gpu.context_start_ms;
    if (host_gpus > 1 && !several.empty()) return several[0];
    return platform.cuda_startup_ns * 1e-6;
}
double cuda_teardown_ms(const Platform& platform) { return platform.cuda_teardown_ns * 1e-6; }
double released_teardown_ms(const Platform& platform, double tail_ms) {
    if (platform.cuda_release_ns <= 0 || platform.cuda_exit_after_release_ns <= 0) return -1;
    return std::max(0.0, platform.cuda_release_ns * 1e-6 - std::max(0.0, tail_ms)) + platform.cuda_exit_after_release_ns * 1e-6;
}

double hidden_startup_ms(const Problem& p, const Platform& platform) {
    if (platform.host_first_touch_gbs <= 0) return 0;
    double bytes = 0;
    for (const auto* arrays : {&p.inputs, &p.whole_inputs})
        for (const auto& a : *arrays) bytes += array_bytes(a);
    return bytes / (platform.host_first_touch_gbs * 1e9) * 1e3 + gather_cost(p, platform).before_ms;
}

GatherCost gather_cost(const Problem& p, const Platform& platform) {
    GatherCost c;
    if (platform.host_first_touch_gbs <= 0 || platform.host_stream_gbs <= 0) return c;
    const auto ms = [](double bytes, double gbs) { return bytes / (gbs * 1e9) * 1e3; };
    for (const auto* arrays : {&p.inputs, &p.outputs})
        for (const auto& a : *arrays) {
            if (!a.gathered) continue;
            const double bytes = array_bytes(a);
            c.before_ms += ms(bytes, platform.host_first_touch_gbs) + ms(2 * bytes, platform.host_stream_gbs);
            if (arrays == &p.outputs) c.after_ms += ms(2 * bytes, platform.host_stream_gbs);
        }
    return c;
}

double fresh_output_bytes(const Problem& p) {
    double written = 0;
    for (const auto& a : p.outputs)
        if (fresh(a)) written += points(p.space) * a.elem_bytes;
    return written;
}

PoolReservation pool_reservation(const std::vector<const Prediction*>& calls) {
    PoolReservation pool;
    for (const Prediction* p : calls) {
        pool.device_bytes = std::max(pool.device_bytes, p->device_bytes);
        if (p->host_strategy == HostStrategy::Staged) pool.pinned_bytes = std::max(pool.pinned_bytes, p->host_bytes);
        pool.streams = std::max(pool.streams, p->config.streams);
    }
    return pool;
}

double pool_setup_ms(const PoolReservation& pool, const Platform& platform) {
    double ms = 0;
    if (pool.device_bytes > 0 && !platform.malloc_free_device.empty())
        ms += platform.malloc_free_device.ms(static_cast<double>(pool.device_bytes));
    if (pool.pinned_bytes > 0 && !platform.staging_setup.empty())
        ms += platform.staging_setup.ms(static_cast<double>(pool.pinned_bytes));
    return ms;
}

PoolReservation profiled_first_run_pool(double out_bytes, const Platform& platform) {
    // tools/profiler/cold_start.cuh's run: a staged scalable moving average
    // of n floats in and out, 16 tiles, 2 streams, merged copies.
    const std::int64_t n = std::max<std::int64_t>(16, static_cast<std::int64_t>(out_bytes / sizeof(float)));
    Problem p;
    p.kernel_name = "moving_average";
    p.dims = 1;
    p.extents = {n, 1, 1};
    p.space = Box{{0, 0, 0}, {n, 1, 1}};
    ArrayUse in, out;
    in.name = "in";
    out.name = "out";
    in.extents = out.extents = p.extents;
    p.inputs = {in};
    p.outputs = {out};
    p.flops_per_point = 1;
    p.bytes_per_point = 8;
    Config c;
    c.scheme = Scheme::Scalable;
    c.tile = {n / 16, 1, 1};
    c.copy = CopyMethod::Merged;
    c.streams = 2;
    c.host = HostStrategy::Staged;
    ModelOptions options;
    options.host_memory = HostMemory::Pageable;
    Prediction run;
    std::string error;
    // It fails only where the profiled run could not have run (a device too
    // small for its tiles): then nothing is taken off, and firstRun stands
    // whole, an upper bound.
    if (!predict(p, platform, c, options, &run, &error)) return {};
    return pool_reservation({&run});
}

double first_call_extra_ms(const Prediction& prediction, const Platform& platform, double fresh_bytes, int devices) {
    // Page-locked arrays (--host-memory pinned: cudaMallocHost'd, or
    // registered by the program) have every page present before the call:
    // nothing is faulted in (firstCall is measured on malloc'd arrays). On
    // an H200, blur1d's 12 GiB arrays cudaMallocHost'd: first runs 234.4 and
    // 264.5 ms, later ones 234.3 and 264.2 (docs/results-large.md).
    if (prediction.host_strategy == HostStrategy::Pinned) return 0;
    const double bytes = fresh_bytes >= 0 ? fresh_bytes : static_cast<double>(prediction.d2h.bytes);
    const double per_device = bytes / std::max(1, devices);
    double first_ms = 0;
    if (!platform.first_call.empty()) {
        first_ms = platform.first_call.ms(per_device);
    } else if (!platform.first_run.empty()) {
        // An older profile's firstRun: its first run allocated its own device
        // and staging blocks, which the emitted program's start-up thread
        // allocates before the first call (recipe::PoolSize). What the
        // profiled run set up for itself is taken off (a warm figure: its
        // cold allocation cost more, so this errs high).
        first_ms = std::max(0.0, platform.first_run.ms(per_device) -
                                     pool_setup_ms(profiled_first_run_pool(per_device, platform), platform));
    }
    // Several GPUs: each GPU's staging threads fault in its slab's pages, all
    // at once, at its share of what the host's threads fault in together
    // (freshGBs; measured on 4 H200s, once every GPU's staging block was
    // reserved at start-up: heat2d's first call 66, 36 and 28 ms on 1, 2 and
    // 4 GPUs; emboss's 165, 89, 71).
    return first_ms * device_shares(platform, devices).fresh;
}

ProgramTime program_time(const Prediction& best, const CpuEstimate& cpu, const Platform& platform, std::int64_t calls,
                         int devices) {
    ProgramTime t;
    t.calls = std::max<std::int64_t>(1, calls);
    t.cpu_first_ms = cpu.first_ms;
    t.cpu_ms = cpu.ms;
    t.gather_ms = gather_cost(best.problem, platform).ms();
    t.gpu_warm_ms = best.total_ms + t.gather_ms;
    t.gpu_first_ms = t.gpu_warm_ms + first_call_extra_ms(best, platform, fresh_output_bytes(best.problem), devices);
    return t;
}

}  // namespace recipe::advisor
