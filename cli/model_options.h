// model_options.h — the options `recipe predict` and `recipe sweep` share
// (--platform, --host-memory, --kernel-ms, --kernel, --nest), declared
// and parsed in one place.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <cxxopts.hpp>

#include "advisor/plan.h"
#include "advisor/platform.h"
#include "advisor/request.h"
#include "cli/source_options.h"

namespace recipe::cli {

// Declares the shared options: --platform, --host-memory, --kernel-ms,
// --kernel and --nest.
void add_model_options(cxxopts::Options& opts);

// A memory size as users write it: 4GiB, 4G, 512MiB, 512M, 100000 (bytes);
// K, M, G, T are powers of 1024. False with `error` on anything else.
bool parse_memory_size(const std::string& text, std::int64_t* bytes, std::string* error);

// What predict and sweep read before they price anything: the model
// options, the file's build (its compile database applied), the platform
// and the nests (all accepted ones, or --nest's).
struct ModelRequest {
    advisor::ModelOptions model;
    advisor::Platform platform;
    std::vector<advisor::NestProblem> nests;
    std::vector<std::string> skipped;  // notes on nests the model cannot take
};
// 0 (kExitOk) with `request` filled, else the exit code with `error` set.
int read_model_request(const cxxopts::ParseResult& args, SourceOptions* source, ModelRequest* request, std::string* error);

// Fills `model` from the parsed options; false with `error`
// (a one-line message without the "recipe: error: " prefix) on a bad value.
bool parse_model_options(const cxxopts::ParseResult& args, advisor::ModelOptions* model, std::string* error);

}  // namespace recipe::cli
