// detail/run_devices.cuh — recipe::run over several GPUs (Config::devices):
// the iteration space cut into slabs of whole tiles (device_split.h), each
// slab one pipeline of its own on its own GPU, driven by a host thread of
// its own (seed 004 §4.1: one thread per GPU, each managing its GPU's
// resources), all at once. Each GPU has its own pool, streams, staging
// threads and PCIe link; the call returns when every slab is done.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <exception>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "recipe/arrays.cuh"
#include "recipe/config.cuh"
#include "recipe/detail/devices.cuh"
#include "recipe/detail/engine.cuh"
#include "recipe/detail/pipeline.cuh"
#include "recipe/detail/resources.cuh"
#include "recipe/device_split.h"
#include "recipe/error.cuh"
#include "recipe/start.cuh"
#include "recipe/whole.cuh"

namespace recipe::detail {

template <class... KP, class... I, class... O, class... A>
Measured run_on_devices(const Config& cfg, void (*kernel)(KP...), Inputs<I...> ins, Outputs<O...> outs,
                        A&&... args) {
    const auto t0 = Clock::now();
    const std::string name = cfg.name.empty() ? std::string("recipe::run") : cfg.name;
    if (space_is_empty(cfg)) return Measured{-1, -1, -1, -1, 0, -1, 0, 0, 0, 0, 0};
    // CUDA's start-up first, on this thread: the GPUs' threads would wait for
    // it inside cudaSetDevice, where no phase counts it (on a 4-H200 host,
    // ~1 s of a first call went unaccounted so).
    const double startup = wait_for_startup([&] { return name; });
    require_devices(cfg, name);
    const std::vector<Box> slabs = device_slabs(cfg.iteration_space(), cfg.tile, cfg.devices);
    const int n = static_cast<int>(slabs.size());

    // Arrays to page-lock are registered once, portable to every GPU's
    // context; each GPU then copies from them as from pinned memory. A
    // registration per GPU would overlap at the slabs' shared pages.
    std::vector<ArrayDesc> arrays;
    describe_inputs(ins, std::index_sequence_for<I...>{}, &arrays);
    describe_outputs(outs, std::index_sequence_for<O...>{}, &arrays);
    const SchemeTraits& scheme = scheme_traits(cfg.scheme);
    const bool maps = scheme.inputs == Residence::HostMapped || scheme.outputs == Residence::HostMapped;
    Config each = cfg;
    each.devices = 1;
    HostRegistrations registrations;
    double register_ms = 0;
    if (cfg.host == HostMemory::Register || (maps && cfg.host != HostMemory::Pinned)) {
        const auto r0 = Clock::now();
        const std::int64_t total = cfg.extents[0] * cfg.extents[1] * cfg.extents[2];
        for (const ArrayDesc& a : arrays) registrations.add(a.host, static_cast<std::size_t>(total * a.elem));
        registrations.register_all([&] { return name; }, cudaHostRegisterPortable | cudaHostRegisterMapped);
        register_ms = ms_since(r0);
        each.host = HostMemory::Pinned;
    }

    std::vector<Measured> measured(static_cast<std::size_t>(n));
    std::vector<std::exception_ptr> failed(static_cast<std::size_t>(n));
    std::vector<std::thread> threads;
    for (int d = 0; d < n; ++d)
        threads.emplace_back([&, d] {
            try {
                check(cudaSetDevice(d), "cudaSetDevice", [&] { return name + ", GPU " + std::to_string(d); });
                engines_quiet() = true;
                Config mine = each;
                mine.space = slabs[static_cast<std::size_t>(d)];
                mine.name = name + " (GPU " + std::to_string(d) + ")";
                WholeCopies copies;  // each GPU its own copy of the whole inputs
                measured[static_cast<std::size_t>(d)] = run_pass(mine, nullptr, kernel, ins, outs, kernel_arg(args, copies)...);
            } catch (...) {
                failed[static_cast<std::size_t>(d)] = std::current_exception();
            }
        });
    for (std::thread& t : threads) t.join();
    for (const std::exception_ptr& f : failed)
        if (f) std::rethrow_exception(f);
    const auto u0 = Clock::now();
    registrations.release([&] { return name; });
    register_ms += ms_since(u0);

    Measured m{};
    m.alloc = m.h2d = m.kernel = m.d2h = m.staging = -1;
    for (const Measured& part : measured) add_measured(&m, part);
    m.startup = std::max(m.startup, startup);
    if (m.alloc >= 0) m.alloc += register_ms;
    m.total = ms_since(t0);
    const ReportLevel level = report_requested();
    if (level != ReportLevel::None) {
        const bool first = first_call_over_devices(name);
        if (level == ReportLevel::Time)
            print_time_line(name, m, cfg.predicted, first);
        else
            print_phase_table(name + ": " + to_string(cfg.scheme) + ", " + std::to_string(n) + " GPUs, " +
                                  std::to_string(m.tiles) + " tiles, " + to_string(cfg.host),
                              m, cfg.predicted, cfg.host == HostMemory::Staged || scheme.packs_tiles, first);
    }
    return m;
}

}  // namespace recipe::detail
