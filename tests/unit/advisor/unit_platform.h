// unit_platform.h — a made-up platform whose numbers make hand computation
// easy: a copy of b bytes takes 10 us + b ns (1 GB/s), a kernel 1 ns per
// element, allocations 0.1 ms (device) and 0.2 ms (host), registration
// 1 ms, no launch overhead.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "advisor/plan.h"

namespace recipe::test {

inline nlohmann::json unit_platform_json(int copy_engines = 2) {
    using nlohmann::json;
    const json copy = {10010.0, 10100.0, 11000.0, 20000.0, 110000.0, 1010000.0, 10010000.0};  // 10 us + 1 ns/B
    const json twice = {20020.0, 20200.0, 22000.0, 40000.0, 220000.0, 2020000.0, 20020000.0};
    json p = {
        {"name", "unit"},
        {"description", "made-up platform for unit tests"},
        {"copyEngines", copy_engines},
        {"pinnedHostToPinnedHost", {101.0, 110.0, 200.0, 1100.0, 10100.0, 100100.0, 1000100.0}},  // 0.1 us + 0.1 ns/B
        {"pinnedHostToDevice", copy},
        {"deviceToPinnedHost", copy},
        {"mallocFreeHost", {200000.0, 200000.0, 200000.0, 200000.0, 200000.0, 200000.0, 200000.0}},
        {"mallocFreeDevice", {100000.0, 100000.0, 100000.0, 100000.0, 100000.0, 100000.0, 100000.0}},
        {"duplexFactor", 0.5},
        {"pageableHostToDevice", twice},
        {"deviceToPageableHost", twice},
        {"hostRegister", {1e6, 1e6}},
        {"hostUnregister", {5e5, 5e5}},
        {"stridedCopy", {{"perRowNs", 1.0}, {"perCallNs", 0.0}}},
        {"kernelLaunchNs", 0.0},
        {"deviceBandwidthGBs", 1000.0},
        {"peakGflops", 10000.0},
        {"smCount", 10},
        {"deviceMemoryBytes", 1000000000LL},
        {"occupancy",
         {{"warpSize", 32}, {"maxThreadsPerBlock", 1024}, {"maxBlockDim", {1024, 1024, 64}}, {"maxThreadsPerSm", 2048},
          {"maxBlocksPerSm", 32}, {"registersPerSm", 65536}, {"maxRegistersPerThread", 255},
          {"sharedMemoryPerSm", 100000}, {"sharedMemoryPerBlock", 48000}}},
        {"logGP",
         {{"hostToDevice", {{"latencyNs", 10000.0}, {"gapNs", 2000.0}, {"nsPerByte", 1.0}}},
          {"deviceToHost", {{"latencyNs", 10000.0}, {"gapNs", 2000.0}, {"nsPerByte", 1.0}}}}},
        {"kernels",
         {{"k",
           {{"shape", {{"dims", 1}, {"elementBytes", 4}, {"inputs", 1}, {"outputs", 1}, {"haloLow", {0, 0, 0}}, {"haloHigh", {0, 0, 0}}}},
            {"elements", {1000.0, 1e9}},
            {"ns", {1000.0, 1e9}}}}}},
    };
    json source = json::object();
    for (const auto& [k, _] : p.items())
        if (k != "name" && k != "description") source[k] = "made up for the tests";
    p["source"] = source;
    return p;
}

inline advisor::Platform unit_platform(int copy_engines = 2) {
    advisor::Platform pf;
    std::string error;
    if (!advisor::parse_platform(unit_platform_json(copy_engines).dump(), "unit", &pf, &error))
        throw std::runtime_error(error);
    return pf;
}

// One input, one output of floats; the kernel table "k" (1 ns per element)
// prices it when it is 1-D without halo, the table's shape.
inline advisor::Problem unit_problem(Index3 extents, int dims, Halo halo = {}) {
    advisor::Problem p;
    p.kernel_name = "k";
    p.dims = dims;
    p.extents = extents;
    p.space = Box{{0, 0, 0}, extents};
    advisor::ArrayUse in, out;
    in.name = "in";
    out.name = "out";
    in.extents = out.extents = extents;
    in.halo = halo;
    p.inputs = {in};
    p.outputs = {out};
    p.pinned_host = true;
    p.reads_twice = halo.lo != Index3{0, 0, 0} || halo.hi != Index3{0, 0, 0};
    p.flops_per_point = 2;
    p.bytes_per_point = 8;
    return p;
}

}  // namespace recipe::test
