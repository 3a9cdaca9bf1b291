// model.h — the performance model of every scheme (docs/model.md), set up
// once per problem and platform so the search can price thousands of
// configurations quickly. predict() in plan.h wraps it.
//
// Pricing one configuration (evaluate) goes in named steps: the copy costs
// of each tile class (class_costs), their sums (sum_tiles), the scheme's
// pipeline formula (price_pipeline), the time loop's frame
// (copy_time_loop_frame), the allocations (allocate), the inputs read whole
// (copy_whole_inputs) and the operation that sets the pace
// (dominant_operation). What the library does its own way (our library or
// the thesis's) is asked of a LibraryPricing (library_pricing.h).
#pragma once

#include <memory>
#include <string>

#include "advisor/kernel_time.h"
#include "advisor/library_pricing.h"
#include "advisor/pipeline.h"
#include "advisor/tile_classes.h"
#include "advisor/plan.h"

namespace recipe::advisor {

class Model {
public:
    // One array the host holds (an output that is also an input is one).
    struct HostArray {
        std::string name;
        std::int64_t bytes = 0;
    };

    Model(const Problem& problem, const Platform& platform, const ModelOptions& options);

    // Prices one configuration with the cheapest allowed host strategy (or
    // config.host when set). False with `error` when it cannot run.
    // `explain` false leaves out the notes and the copy of the problem
    // (the search prices thousands of candidates and keeps few).
    bool predict(const Config& config, Prediction* out, std::string* error, bool explain = true) const;

    // naive_baseline() (plan.h) with this model's problem, platform and options.
    bool naive_baseline(Prediction* naive, std::string* error) const;

    const Problem& problem() const { return problem_; }
    const Platform& platform() const { return platform_; }
    bool host_pinned() const { return pinned_; }

private:
    // Per tile class: its steps and copies. They do not depend on the
    // stream count, which the search varies innermost: the last set is kept.
    struct ClassCost {
        StepTimes t;
        std::int64_t count = 0;
        TransferStats in, out, staged;  // per tile
    };
    struct CopyRoute;   // how one configuration's copies travel (model.cpp)
    struct Evaluation;  // one configuration being priced, step by step (model.cpp)

    bool normalise(Config* config, std::string* error) const;
    std::vector<HostStrategy> host_strategies(const Config& config) const;
    bool evaluate(const Config& config, HostStrategy host, Prediction* out, std::string* error, bool explain) const;
    const TileClasses& classes(const Index3& tile) const;

    // The steps of evaluate(), in order.
    const std::vector<ClassCost>& class_costs(const Config& config, HostStrategy host, double occupancy) const;
    ClassCost class_cost(const TileClass& c, const TileClasses& tc, const CopyRoute& route, double occupancy) const;
    void move_box(const ArrayUse& a, const Index3& box, const Index3& placement, bool in, const CopyRoute& route,
                  ClassCost* cc) const;
    void sum_tiles(Evaluation* ev) const;
    void shape_pipeline(Evaluation* ev) const;
    void price_pipeline(Evaluation* ev) const;
    void copy_time_loop_frame(Evaluation* ev) const;
    bool allocate(Evaluation* ev, std::string* error) const;
    void copy_whole_inputs(Evaluation* ev) const;
    void set_typical_tile(Evaluation* ev) const;

    Problem problem_;
    const Platform& platform_;
    ModelOptions options_;
    const LibraryPricing& library_;
    KernelModel kernel_;
    bool pinned_ = false;
    // The last tile's classes: the search prices one tile shape with every
    // scheme, copy method and stream count in a row. Not thread-safe.
    mutable std::unique_ptr<TileClasses> classes_;
    mutable Index3 classes_key_{0, 0, 0};

    struct CostKey {
        Index3 tile{0, 0, 0};
        Scheme scheme = Scheme::Naive;
        CopyMethod copy = CopyMethod::Merged;
        HostStrategy host = HostStrategy::Pinned;
        Index3 block{0, 0, 0};
        int buffers = 0;  // packed runs: the tile buffer sets, which their packing is priced by
        bool operator==(const CostKey&) const = default;
    };
    struct CostEntry {
        CostKey key;
        std::vector<ClassCost> costs;
    };
    mutable std::vector<CostEntry> cost_cache_;  // a few entries: one per host strategy
    mutable std::size_t cost_next_ = 0;
    std::vector<HostArray> host_arrays_;  // each array the host holds once
};

// thesis §6.4.4: the operation that sets the pace of the pipeline, the one
// busiest over the run (or the setup when allocation and registration
// outweigh it).
Operation dominant_operation(const PhaseTimes& phases);

}  // namespace recipe::advisor
