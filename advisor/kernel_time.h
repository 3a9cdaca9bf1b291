// kernel_time.h — how long the nest's kernel runs on a number of points.
//
// thesis §6.4.2 takes measured kernel times (interpolated to the tile's
// size); without a measurement the user's --kernel-ms is scaled by the
// tile's share of the points; without that, a roofline estimate (seed 003
// §5.2: the slower of compute and memory at peak rates, with a third
// ceiling: the points per second the library's own kernels sustain on this
// device, from the profile's kernel tables) stands in and is labelled an
// estimate. Each launch adds the profile's launch overhead.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "advisor/plan.h"

namespace recipe::advisor {

// The library's kernels' own cost per point on this device, from the
// profile's viewKernels (every array through the views; each writes one
// array): by the elements a point reads, through the kernels that read one
// array (a copy, a 5-point star, a 3x3 box; in 3-D a copy and a 7-point
// star), piecewise linear between their read counts and on the last slope
// beyond; plus, for each array a point reads or writes beyond one of each,
// what the zip of three arrays costs over the copy. The kernels of the
// nest's dimensions when they hold two read counts or more, else all.
// Measured on an H200 (doubles, 1 million points): copy 4.97 ns per
// thousand points, zip of three 5.84, 5-point star 5.27, 3x3 box 7.96. One
// least-squares line through all four, as before, priced the star 17% slow
// (jacobi-2d's kernels at LARGE: 30%): it read the zip's three arrays as
// three neighbours of one. `measured` false: the profile has no viewKernels.
struct LibraryPointCost {
    bool measured = false;
    std::vector<std::pair<int, double>> by_reads;  // one array read: reads a point, ns a point; ascending
    double ns_per_array = 0;                       // each array beyond one read and one written
    // A point that reads `reads` elements of `arrays_read` arrays and writes
    // `arrays_written`: the reads beyond one per extra array are neighbours.
    double ns(int reads, int arrays_read = 1, int arrays_written = 1) const;
};
// At the largest grid the profile timed them (viewKernels), in floats.
LibraryPointCost library_point_cost(const Platform& platform, int dims);

// The same cost at each grid size the profile timed the view kernels
// (tools/profiler/view_kernels.cuh: 16.5 million points and 1-2 million),
// ascending by points. On an H200 a 5-point star of floats cost 3.9 ns per 1000
// points at 16.8 million and 4.9 at 1.0 million: a launch's own cost shows
// in small grids, where PolyBench's LARGE ones are.
struct LibrarySizeCost {
    double points = 0;  // the grids' mean points
    LibraryPointCost cost;
};
// In elements of `element_bytes` where the profile timed the kernels in them
// (doubles: a point moves twice a float's bytes), else in floats.
std::vector<LibrarySizeCost> library_size_costs(const Platform& platform, int dims, int element_bytes = 4);
// The least ns a byte the view kernels took at the largest grid they were
// timed on (each kernel's arrays' bytes, read or written once, over its
// time): how fast the library's kernels move bytes from DRAM. On an H200 a
// zip of three floats moved 268 MB in 82.9 us (3.24 TB/s) where a 1 GB
// device-to-device copy ran at 4.25 (deviceBandwidthGBs), and fdtd-2d's
// EXTRALARGE launches of doubles moved theirs at about 3.25. 0 without view
// kernels.
double dram_ns_per_byte(const Platform& platform);
// The element size library_size_costs uses for `element_bytes`.
int view_kernel_element_bytes(const Platform& platform, int element_bytes);
// One launch of a library kernel reading `reads` elements a point over
// `points` points, ns: between two sizes timed, the line through their
// launches' times; below the smallest and beyond the largest, that size's
// cost per point. 0 without view kernels.
double library_kernel_ns(const std::vector<LibrarySizeCost>& sizes, int reads, double points, int arrays_read = 1,
                         int arrays_written = 1);

class KernelModel {
public:
    KernelModel(const Problem& problem, const Platform& platform, const ModelOptions& options);

    // One launch over `points` iteration points, ms, launch overhead included.
    // `occupancy` (0..1] only matters for the estimate.
    double launch_ms(std::int64_t points, double occupancy = 1.0) const;
    // The same without the launch overhead: the kernel's own run on the GPU.
    double run_ms(std::int64_t points, double occupancy = 1.0) const;
    double launch_overhead_ms() const { return launch_overhead_ms_; }
    KernelSource source() const { return source_; }
    const std::string& description() const { return description_; }

private:
    KernelSource source_ = KernelSource::Estimate;
    const KernelTable* table_ = nullptr;
    double ms_per_point_ = 0;  // the roofline's (or without view kernels, the kernel tables' rate)
    std::vector<LibrarySizeCost> library_sizes_;  // the estimate's floor: the view kernels by size
    int reads_ = 0, arrays_read_ = 1, arrays_written_ = 1;
    // Beyond the L2 cache: the nest's bytes a point at the rate the library's
    // kernels reached from DRAM (dram_ns_per_byte); 0: not priced so.
    double bytes_per_point_ = 0, l2_bytes_ = 0, dram_ns_per_byte_ = 0;
    double launch_overhead_ms_ = 0;
    std::string description_;
};

// The shape of the nest's kernel, as kernel tables record theirs.
KernelShape kernel_shape(const Problem& problem);
// The profile's table for the nest's kernel: the one named as
// problem.kernel_name (case and underscores do not count) when it times a
// kernel of the nest's shape. Null otherwise; when a table of that name
// exists but times other work, `why` (if given) says so.
const KernelTable* find_kernel(const Platform& platform, const Problem& problem, std::string* why = nullptr);

// The points per ns the library's kernels sustain on this device (one
// thread per point, through its views): the median over the profile's
// kernel tables of points / time at their largest size, where launch costs
// no longer count (at least kTablePointsForRate points). 0 without such a table.
constexpr double kTablePointsForRate = 1e6;
double library_points_per_ns(const Platform& platform);


// The elements each point of the nest reads (Problem::reads_per_point; when
// not known, one per input).
int reads_per_point(const Problem& problem);
// The arrays a point of the nest reads (inputs, and outputs it also reads at
// its own point) and writes.
int arrays_read(const Problem& problem);
int arrays_written(const Problem& problem);

// seed 003 §5.2 roofline: ms per point at peak flops and device bandwidth;
// without viewKernels, no faster than 1 / library_points_per_ns. (With them
// the estimate is at least library_kernel_ns at the launch's points:
// KernelModel::run_ms.)
double roofline_ms_per_point(const Problem& problem, const Platform& platform);

}  // namespace recipe::advisor
