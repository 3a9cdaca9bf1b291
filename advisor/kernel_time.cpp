#include "advisor/kernel_time.h"

#include <algorithm>
#include <cmath>
#include <cctype>
#include <sstream>
#include <vector>

namespace recipe::advisor {

double library_points_per_ns(const Platform& platform) {
    std::vector<double> rates;
    for (const auto& [name, t] : platform.kernels)
        if (!t.elements.empty() && t.elements.back() >= kTablePointsForRate && t.ns.back() > 0)
            rates.push_back(t.elements.back() / t.ns.back());
    if (rates.empty()) return 0;
    std::sort(rates.begin(), rates.end());
    const std::size_t n = rates.size();
    return n % 2 ? rates[n / 2] : (rates[n / 2 - 1] + rates[n / 2]) / 2;
}

double roofline_ms_per_point(const Problem& problem, const Platform& platform) {
    // Each point's arithmetic at peak flops, or its unique bytes (every array
    // element read or written once, neighbours coming from cache) at the
    // device's bandwidth, whichever is slower; and no faster than the
    // library's kernels run a point on this device (measured: they reach
    // about a third of the copy bandwidth in floats, whatever the element
    // size, so a point's cost is not its bytes alone).
    const double compute_ms = problem.flops_per_point / (platform.peak_gflops * 1e9) * 1e3;
    const double memory_ms = problem.bytes_per_point / (platform.device_bandwidth_gbs * 1e9) * 1e3;
    const double rate = library_points_per_ns(platform);
    const double point_ms = rate > 0 ? 1e-6 / rate : 0;
    return std::max({compute_ms, memory_ms, point_ms});
}

namespace {

// "moving_average" finds the thesis's "movingAverage": case and
// underscores do not count.
std::string normalised(const std::string& name) {
    std::string out;
    for (char c : name)
        if (c != '_' && c != '-') out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

}  // namespace

const KernelTable* find_kernel(const Platform& platform, const std::string& name) {
    if (name.empty()) return nullptr;
    if (auto it = platform.kernels.find(name); it != platform.kernels.end()) return &it->second;
    for (const auto& [key, table] : platform.kernels)
        if (normalised(key) == normalised(name)) return &table;
    return nullptr;
}

KernelModel::KernelModel(const Problem& problem, const Platform& platform, const ModelOptions& options) {
    launch_overhead_ms_ = platform.kernel_launch_ns * 1e-6;
    const double points = static_cast<double>(problem.extents[0] * problem.extents[1] * problem.extents[2]);
    std::ostringstream os;
    if (options.kernel_ms) {
        source_ = KernelSource::UserGiven;
        ms_per_point_ = *options.kernel_ms / points;
        os << "kernel time " << *options.kernel_ms << " ms for the whole problem (--kernel-ms), scaled by each tile's share";
    } else if (const KernelTable* t = find_kernel(platform, problem.kernel_name)) {
        source_ = KernelSource::Measured;
        table_ = t;
        os << "kernel time measured on " << platform.name << " ('" << problem.kernel_name << "' table, "
           << to_string(table_->interpolation) << " interpolation)";
    } else {
        source_ = KernelSource::Estimate;
        ms_per_point_ = roofline_ms_per_point(problem, platform);
        os << "kernel time is an ESTIMATE (roofline: " << problem.flops_per_point << " flops and "
           << problem.bytes_per_point << " bytes per point at " << platform.peak_gflops << " GFLOP/s and "
           << platform.device_bandwidth_gbs << " GB/s";
        if (const double rate = library_points_per_ns(platform); rate > 0)
            os << ", at most " << static_cast<long long>(std::llround(rate)) << " points per ns as the library's kernels run on this device";
        os << "); measure it and pass --kernel-ms for a better prediction";
    }
    description_ = os.str();
}

double KernelModel::launch_ms(std::int64_t points, double occupancy) const {
    return run_ms(points, occupancy) + launch_overhead_ms_;
}

double KernelModel::run_ms(std::int64_t points, double occupancy) const {
    const double n = static_cast<double>(points);
    double work;
    if (table_) {
        work = table_->ms(n);
    } else {
        work = ms_per_point_ * n;
        // Too few resident threads cannot hide memory latency: below half
        // occupancy the estimate slows in proportion (rule of thumb).
        if (source_ == KernelSource::Estimate && occupancy > 0 && occupancy < 0.5) work *= 0.5 / occupancy;
    }
    return work;
}

}  // namespace recipe::advisor
