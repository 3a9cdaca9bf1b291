#include "advisor/kernel_time.h"

#include <algorithm>
#include <cmath>
#include <cctype>
#include <iomanip>
#include <set>
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

double LibraryPointCost::ns(int reads, int arrays_read, int arrays_written) const {
    if (by_reads.empty()) return 0;
    const double r = std::max(1, reads - std::max(0, arrays_read - 1));
    double v;
    if (by_reads.size() == 1 || r <= by_reads.front().first) {
        v = by_reads.front().second;
    } else {
        std::size_t i = 1;
        while (i + 1 < by_reads.size() && by_reads[i].first < r) ++i;
        const auto &lo = by_reads[i - 1], &hi = by_reads[i];
        const double slope = (hi.second - lo.second) / (hi.first - lo.first);
        // Beyond the last read count: on the last segment's slope, never falling.
        v = hi.first < r ? hi.second + std::max(0.0, slope) * (r - hi.first) : lo.second + slope * (r - lo.first);
    }
    v += (arrays_read + arrays_written - 2) * ns_per_array;
    return std::max(0.0, v);
}

namespace {

// The view kernels' cost by reads: those that read one array (two arrays in
// all), the mean at each read count. Without any, every kernel as if it did.
std::vector<std::pair<int, double>> by_reads(const std::vector<const ViewKernelTime*>& k) {
    std::vector<const ViewKernelTime*> one;
    for (const auto* t : k)
        if (t->arrays == 2) one.push_back(t);
    if (one.empty()) one = k;
    std::vector<std::pair<int, double>> out;
    std::set<int> reads;
    for (const auto* t : one) reads.insert(t->reads);
    for (int r : reads) {
        double sum = 0;
        int n = 0;
        for (const auto* t : one)
            if (t->reads == r) {
                sum += t->ns / t->points;
                ++n;
            }
        out.emplace_back(r, sum / n);
    }
    return out;
}

}  // namespace

namespace {

// The view kernels of one size class: each kernel's `rank`-th smallest grid
// (viewKernels holds every kernel at each size it was timed).
std::vector<const ViewKernelTime*> of_rank(const std::vector<const ViewKernelTime*>& kernels, std::size_t rank) {
    std::vector<const ViewKernelTime*> out;
    for (const auto* t : kernels) {
        std::size_t smaller = 0;
        for (const auto* u : kernels)
            if (u->name == t->name && u->points < t->points) ++smaller;
        if (smaller == rank) out.push_back(t);
    }
    return out;
}

// The kernels of the nest's dimensions when they show how the cost grows
// (two read counts or more: a 3-D point's indexing costs more than a 2-D
// one's), else all of them.
std::vector<const ViewKernelTime*> of_dims(const std::vector<const ViewKernelTime*>& k, int dims) {
    std::vector<const ViewKernelTime*> same;
    std::set<int> reads;
    for (const auto* t : k)
        if (t->dims == dims) {
            same.push_back(t);
            reads.insert(t->reads);
        }
    return reads.size() >= 2 ? same : k;
}

}  // namespace

int view_kernel_element_bytes(const Platform& platform, int element_bytes) {
    for (const auto& t : platform.view_kernels)
        if (t.element_bytes == element_bytes) return element_bytes;
    return 4;
}

std::vector<LibrarySizeCost> library_size_costs(const Platform& platform, int dims, int element_bytes) {
    const int bytes = view_kernel_element_bytes(platform, element_bytes);
    std::vector<const ViewKernelTime*> kernels;
    for (const auto& t : platform.view_kernels)
        if (t.element_bytes == bytes) kernels.push_back(&t);
    std::vector<LibrarySizeCost> out;
    for (std::size_t rank = 0;; ++rank) {
        const std::vector<const ViewKernelTime*> k = of_rank(kernels, rank);
        if (k.empty()) break;
        const std::vector<const ViewKernelTime*> used = of_dims(k, dims);
        LibrarySizeCost c;
        c.cost.measured = true;
        c.cost.by_reads = by_reads(used);
        // Each further array: the kernels that read several (the zip of
        // three), over the one-array kernels of their own dimensions.
        double sum = 0;
        int n = 0;
        for (const auto* t : k)
            if (t->arrays > 2) {
                LibraryPointCost own;
                own.by_reads = by_reads(of_dims(k, t->dims));
                const int extra = t->arrays - 2;
                sum += std::max(0.0, (t->ns / t->points - own.ns(t->reads, t->arrays - 1, 1)) / extra);
                ++n;
            }
        c.cost.ns_per_array = n ? sum / n : 0;
        for (const auto* t : used) c.points += t->points / static_cast<double>(used.size());
        out.push_back(c);
    }
    std::sort(out.begin(), out.end(), [](const LibrarySizeCost& a, const LibrarySizeCost& b) { return a.points < b.points; });
    return out;
}

double dram_ns_per_byte(const Platform& platform) {
    double largest = 0, best = 0;
    for (const auto& t : platform.view_kernels) largest = std::max(largest, t.points);
    for (const auto& t : platform.view_kernels) {
        if (t.points < largest / 2) continue;  // the large grids only (every kernel's ~16.5 million points)
        const double ns_per_byte = t.ns / (t.points * t.arrays * t.element_bytes);
        if (best == 0 || ns_per_byte < best) best = ns_per_byte;
    }
    return best;
}

LibraryPointCost library_point_cost(const Platform& platform, int dims) {
    const std::vector<LibrarySizeCost> sizes = library_size_costs(platform, dims);
    return sizes.empty() ? LibraryPointCost{} : sizes.back().cost;
}

double library_kernel_ns(const std::vector<LibrarySizeCost>& sizes, int reads, double points, int arrays_read,
                         int arrays_written) {
    if (sizes.empty() || points <= 0) return 0;
    auto per_point = [&](const LibrarySizeCost& c) { return c.cost.ns(reads, arrays_read, arrays_written); };
    // Below the smallest grid timed and beyond the largest: that grid's cost
    // per point; between two: the line through their launches' times.
    if (sizes.size() == 1 || points <= sizes.front().points) return per_point(sizes.front()) * points;
    if (points >= sizes.back().points) return per_point(sizes.back()) * points;
    std::size_t i = 1;
    while (sizes[i].points < points) ++i;
    const LibrarySizeCost &a = sizes[i - 1], &b = sizes[i];
    const double ta = per_point(a) * a.points, tb = per_point(b) * b.points;
    return ta + (tb - ta) * (points - a.points) / (b.points - a.points);
}

int reads_per_point(const Problem& problem) {
    if (problem.reads_per_point > 0) return problem.reads_per_point;
    return std::max<int>(1, static_cast<int>(problem.inputs.size() + problem.whole_inputs.size()));
}

int arrays_read(const Problem& problem) {
    int n = static_cast<int>(problem.inputs.size() + problem.whole_inputs.size());
    for (const auto& a : problem.outputs) n += a.copy_in ? 1 : 0;
    return n;
}

int arrays_written(const Problem& problem) { return static_cast<int>(problem.outputs.size()); }

double roofline_ms_per_point(const Problem& problem, const Platform& platform) {
    // Each point's arithmetic at peak flops, or its unique bytes (every array
    // element read or written once, neighbours coming from cache) at the
    // device's bandwidth, whichever is slower; and, without view kernels
    // (KernelModel prices those by the launch's size), no faster than the
    // library's kernels run a point on this device (measured: they reach
    // about a third of the copy bandwidth in floats, whatever the element
    // size, so a point's cost is not its bytes alone).
    const double compute_ms = problem.flops_per_point / (platform.peak_gflops * 1e9) * 1e3;
    const double memory_ms = problem.bytes_per_point / (platform.device_bandwidth_gbs * 1e9) * 1e3;
    double point_ms = 0;
    if (const double rate = library_points_per_ns(platform); rate > 0 && !library_point_cost(platform, problem.dims).measured)
        point_ms = 1e-6 / rate;
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

KernelShape kernel_shape(const Problem& problem) {
    KernelShape s;
    s.dims = problem.dims;
    s.inputs = static_cast<int>(problem.inputs.size() + problem.whole_inputs.size());
    s.outputs = static_cast<int>(problem.outputs.size());
    bool first = true;
    for (const auto* list : {&problem.inputs, &problem.whole_inputs, &problem.outputs})
        for (const auto& a : *list) {
            if (first) s.element_bytes = a.elem_bytes;
            else if (a.elem_bytes != s.element_bytes) s.element_bytes = 0;  // mixed: no table matches
            first = false;
        }
    for (const auto& a : problem.inputs)
        for (std::size_t d = 0; d < 3; ++d) {
            s.halo_low[d] = std::max(s.halo_low[d], a.halo.lo[d]);
            s.halo_high[d] = std::max(s.halo_high[d], a.halo.hi[d]);
        }
    // A whole input has no reach of its own, but it is work a table of
    // tiled inputs does not time: it counts among the inputs above.
    return s;
}

const KernelTable* find_kernel(const Platform& platform, const Problem& problem, std::string* why) {
    const std::string& name = problem.kernel_name;
    if (name.empty()) return nullptr;
    const KernelTable* named = nullptr;
    if (auto it = platform.kernels.find(name); it != platform.kernels.end()) named = &it->second;
    for (const auto& [key, table] : platform.kernels)
        if (!named && normalised(key) == normalised(name)) named = &table;
    if (!named) return nullptr;
    const KernelShape shape = kernel_shape(problem);
    if (named->shape == shape) return named;
    if (why)
        *why = "the profile's '" + named->name + "' table times " +
               (named->shape.dims ? "other work (" + to_string(named->shape) + "; this nest: " + to_string(shape) + ")"
                                  : std::string("a kernel whose shape it does not record")) +
               ", so it is not used";
    return nullptr;
}

KernelModel::KernelModel(const Problem& problem, const Platform& platform, const ModelOptions& options) {
    launch_overhead_ms_ = platform.kernel_launch_ns * 1e-6;
    const double points = static_cast<double>(problem.extents[0] * problem.extents[1] * problem.extents[2]);
    std::ostringstream os;
    std::string unused_table;  // why a table of the nest's name does not price it
    if (const std::optional<double> given = problem.kernel_ms ? problem.kernel_ms : options.kernel_ms) {
        source_ = KernelSource::UserGiven;
        ms_per_point_ = *given / points;
        os << "kernel time " << *given << " ms for the whole problem (--kernel-ms), scaled by each tile's share";
    } else if (const KernelTable* t = find_kernel(platform, problem, &unused_table)) {
        source_ = KernelSource::Measured;
        table_ = t;
        os << "kernel time measured on " << platform.name << " ('" << t->name << "' table, "
           << to_string(table_->interpolation) << " interpolation)";
    } else {
        source_ = KernelSource::Estimate;
        ms_per_point_ = roofline_ms_per_point(problem, platform);
        // A nest of doubles (any of its arrays) is priced by the kernels
        // timed in doubles, where the profile has them.
        int element_bytes = 4;
        for (const auto* list : {&problem.inputs, &problem.whole_inputs, &problem.outputs})
            for (const auto& a : *list) element_bytes = std::max(element_bytes, static_cast<int>(a.elem_bytes));
        const int timed_bytes = view_kernel_element_bytes(platform, element_bytes);
        library_sizes_ = library_size_costs(platform, problem.dims, element_bytes);
        reads_ = reads_per_point(problem);
        arrays_read_ = arrays_read(problem);
        arrays_written_ = arrays_written(problem);
        if (platform.l2_cache_bytes > 0) {
            bytes_per_point_ = problem.bytes_per_point;
            l2_bytes_ = static_cast<double>(platform.l2_cache_bytes);
            dram_ns_per_byte_ = dram_ns_per_byte(platform);
        }
        os << "kernel time is an ESTIMATE (roofline: " << problem.flops_per_point << " flops and "
           << problem.bytes_per_point << " bytes per point at " << platform.peak_gflops << " GFLOP/s and "
           << platform.device_bandwidth_gbs << " GB/s";
        if (!library_sizes_.empty() && library_sizes_.front().cost.measured) {
            os << ", at least as long as the library's kernels reading " << reads_ << " element" << (reads_ == 1 ? "" : "s")
               << " a point";
            if (arrays_read_ != 1 || arrays_written_ != 1)
                os << " of " << arrays_read_ << " arra" << (arrays_read_ == 1 ? "y" : "ys") << " into " << arrays_written_;
            os << " (" << (timed_bytes == 8 ? "doubles" : timed_bytes == 4 ? "floats" : std::to_string(timed_bytes) + "-byte elements")
               << (timed_bytes != element_bytes ? ", the profile's only kernels" : "") << ") run on this device: "
               << std::fixed << std::setprecision(2);
            for (std::size_t i = 0; i < library_sizes_.size(); ++i) {
                const LibrarySizeCost& c = library_sizes_[i];
                os << (i ? ", " : "") << c.cost.ns(reads_, arrays_read_, arrays_written_) * 1e3 << " ns per 1000 points at " << std::setprecision(1)
                   << c.points / 1e6 << std::setprecision(2) << " million";
            }
            os << std::defaultfloat;
            if (library_sizes_.size() > 1) os << ", interpolated by the launch's points";
            if (dram_ns_per_byte_ > 0)
                os << "; a launch whose bytes exceed the L2 cache (" << std::llround(l2_bytes_ / 1e6)
                   << " MB) no faster than the library's kernels move bytes from DRAM ("
                   << std::llround(1.0 / dram_ns_per_byte_) << " GB/s)";
        } else if (const double rate = library_points_per_ns(platform); rate > 0) {
            os << ", at most " << static_cast<long long>(std::llround(rate)) << " points per ns as the library's kernels run on this device";
        }
        os << ")";
        if (!unused_table.empty()) os << " (" << unused_table << ")";
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
        work = std::max(ms_per_point_ * n, library_kernel_ns(library_sizes_, reads_, n, arrays_read_, arrays_written_) * 1e-6);
        // Bytes beyond the L2 cache come from DRAM, at the rate the library's
        // kernels reach there, not a device-to-device copy's (fdtd-2d at
        // EXTRALARGE on an H200: 125-166 MB a launch, 3.25 TB/s, against the
        // 4.25 deviceBandwidthGBs priced; at LARGE its 29-38 MB a launch sit
        // in the 50 MB cache and ran faster than that).
        if (dram_ns_per_byte_ > 0 && n * bytes_per_point_ > l2_bytes_)
            work = std::max(work, n * bytes_per_point_ * dram_ns_per_byte_ * 1e-6);
        // Too few resident threads cannot hide memory latency: below half
        // occupancy the estimate slows in proportion (rule of thumb).
        if (source_ == KernelSource::Estimate && occupancy > 0 && occupancy < 0.5) work *= 0.5 / occupancy;
    }
    return work;
}

}  // namespace recipe::advisor
