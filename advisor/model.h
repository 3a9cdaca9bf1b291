// model.h — the performance model of every scheme (docs/model.md), set up
// once per problem and platform so the search can price thousands of
// configurations quickly. predict() in plan.h wraps it.
#pragma once

#include <string>

#include "advisor/kernel_time.h"
#include "advisor/plan.h"

namespace recipe::advisor {

class Model {
public:
    Model(const Problem& problem, const Platform& platform, const ModelOptions& options);

    // Prices one configuration with the cheapest allowed host strategy (or
    // config.host when set). False with `error` when it cannot run.
    bool predict(const Config& config, Prediction* out, std::string* error) const;

    const Problem& problem() const { return problem_; }
    const Platform& platform() const { return platform_; }
    bool host_pinned() const { return pinned_; }

private:
    bool normalise(Config* config, std::string* error) const;
    bool evaluate(const Config& config, HostStrategy host, Prediction* out, std::string* error) const;

    Problem problem_;
    const Platform& platform_;
    ModelOptions options_;
    KernelModel kernel_;
    bool pinned_ = false;
};

}  // namespace recipe::advisor
