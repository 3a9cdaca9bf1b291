// multi_gpu.h — one call (recipe::run) or one region (recipe::Region) over
// several GPUs of one host, as the library runs it (recipe/device_split.h
// cuts the work; library/include/recipe/config.cuh, Config::devices), and
// what the program pays for it. Every formula for n > 1 GPUs is here
// (docs/model.md, "Several GPUs"); the figures come from the profile's
// "multiGpu" object (Platform::multi_gpu). With one GPU nothing here is
// used: the plans are priced as before.
//
// seed 004 §4.1, Figure 14: the parts run at once, the time is the slowest
// part plus the exchange.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "advisor/plan.h"
#include "advisor/platform.h"
#include "advisor/region.h"

namespace recipe::advisor {

// The most GPUs the profile has figures for (1 without "multiGpu").
int profile_gpus(const Platform& platform);
// Why `gpus` GPUs cannot be planned on this profile ("" when they can): no
// "multiGpu" figures, or figures for fewer GPUs.
std::string missing_gpu_figures(const Platform& platform, int gpus);

// One GPU's share of what n GPUs share when they work at once, as factors on
// one GPU's times (1 for n = 1): a copy in takes `h2d` times as long as on one
// GPU alone (h2dGBs[0] / (h2dGBs[n-1] / n)), a copy out `d2h` times, the host's
// packing `staging` times (stagingGBs), a first call's fresh output pages
// `fresh` times (freshGBs; 1 where the profile lacks it: each GPU's threads
// fault in their own pages at one GPU's rate).
struct DeviceShares {
    double h2d = 1;
    double d2h = 1;
    double staging = 1;
    double fresh = 1;
};
DeviceShares device_shares(const Platform& platform, int devices);
// The platform as one of n GPUs working at once sees it: its copy tables
// (pinned and pageable, each way), host packing tables and the library's
// measured pipeline and staging costs slowed by device_shares; the rest as is.
Platform platform_for_devices(const Platform& platform, int devices);

// The start-up the further GPUs add to the program's (contextStartMs[n-1] -
// contextStartMs[0], their contexts started in parallel with the first), ms.
double extra_contexts_ms(const Platform& platform, int devices);
// Creating the NCCL communicators of n GPUs, once per process, by the
// start-up thread of a program with a region over several GPUs that
// exchanges halos (recipe::PoolSize::halo_exchange; ncclInitMs[n-1]); 0 for one GPU.
double nccl_init_ms(const Platform& platform, int devices);
// What the further GPUs add to the program's exit: their contexts torn down
// (exitMs[n-1] - exitMs[0]) and, when the program made NCCL's communicators,
// theirs (ncclExitMs[n-1] - exitMs[n-1]); 0 for one GPU or a profile without
// exitMs. Measured on a host of 2 H200s (bench/multi/outside.sh, medians of
// 5; docs/results-multi-gpu-h200-2gpus.md): the exit after the checksum line
// took 46 ms longer with a second GPU's context (emboss) and 426 ms longer
// with NCCL's communicators of two as well (stencil7), than with one GPU.
double extra_exit_ms(const Platform& platform, int devices, bool nccl);
// One halo exchange, every neighbour pair sending `bytes` each way at once:
// exchangeUs + bytes / exchangeGBs, ms.
double halo_exchange_ms(const Platform& platform, double bytes);

// ---- recipe::run over n GPUs.

// Why the plan cannot run over several GPUs ("" when it can): a time loop run
// through recipe::iterate (one GPU only), or a space of fewer than 2 tile rows
// along every dimension (one slab).
std::string devices_refusal(const Problem& problem, const Config& config);

struct DevicePrediction {
    int devices = 1;
    int split_dimension = 0;            // the dimension the slabs are cut along (0: x)
    std::vector<Box> slabs;             // each GPU's part of the iteration space (recipe::device_slabs)
    std::vector<double> slab_ms;        // each slab's time, priced alone with its GPU's share of the links
    std::vector<std::int64_t> h2d_bytes, d2h_bytes;  // each GPU's copies
    std::size_t slowest = 0;
    // The call: the slowest slab's phases, copies and memory (per GPU), its
    // total; the configuration and the problem the whole call's.
    Prediction prediction;
};
// Each GPU's slab of the space (device_slabs with the configuration's tile)
// priced as `config` on that part alone, its copies at the GPU's share of the
// links (platform_for_devices), each GPU's allocation as on one GPU; the call
// takes as long as its slowest slab. Fails (error set) when the space has
// fewer than `devices` tile rows, or the configuration does not run.
bool predict_devices(const Problem& problem, const Platform& platform, const ModelOptions& options, const Config& config,
                     int devices, DevicePrediction* out, std::string* error);

// ---- recipe::Region over n GPUs.

// The rows along the split dimension a GPU holds beyond its own on each side:
// the deepest halo (below or above) of any input of the region's nests.
std::int64_t region_halo_rows(const RegionProblem& region);
// Why the region cannot run over several GPUs ("" when it can): a launch on a
// part of an array, or arrays of one row along their slowest dimension.
std::string region_devices_refusal(const RegionProblem& region);

struct RegionDevicePrediction {
    int devices = 1;
    int split_dimension = 0;
    std::int64_t halo_rows = 0;
    std::vector<Box> owned, held;     // each GPU's rows (recipe::region_slabs, region_held)
    std::vector<std::int64_t> in_bytes, out_bytes, device_bytes;  // each GPU's copies and arrays
    // The launches of a later step that exchange halo rows first, the bytes
    // each neighbour pair sends each way for them, and their exchanges' time.
    std::int64_t exchanges_per_step = 0;
    std::int64_t exchange_bytes_per_step = 0;
    double exchange_ms_per_step = 0;
    std::int64_t exchanges_first_step = 0;  // in the first step only arrays written earlier in it
    bool exchanges() const { return exchanges_per_step > 0 || exchanges_first_step > 0; }
    std::vector<double> launch_ms;    // each launch of a later step, its slowest GPU
    // The whole region: phases of its slowest GPUs, total; device and host
    // memory per GPU.
    Prediction total;
};
// Each GPU holds its slab (region_slabs) plus halo_rows rows of each
// neighbour's, copies its held rows in and its owned rows out over its own
// link at its share (pipelined in chunks as on one GPU), and runs each launch
// on its owned rows. A launch that reads across the cut an array an earlier
// launch wrote first exchanges the halo rows, overlapped with its interior:
//   launch = max(interior, exchange) + edge strips + a launch overhead per strip
// The step waits for its slowest GPU at each launch:
//   T = max_i(alloc_i + in_i) + Σ_steps Σ_launches max_i launch_i + max_i(out_i)
// NCCL's set-up is not in T (once per program, at its start-up: nccl_init_ms).
bool predict_region_devices(const RegionProblem& region, const Platform& platform, const ModelOptions& options, int devices,
                            RegionDevicePrediction* out, std::string* error);

// ---- What the program pays.

// A call (or region) on n GPUs as the program runs it, `calls` times: the
// first call cold (first_call_extra_ms, by the fresh output bytes), the later
// ones warm, and once what the further GPUs add to the start-up the program
// waits for: their contexts (extra_contexts_ms) and, for a region that
// exchanges halos, NCCL's communicators (nccl_init_ms), less what the
// program's work before its first call (`hidden_ms`) still hides once CUDA's
// own start-up (cuda_startup_ms on a host of n GPUs) is done: the start-up
// thread does them all while the program works (recipe/start.cuh); and at
// the program's exit their teardown (extra_exit_ms), which nothing hides.
struct DeviceCost {
    int devices = 1;
    std::int64_t calls = 1;
    double call_ms = 0;     // one warm call
    double first_ms = 0;    // the first call
    double added_ms = 0;    // the further GPUs' start-up (nccl_ms included), hidden or not
    double startup_ms = 0;  // what of it the program waits for, once
    double nccl_ms = 0;     // of added_ms, NCCL's communicators
    double exit_ms = 0;     // the further GPUs' (and NCCL's) teardown at exit, once
    double total_ms() const { return first_ms + call_ms * static_cast<double>(calls - 1) + startup_ms + exit_ms; }
};
DeviceCost device_cost(const Prediction& call, const Platform& platform, int devices, bool exchanges_halos, double fresh_bytes,
                       std::int64_t calls, double hidden_ms = 0);
// The fewest GPUs whose cost is the least (index into `costs`, which are for
// 1, 2, ... GPUs in order).
std::size_t fastest(const std::vector<DeviceCost>& costs);

}  // namespace recipe::advisor
