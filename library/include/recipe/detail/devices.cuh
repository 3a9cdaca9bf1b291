// detail/devices.cuh — what a call over several GPUs (Config::devices > 1)
// needs whether it is a recipe::run or a recipe::Region: the GPUs checked,
// the GPUs' figures added up, one report per call.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <mutex>
#include <set>
#include <string>

#include "recipe/config.cuh"
#include "recipe/error.cuh"

namespace recipe::detail {

// The GPUs a call asks for, checked against those the process sees.
inline void require_devices(const Config& cfg, const std::string& name) {
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    check(e, "cudaGetDeviceCount", [&] { return name; });
    if (cfg.devices > count)
        throw Error("recipe: " + name + ": its Config asks for " + std::to_string(cfg.devices) +
                    " GPUs; this process sees " + std::to_string(count) +
                    " (CUDA_VISIBLE_DEVICES, or run recipe advise again with --gpus " + std::to_string(count) + ")");
}

// Adds one GPU's figures into the call's.
inline void add_measured(Measured* sum, const Measured& m) {
    auto add = [](double* s, double v) {
        if (v >= 0) *s = (*s < 0 ? 0 : *s) + v;
    };
    add(&sum->alloc, m.alloc);
    add(&sum->h2d, m.h2d);
    add(&sum->kernel, m.kernel);
    add(&sum->d2h, m.d2h);
    add(&sum->staging, m.staging);
    sum->startup = std::max(sum->startup, m.startup);
    sum->tiles += m.tiles;
    sum->h2d_copies += m.h2d_copies;
    sum->d2h_copies += m.d2h_copies;
    sum->h2d_bytes += m.h2d_bytes;
    sum->d2h_bytes += m.d2h_bytes;
}

// Whether this is the first call of its name over several GPUs in the
// process (Predicted::first applies to it).
inline bool first_call_over_devices(const std::string& name) {
    static std::mutex mutex;
    static std::set<std::string> seen;
    std::lock_guard<std::mutex> lock(mutex);
    return seen.insert(name).second;
}

}  // namespace recipe::detail
