// model_options.h — the options `recipe predict` and `recipe sweep` share
// (--platform, --host-memory, --kernel-ms, --kernel, --nest), declared
// and parsed in one place.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <cxxopts.hpp>

#include "advisor/plan.h"

namespace recipe::cli {

// Declares the shared options: --platform, --host-memory, --kernel-ms,
// --kernel and --nest.
void add_model_options(cxxopts::Options& opts);

// Fills `model` from the parsed options; false with `error`
// (a one-line message without the "recipe: error: " prefix) on a bad value.
bool parse_model_options(const cxxopts::ParseResult& args, advisor::ModelOptions* model, std::string* error);

}  // namespace recipe::cli
