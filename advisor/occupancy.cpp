// Thread-block shapes against the device's occupancy limits (seed 001,
// Table 1: threads, registers, shared memory and blocks per SM).
#include <algorithm>
#include <array>
#include <cmath>

#include "advisor/plan.h"

namespace recipe::advisor {

namespace {

// The kernels recipe writes use few registers; without a compiled kernel
// the advisor assumes this many per thread.
constexpr int kAssumedRegistersPerThread = 32;

}  // namespace

double block_occupancy(const Platform& platform, const Index3& block, std::string* why) {
    const OccupancyLimits& o = platform.occupancy;
    auto fail = [&](const std::string& m) {
        if (why) *why = m;
        return 0.0;
    };
    if (block[0] < 1 || block[1] < 1 || block[2] < 1) return fail("block sizes must be positive");
    if (block[0] > o.max_block_dim_x || block[1] > o.max_block_dim_y || block[2] > o.max_block_dim_z)
        return fail("block exceeds the device's maximum block dimensions (" + std::to_string(o.max_block_dim_x) + "x" +
                    std::to_string(o.max_block_dim_y) + "x" + std::to_string(o.max_block_dim_z) + ")");
    const std::int64_t threads = block[0] * block[1] * block[2];
    if (threads > o.max_threads_per_block)
        return fail("block of " + std::to_string(threads) + " threads exceeds the device's " +
                    std::to_string(o.max_threads_per_block) + " threads per block");
    const std::int64_t warps = (threads + o.warp_size - 1) / o.warp_size;
    const std::int64_t regs_per_block = warps * o.warp_size * kAssumedRegistersPerThread;
    std::int64_t blocks = o.max_blocks_per_sm;
    blocks = std::min<std::int64_t>(blocks, o.max_threads_per_sm / (warps * o.warp_size));
    blocks = std::min<std::int64_t>(blocks, o.registers_per_sm / regs_per_block);
    if (blocks < 1) return fail("block needs more registers or threads than one SM has");
    return static_cast<double>(blocks * threads) / o.max_threads_per_sm;
}

// The shapes are tried in the order they ran fastest on an H200
// (bench/kernel/view_cost_probe.cu, PolyBench's steps in doubles through the
// library's views): a block that leaves a few more threads idle at the
// space's edge can still be the faster one. jacobi-2d's 1298^2 interior ran
// 7.6 us a launch in 32x8 blocks and 10.4 in 32x4, which waste 1.5% and 1.2%
// of their threads; heat-3d's 198^3 ran 45.6 in 32x4x2 and 51.0 in 16x8x4,
// which waste 12.5% and 7.4% (hand-written kernels; the views' own figures
// are in docs/model.md). So a later shape is taken only when its share of
// busy threads is more than kBetterBy above the earlier ones'.
Index3 choose_block(const Problem& problem, const Platform& platform, const Index3& tile, double* occupancy) {
    static const std::array<Index3, 6> one_d = {{{128, 1, 1}, {256, 1, 1}, {512, 1, 1}, {1024, 1, 1}, {64, 1, 1}, {32, 1, 1}}};
    static const std::array<Index3, 7> two_d = {{{32, 8, 1}, {32, 4, 1}, {64, 4, 1}, {32, 16, 1}, {16, 16, 1}, {128, 2, 1}, {256, 1, 1}}};
    static const std::array<Index3, 7> three_d = {{{32, 4, 2}, {32, 8, 1}, {32, 4, 4}, {64, 4, 1}, {32, 8, 2}, {16, 8, 4}, {256, 1, 1}}};
    constexpr double kBetterBy = 0.10;
    const Index3* first = problem.dims == 1 ? one_d.data() : problem.dims == 2 ? two_d.data() : three_d.data();
    const std::size_t n = problem.dims == 1 ? one_d.size() : problem.dims == 2 ? two_d.size() : three_d.size();
    Index3 best{0, 0, 0};
    double best_occ = -1, best_score = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const Index3& b = first[i];
        const double occ = block_occupancy(platform, b, nullptr);
        if (occ <= 0) continue;
        // Threads launched beyond the tile's edge do nothing.
        double launched = 1, used = 1;
        for (int d = 0; d < 3; ++d) {
            launched *= static_cast<double>((tile[d] + b[d] - 1) / b[d] * b[d]);
            used *= static_cast<double>(tile[d]);
        }
        const double score = occ * (used / launched);
        if (best_occ < 0 || score > best_score * (1 + kBetterBy)) {
            best = b;
            best_occ = occ;
            best_score = score;
        }
    }
    if (best_occ < 0) {  // a device with tiny limits: one warp
        best = {std::min<std::int64_t>(platform.occupancy.warp_size, platform.occupancy.max_block_dim_x), 1, 1};
        best_occ = block_occupancy(platform, best, nullptr);
    }
    if (occupancy) *occupancy = best_occ;
    return best;
}

}  // namespace recipe::advisor
