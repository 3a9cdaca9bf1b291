#include "recipes/gpu_choice.h"

#include "advisor/program_time.h"
#include "recipes/region_plan.h"

namespace recipe::recipes {

double region_fresh_bytes(const RegionOutcome& region) {
    double fresh = 0;
    for (std::size_t k = 0; k < region.arrays.size(); ++k)
        if (region.arrays[k].copy_out &&
            ((!region.arrays[k].copy_in && !region.arrays[k].written_before) || region.arrays[k].zero_pages))
            fresh += static_cast<double>(region.arrays[k].bytes);
    return fresh;
}

namespace {

// The entry of the curve the call or region runs with: the fastest, or with
// --all-gpus the most GPUs priced. Sets devices, fastest and forced.
std::size_t pick(GpuChoice& c, bool all) {
    const std::size_t fastest = advisor::fastest(c.curve);
    const std::size_t best = all ? c.curve.size() - 1 : fastest;
    c.fastest = c.curve[fastest].devices;
    c.devices = c.curve[best].devices;
    c.forced = best != fastest;
    return best;
}

}  // namespace

GpuChoice choose_call_gpus(const advisor::Prediction& chosen, const advisor::Platform& platform,
                           const advisor::ModelOptions& options, int max_gpus, std::int64_t calls, std::string refused,
                           bool all, double hidden_ms, const std::vector<advisor::Prediction>* ranked) {
    GpuChoice c;
    c.asked = max_gpus > 1;
    const double fresh = advisor::fresh_output_bytes(chosen.problem);
    c.hidden_ms = hidden_ms;
    c.own_startup_ms = advisor::cuda_startup_ms(platform, max_gpus);
    c.curve.push_back(advisor::device_cost(chosen, platform, 1, false, fresh, calls, hidden_ms));
    if (refused.empty()) refused = advisor::devices_refusal(chosen.problem, chosen.config);
    c.refused = refused;
    if (!refused.empty()) return c;
    std::vector<advisor::DevicePrediction> runs(1);
    // The plans re-priced on each count: the chosen, then the search's next best.
    std::vector<const advisor::Prediction*> plans{&chosen};
    if (ranked)
        for (const advisor::Prediction& p : *ranked) {
            if (plans.size() >= kRepricedPlans) break;
            if (&p != &chosen && advisor::devices_refusal(p.problem, p.config).empty()) plans.push_back(&p);
        }
    for (int n = 2; n <= max_gpus; ++n) {
        advisor::DevicePrediction d;
        std::string why;
        if (!advisor::predict_devices(chosen.problem, platform, options, chosen.config, n, &d, &why)) {
            c.not_priced.push_back(std::to_string(n) + " GPUs: " + why);
            break;  // fewer tile rows than n: none beyond either
        }
        for (std::size_t k = 1; k < plans.size(); ++k) {
            advisor::DevicePrediction other;
            if (advisor::predict_devices(plans[k]->problem, platform, options, plans[k]->config, n, &other, nullptr) &&
                other.prediction.total_ms < d.prediction.total_ms)
                d = std::move(other);
        }
        c.curve.push_back(advisor::device_cost(d.prediction, platform, n, false, fresh, calls, hidden_ms));
        c.split_dimension = d.split_dimension;
        std::vector<std::int64_t> rows;
        for (const Box& b : d.slabs) rows.push_back(b.extent(d.split_dimension));
        c.rows.push_back(rows);
        runs.push_back(std::move(d));
    }
    if (!c.rows.empty()) c.rows.insert(c.rows.begin(), {chosen.problem.space.extent(c.split_dimension)});
    const std::size_t best = pick(c, all);
    if (c.devices > 1) c.run = std::move(runs[best]);
    return c;
}

GpuChoice choose_region_gpus(const RegionOutcome& region, const advisor::Platform& platform,
                             const advisor::ModelOptions& options, int max_gpus, std::int64_t calls, double fresh_bytes,
                             bool all, double hidden_ms) {
    GpuChoice c;
    c.asked = max_gpus > 1;
    c.hidden_ms = hidden_ms;
    c.own_startup_ms = advisor::cuda_startup_ms(platform, max_gpus);
    c.curve.push_back(advisor::device_cost(region.prediction.total, platform, 1, false, fresh_bytes, calls, hidden_ms));
    // Arrays too large for one GPU (a region with ghost zones there) may fit
    // when each GPU holds its part: predict_region_devices checks each part.
    c.refused = advisor::region_devices_refusal(region.problem);
    if (!c.refused.empty()) return c;
    c.halo_rows = advisor::region_halo_rows(region.problem);
    std::vector<advisor::RegionDevicePrediction> parts(1);
    for (int n = 2; n <= max_gpus; ++n) {
        advisor::RegionDevicePrediction d;
        std::string why;
        if (!advisor::predict_region_devices(region.problem, platform, options, n, &d, &why)) {
            c.not_priced.push_back(std::to_string(n) + " GPUs: " + why);
            break;
        }
        c.curve.push_back(advisor::device_cost(d.total, platform, n, d.exchanges(), fresh_bytes, calls, hidden_ms));
        c.split_dimension = d.split_dimension;
        std::vector<std::int64_t> rows;
        for (const Box& b : d.owned) rows.push_back(b.extent(d.split_dimension));
        c.rows.push_back(rows);
        parts.push_back(std::move(d));
    }
    if (!c.rows.empty()) c.rows.insert(c.rows.begin(), {region.problem.extents[static_cast<std::size_t>(c.split_dimension)]});
    const std::size_t best = pick(c, all);
    if (c.devices > 1) c.region = std::move(parts[best]);
    return c;
}

}  // namespace recipe::recipes
