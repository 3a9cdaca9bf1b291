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

Index3 choose_block(const Problem& problem, const Platform& platform, const Index3& tile, double* occupancy) {
    static const std::array<Index3, 6> one_d = {{{128, 1, 1}, {256, 1, 1}, {512, 1, 1}, {1024, 1, 1}, {64, 1, 1}, {32, 1, 1}}};
    static const std::array<Index3, 7> two_d = {{{32, 8, 1}, {32, 4, 1}, {64, 4, 1}, {32, 16, 1}, {16, 16, 1}, {128, 2, 1}, {256, 1, 1}}};
    static const std::array<Index3, 7> three_d = {{{32, 4, 2}, {32, 8, 1}, {32, 4, 4}, {64, 4, 1}, {32, 8, 2}, {16, 8, 4}, {256, 1, 1}}};
    const Index3* first = problem.dims == 1 ? one_d.data() : problem.dims == 2 ? two_d.data() : three_d.data();
    const std::size_t n = problem.dims == 1 ? one_d.size() : problem.dims == 2 ? two_d.size() : three_d.size();
    Index3 best{0, 0, 0};
    double best_occ = -1, best_waste = 0;
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
        const double waste = (launched - used) / launched;
        const double score = occ * (1 - waste);
        const double best_score = best_occ * (1 - best_waste);
        if (score > best_score + 1e-12) {
            best = b;
            best_occ = occ;
            best_waste = waste;
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
