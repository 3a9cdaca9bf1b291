// model_options.h — the options `recipe predict` and `recipe sweep` share
// (--platform, -D, --host-memory, --kernel-ms, --kernel, --nest), declared
// and parsed in one place.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <cxxopts.hpp>

#include "advisor/plan.h"

namespace recipe::cli {

// Declares the shared options: --platform, -D, --host-memory, --kernel-ms,
// --kernel and --nest.
void add_model_options(cxxopts::Options& opts);

// Fills `model` and `defines` from the parsed options; false with `error`
// (a one-line message without the "recipe: error: " prefix) on a bad value.
bool parse_model_options(const cxxopts::ParseResult& args, advisor::ModelOptions* model,
                         std::vector<std::pair<std::string, std::string>>* defines, std::string* error);

}  // namespace recipe::cli
