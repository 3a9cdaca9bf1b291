// explain.h — a prediction in words and numbers, for `recipe predict` and
// for the recipe's "why" section.
#pragma once

#include <string>

#include "advisor/plan.h"

namespace recipe::advisor {

// Several lines: the configuration, the total against naive, the phases,
// the dominant operation, copies and bytes each way, memory, notes.
std::string explain(const Prediction& prediction, const Prediction* naive);

// "1.23 ms", "456 us", "12.3 s"; "12.3 MB".
std::string format_ms(double ms);
std::string format_bytes(std::int64_t bytes);

}  // namespace recipe::advisor
