// gpu_choice.h — how many GPUs each converted call and region runs on
// (`recipe advise --gpus N`): n = 1 ... N priced by the advisor
// (advisor/multi_gpu.h), each as the program pays it, the fastest kept
// (ties: fewer GPUs). Without --gpus, or with --gpus 1, every call and region
// runs on one GPU and nothing here is used.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "advisor/multi_gpu.h"

namespace recipe::recipes {

struct RegionOutcome;

struct GpuChoice {
    bool asked = false;       // --gpus N > 1: the recipe and the plan say what was chosen
    int devices = 1;          // the GPUs it runs on
    int fastest = 1;          // the GPUs the program is fastest with (devices, unless forced)
    bool forced = false;      // --all-gpus made it run on more than `fastest`
    std::string refused;      // why it runs on one GPU whatever it costs ("" when n = 1 ... N were priced)
    // The program's cost on 1, 2, ... GPUs, as far as the work can be cut
    // (advisor::DeviceCost): one entry when refused.
    std::vector<advisor::DeviceCost> curve;
    double hidden_ms = 0;       // the program's work before its first converted call (advisor::device_cost)
    double own_startup_ms = 0;  // CUDA's own start-up on a host of several GPUs
    std::vector<std::string> not_priced;  // GPU counts the work cannot be cut into, and why
    int split_dimension = 0;              // the dimension the work is cut along (0: x)
    std::int64_t halo_rows = 0;           // a region: the rows of each neighbour a GPU holds too
    std::vector<std::vector<std::int64_t>> rows;  // per entry of `curve`: each GPU's rows along it
    advisor::DevicePrediction run;             // a call on `devices` GPUs (devices > 1)
    advisor::RegionDevicePrediction region;    // a region on `devices` GPUs (devices > 1)
};

// A call (recipe::run) with the plan `chosen`, run `calls` times; `refused`
// non-empty: it stays on one GPU, for that reason.
// `all` (--all-gpus): the most GPUs priced, not the fastest. `hidden_ms`:
// the program's work before its first converted call, which hides the
// start-up (advisor::device_cost).
// `ranked`: the one-GPU search's best plans (chosen first); on n GPUs the
// fastest of the first kRepricedPlans of them is taken, not the one-GPU
// choice alone (a slab is smaller than the space: its best tile may differ).
constexpr std::size_t kRepricedPlans = 8;
GpuChoice choose_call_gpus(const advisor::Prediction& chosen, const advisor::Platform& platform,
                           const advisor::ModelOptions& options, int max_gpus, std::int64_t calls, std::string refused,
                           bool all = false, double hidden_ms = 0, const std::vector<advisor::Prediction>* ranked = nullptr);
// A region, run `calls` times (its first run's fresh output bytes `fresh_bytes`).
GpuChoice choose_region_gpus(const RegionOutcome& region, const advisor::Platform& platform,
                             const advisor::ModelOptions& options, int max_gpus, std::int64_t calls, double fresh_bytes,
                             bool all = false, double hidden_ms = 0);

// The bytes a region's first run writes to fresh pages: the arrays it copies
// out and either does not copy in or whose pages still are zero pages.
double region_fresh_bytes(const RegionOutcome& region);

}  // namespace recipe::recipes
