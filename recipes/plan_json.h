// plan_json.h — <stem>.plan.json: for every nest, the verdict, the advisor's
// ranked plans (advisor::to_json), the timeline and what the generator did.
// Floating-point values are rounded to 6 significant digits so the file does
// not change with the last bits of a different compiler's arithmetic.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "recipes/advise.h"

namespace recipe::recipes {

// The whole file's text, as nlohmann's dump(2) writes it, with a newline.
std::string plan_json_text(const AdviseResult& result, const AdviseOptions& options);

// Rounds every floating-point number in `j` to `digits` significant digits.
void round_numbers(nlohmann::json* j, int digits);

}  // namespace recipe::recipes
