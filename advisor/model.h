// model.h — the performance model of every scheme (docs/model.md), set up
// once per problem and platform so the search can price thousands of
// configurations quickly. predict() in plan.h wraps it.
#pragma once

#include <memory>
#include <string>

#include "advisor/kernel_time.h"
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
    bool normalise(Config* config, std::string* error) const;
    bool evaluate(const Config& config, HostStrategy host, Prediction* out, std::string* error, bool explain) const;
    const TileClasses& classes(const Index3& tile) const;

    Problem problem_;
    const Platform& platform_;
    ModelOptions options_;
    KernelModel kernel_;
    bool pinned_ = false;
    // The last tile's classes: the search prices one tile shape with every
    // scheme, copy method and stream count in a row. Not thread-safe.
    mutable std::unique_ptr<TileClasses> classes_;
    mutable Index3 classes_key_{0, 0, 0};

    // Per tile class: its steps and copies. They do not depend on the
    // stream count, which the search varies innermost: the last set is kept.
    struct ClassCost {
        StepTimes t;
        std::int64_t count = 0;
        TransferStats in, out, staged;  // per tile
    };
    struct CostKey {
        Index3 tile{0, 0, 0};
        Scheme scheme = Scheme::Naive;
        CopyMethod copy = CopyMethod::Merged;
        HostStrategy host = HostStrategy::AlreadyPinned;
        Index3 block{0, 0, 0};
        bool operator==(const CostKey&) const = default;
    };
    const std::vector<ClassCost>& class_costs(const Config& config, HostStrategy host, double occupancy) const;
    struct CostEntry {
        CostKey key;
        std::vector<ClassCost> costs;
    };
    mutable std::vector<CostEntry> cost_cache_;  // a few entries: one per host strategy
    mutable std::size_t cost_next_ = 0;
    std::vector<HostArray> host_arrays_;  // each array the host holds once
};

}  // namespace recipe::advisor
