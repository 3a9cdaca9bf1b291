// ghost_zones.h — a time loop over arrays larger than the device memory it
// may use, run with ghost zones (seed 002, Meng & Skadron; the library's
// recipe::Region with Config::ghost_launches): every k steps (seed 002's
// trapezoid height h) the arrays pass through the GPU tile by tile, each
// tile's own rows plus the rows its k steps read beyond them (the ghost
// zone, k times the step's halos) copied in, the k steps run on rows that
// shrink by each launch's halo, the tile's own rows copied out. Tiles go one
// after another. Formulas: docs/model.md, "Ghost zones".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "advisor/region.h"

namespace recipe::advisor {

struct GhostPlan {
    std::int64_t steps_per_pass = 1;  // k (seed 002's h)
    std::int64_t core_rows = 0;       // a tile's own rows along the slowest dimension (Config::ghost_tile_rows)
    std::int64_t ghost_below = 0;     // rows a tile reads below its own in a pass (k · the step's halos below)
    std::int64_t ghost_above = 0;     // and above
    std::int64_t tiles = 0;           // per pass
    std::int64_t passes = 0;
    std::int64_t launches_per_pass = 0;  // Config::ghost_launches
    double redundant = 0;  // launch points computed twice or more, over the loop's own
    RegionPrediction prediction;
    // The k priced, each with the tallest tile that fits and its total (ms).
    struct Point {
        std::int64_t steps_per_pass;
        std::int64_t core_rows;
        double total_ms;
    };
    std::vector<Point> curve;
};

// The region with k steps per pass and tiles of `core_rows` rows; fails
// (error set) when the tile and its ghost zone do not fit the device budget,
// or the tile is thinner than the ghost zone below it (the next tile reads
// it before this one's rows go back).
bool predict_ghost_region(const RegionProblem& region, const Platform& platform, const ModelOptions& options,
                          std::int64_t steps_per_pass, std::int64_t core_rows, GhostPlan* out, std::string* error);

// The fastest k (1 ... the steps, at most kMaxStepsPerPass) with, for each,
// the tallest tile the budget holds (seed 002 §5.4.1, Eq. 16: for a given
// height a larger tile always wastes less). Fails (error set) when no k fits.
constexpr std::int64_t kMaxStepsPerPass = 64;
bool plan_ghost_region(const RegionProblem& region, const Platform& platform, const ModelOptions& options, GhostPlan* out,
                       std::string* error);

}  // namespace recipe::advisor
