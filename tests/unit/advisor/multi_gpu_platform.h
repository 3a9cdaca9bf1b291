// multi_gpu_platform.h — the unit platform (unit_platform.h: copies 10 us +
// 1 ns/B, kernels 1 ns per element) with a made-up "multiGpu" object whose
// numbers make hand computation easy:
// - copies in: 1, 1.6, 2.4, 3.2 GB/s for 1-4 GPUs together, so each of n > 1
//   GPUs copies in at 0.8 GB/s: 1.25 times one GPU's time;
// - copies out: 1, 2, 3, 4 GB/s: each GPU at one GPU's speed;
// - host packing: 1 GB/s whatever the count: n times one GPU's time;
// - contexts: 100, 110, 120, 130 ms (the second GPU adds 10 ms);
// - NCCL: 0, 50, 60, 70 ms; an exchange 10 us + 1 ns per byte.
#pragma once

#include <string>

#include "tests/unit/advisor/unit_platform.h"

namespace recipe::test {

inline nlohmann::json multi_gpu_json() {
    return {{"gpus", 4},
            {"h2dGBs", {1.0, 1.6, 2.4, 3.2}},
            {"d2hGBs", {1.0, 2.0, 3.0, 4.0}},
            {"stagingGBs", {1.0, 1.0, 1.0, 1.0}},
            {"contextStartMs", {100.0, 110.0, 120.0, 130.0}},
            {"ncclInitMs", {0.0, 50.0, 60.0, 70.0}},
            {"exchangeUs", 10.0},
            {"exchangeGBs", 1.0},
            {"measured", "made up for the tests"}};
}

inline nlohmann::json unit_multi_gpu_platform_json(const nlohmann::json& multi_gpu = multi_gpu_json()) {
    nlohmann::json p = unit_platform_json();
    p["name"] = "unit-multi-gpu";
    p["multiGpu"] = multi_gpu;
    return p;
}

inline advisor::Platform unit_multi_gpu_platform(const nlohmann::json& multi_gpu = multi_gpu_json()) {
    advisor::Platform pf;
    std::string error;
    if (!advisor::parse_platform(unit_multi_gpu_platform_json(multi_gpu).dump(), "unit-multi-gpu", &pf, &error))
        throw std::runtime_error(error);
    return pf;
}

}  // namespace recipe::test
